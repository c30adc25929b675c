import Foundation

/// The part of a response plan that is not one complete response: server-sent events, a
/// dribbled body, a fault, a websocket. Applied after every other step, it turns the built
/// draft (status, headers, body) into a streamed, fault or upgraded `HTTPReply`.
enum LivePlan: Sendable {
    case sse(SSEPlan)
    case dribble(Dribble)
    case fault(ResponseFault)
    case websocket(WebSocketPlan)

    func reply(_ draft: ResponseDraft, input: TemplateContext?) throws(ResponseFailure) -> HTTPReply {
        switch self {
        case .sse(let plan):
            return HTTPReply(.streamed(try plan.stream(draft, input: input)), delay: draft.delay)
        case .dribble(let dribble):
            return HTTPReply(.streamed(Self.dribbled(draft, dribble)), delay: draft.delay)
        case .fault(let fault):
            return HTTPReply(.fault(Self.httpFault(fault)), delay: draft.delay)
        case .websocket(let plan):
            guard let input else { throw ResponseFailure(message: "a websocket needs a request") }
            return plan.reply(to: input.view.request, draft: draft)
        }
    }

    /// The draft's body in pieces: `Content-Length` is kept, so progress bars work. Pieces are
    /// cut when the connection asks for them, so a client that stops reading holds no copies.
    static func dribbled(_ draft: ResponseDraft, _ dribble: Dribble) -> HTTPStreamedResponse {
        var head = draft.response
        let body = head.body
        head.body = []
        let count: Int
        let pause: Duration
        switch dribble {
        case .chunks(let chunks, let duration):
            count = max(1, min(chunks, max(body.count, 1)))
            pause = count > 1 ? duration / (count - 1) : .zero
        case .bytesPerSecond(let rate):
            // A tenth of a second's worth per piece; below 10 B/s one byte per 1/rate seconds
            // (a fixed 100 ms pause made every slower rate 10 B/s).
            let size = max(1, rate / 10)
            count = max(1, (body.count + size - 1) / size)
            pause = .nanoseconds(Int64(size) * 1_000_000_000 / Int64(max(rate, 1)))
        }
        return HTTPStreamedResponse(head: head, contentLength: body.count) { stream in
            let index = stream.index
            guard index < count else { return stream.finish() }
            let start = body.count * index / count
            let end = body.count * (index + 1) / count
            stream.schedule(after: index == 0 ? .zero : pause) { stream.write(Array(body[start..<end])) }
        }
    }

    static func httpFault(_ fault: ResponseFault) -> HTTPFault {
        switch fault {
        case .connectionReset:
            return .connectionReset
        case .emptyResponse:
            return .emptyResponse
        case .malformedResponse:
            // An OK head, then a chunk whose size line is not hexadecimal (WireMock's
            // MALFORMED_RESPONSE_CHUNK): clients fail while reading the body.
            return .bytesThenClose(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlol, not a chunk\r\n".utf8))
        case .randomDataThenClose:
            var generator = SystemRandomNumberGenerator()
            return .bytesThenClose((0..<1024).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }
}

/// `sse` compiled: inline events, or a file of events read per request.
struct SSEPlan: Sendable {
    var events: [SSEEvent]
    var file: TextPlan?
    var root: String
    var fallback: String?
    var delay: Duration?

    func stream(_ draft: ResponseDraft, input: TemplateContext?) throws(ResponseFailure) -> HTTPStreamedResponse {
        var events = events
        if let file {
            let name = try file.render(input)
            switch ConfinedFiles.read(name, root: root, fallback: file.isStatic ? fallback : nil) {
            case .success(let bytes):
                do throws(SSEFileError) {
                    events = try Self.parse(String(decoding: bytes, as: UTF8.self))
                } catch {
                    throw ResponseFailure(message: "\(quoted(name)): \(error.message)")
                }
            case .failure(let failure):
                throw ResponseFailure(message: failure.message)
            }
        }
        var head = draft.response
        head.body = []
        if draft.contentTypeIsDefault || !head.headers.contains("Content-Type") {
            head.headers.replaceOrAdd(name: "Content-Type", value: "text/event-stream")
        }
        head.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
        head.headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        // Each event is written when the connection asks for it (back-pressure), then its delay.
        let delay = delay
        let chosen = events
        return HTTPStreamedResponse(head: head, closesConnection: true) { stream in
            let index = stream.index
            let pause = index > 0 ? chosen[index - 1].delay ?? delay ?? .zero : .zero
            stream.schedule(after: pause) {
                if index < chosen.count { stream.write(Array(chosen[index].wireText.utf8)) } else { stream.finish() }
            }
        }
    }

    struct SSEFileError: Error {
        var message: String
    }

    /// moco's event file: blocks separated by blank lines; `field: value` lines (`data` may
    /// repeat); a block without `data` is an error; unknown fields are ignored.
    static func parse(_ text: String) throws(SSEFileError) -> [SSEEvent] {
        var events: [SSEEvent] = []
        var block: [(line: Int, key: String, value: String)] = []
        func finish() throws(SSEFileError) {
            defer { block = [] }
            guard let first = block.first else { return }
            var event = SSEEvent(data: [])
            for field in block {
                switch field.key {
                case "id": event.id = field.value
                case "event": event.event = field.value
                case "data": event.data.append(field.value)
                case "retry":
                    guard let retry = Int(field.value), retry > 0 else {
                        throw SSEFileError(
                            message: "line \(field.line): retry must be a positive number of milliseconds, got \(quoted(field.value))")
                    }
                    event.retry = retry
                case "delay":
                    guard let delay = Double(field.value), delay >= 0, delay.isFinite else {
                        throw SSEFileError(
                            message: "line \(field.line): delay must be a number of milliseconds, got \(quoted(field.value))")
                    }
                    event.delay = .nanoseconds(Int64(delay * 1_000_000))
                default: break
                }
            }
            guard !event.data.isEmpty else {
                throw SSEFileError(message: "line \(first.line): an event needs at least one data: line")
            }
            events.append(event)
        }
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                try finish()
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            block.append((number, key, value))
        }
        try finish()
        return events
    }
}
