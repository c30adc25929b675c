/// Reads one HTTP/1.x response incrementally: status line, header block, then a body framed
/// by `Content-Length`, chunked encoding, or the end of the connection. Interim 1xx responses
/// are skipped. Every part is bounded.
struct UpstreamResponseParser {
    enum Outcome: Equatable {
        case needMore
        /// The response is complete; `reusable` says whether the connection may carry another.
        case complete(reusable: Bool)
    }

    struct Failure: Error { var reason: String }

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    let expectsBody: Bool
    let maxHeadBytes: Int
    private(set) var maxBodyBytes: Int
    private var state = State.head
    private var buffer: [UInt8] = []
    private var position = 0
    private(set) var response = UpstreamResponse(status: 0)
    private var keepAlive = true

    init(requestMethod: String, maxHeadBytes: Int = 64 * 1024, maxBodyBytes: Int) {
        expectsBody = requestMethod.uppercased() != "HEAD"
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// True once the status line and headers are parsed (the body may still be coming).
    var headIsComplete: Bool {
        if case .head = state { return false }
        return true
    }

    /// Collects the rest of the body after all, up to `limit` (a relay declined at the head).
    mutating func limitBody(to limit: Int) throws(Failure) {
        maxBodyBytes = limit
        if case .fixed(let remaining) = state, response.body.count + remaining > limit {
            throw Failure(reason: "body larger than \(limit) bytes")
        }
    }

    /// The body bytes parsed so far, handed over and forgotten (a streamed body never
    /// accumulates here; its size limit is the consumer's).
    mutating func takeBody() -> [UInt8] {
        defer { response.body = [] }
        return response.body
    }

    /// True once any byte of the response arrived (a reused connection that fails before
    /// that may be retried on a fresh one).
    var hasStarted: Bool { !buffer.isEmpty || response.status != 0 }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Outcome {
        buffer.append(contentsOf: bytes)
        return try advance()
    }

    /// The peer closed its side: completes a close-delimited body, fails anything else.
    mutating func finish() throws(Failure) -> Outcome {
        switch state {
        case .untilClose:
            state = .done
            return .complete(reusable: false)
        case .done:
            return .complete(reusable: false)
        case .head where buffer.isEmpty && response.status == 0:
            throw Failure(reason: "the connection closed before a response")
        default:
            throw Failure(reason: "the connection closed in the middle of the response")
        }
    }

    private mutating func advance() throws(Failure) -> Outcome {
        while true {
            switch state {
            case .head:
                guard let end = find(crlfcrlf, from: position) else {
                    if buffer.count - position > maxHeadBytes { throw Failure(reason: "header block larger than \(maxHeadBytes) bytes") }
                    return .needMore
                }
                try parseHead(buffer[position..<end])
                position = end + 4
                if (100..<200).contains(response.status) && response.status != 101 {
                    response = UpstreamResponse(status: 0)
                    continue
                }
                try chooseFraming()
            case .fixed(let remaining):
                guard moveBody(remaining, then: .done, waiting: { .fixed(remaining: $0) }) else { return .needMore }
            case .chunkSize:
                guard let end = find(crlf, from: position) else {
                    if buffer.count - position > 1024 { throw Failure(reason: "chunk size line too long") }
                    return .needMore
                }
                var line = buffer[position..<end]
                if let semicolon = line.firstIndex(of: UInt8(ascii: ";")) { line = line[..<semicolon] }
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                guard let size = Int(text, radix: 16), size >= 0 else { throw Failure(reason: "bad chunk size \"\(text)\"") }
                position = end + 2
                if size == 0 {
                    state = .trailers
                } else {
                    guard response.body.count + size <= maxBodyBytes else {
                        throw Failure(reason: "body larger than \(maxBodyBytes) bytes")
                    }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                guard moveBody(remaining, then: .chunkDataEnd, waiting: { .chunkData(remaining: $0) }) else { return .needMore }
            case .chunkDataEnd:
                guard buffer.count - position >= 2 else { return .needMore }
                guard buffer[position] == 13, buffer[position + 1] == 10 else { throw Failure(reason: "chunk not followed by CRLF") }
                position += 2
                state = .chunkSize
            case .trailers:
                guard let end = find(crlf, from: position) else {
                    if buffer.count - position > maxHeadBytes { throw Failure(reason: "trailer block too large") }
                    return .needMore
                }
                let empty = end == position
                position = end + 2
                if empty { state = .done }
            case .untilClose:
                response.body.append(contentsOf: buffer[position...])
                position = buffer.count
                if response.body.count > maxBodyBytes { throw Failure(reason: "body larger than \(maxBodyBytes) bytes") }
                compact()
                return .needMore
            case .done:
                // Bytes after a complete response on a connection we did not pipeline on: the
                // upstream is confused, so the connection is not reused.
                return .complete(reusable: keepAlive && position == buffer.count)
            }
        }
    }

    private mutating func parseHead(_ head: ArraySlice<UInt8>) throws(Failure) {
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 13 ? line.dropLast() : line
        }
        guard let statusLine = lines.first else { throw Failure(reason: "empty status line") }
        let parts = statusLine.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let version = HTTPVersion(String(decoding: parts[0], as: UTF8.self)), version.major == 1 else {
            throw Failure(reason: "bad status line \"\(String(decoding: statusLine.prefix(80), as: UTF8.self))\"")
        }
        // RFC 9110 §15: three digits, 100 to 599; anything else (999) is not a status to pass on.
        guard parts[1].count == 3, parts[1].allSatisfy({ (48...57).contains($0) }),
            let status = Int(String(decoding: parts[1], as: UTF8.self)), (100...599).contains(status)
        else {
            throw Failure(reason: "bad status code in \"\(String(decoding: statusLine.prefix(80), as: UTF8.self))\"")
        }
        response.version = version
        response.status = status
        response.reason = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw Failure(reason: "bad header line \"\(String(decoding: line.prefix(80), as: UTF8.self))\"")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            guard name.utf8.allSatisfy(HTTPRequestParser.isTokenByte) else { throw Failure(reason: "bad header name \"\(name)\"") }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            headers.add(name: name, value: value)
        }
        response.headers = headers
        let connection = headers.values(for: "Connection").joined(separator: ",").lowercased()
        if version == .http1_0 {
            keepAlive = connection.contains("keep-alive")
        } else {
            keepAlive = !connection.contains("close")
        }
    }

    private mutating func chooseFraming() throws(Failure) {
        let headers = response.headers
        let framing = headers
        response.headers = HopByHop.strip(headers)
        if !expectsBody || HTTPStatus.forbidsBody(response.status) || response.status == 101 {
            state = .done
            return
        }
        if let coding = framing.values(for: "Transfer-Encoding").last {
            guard coding.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked" else {
                keepAlive = false
                state = .untilClose
                return
            }
            response.headers.remove(name: "Content-Length")
            state = .chunkSize
            return
        }
        let lengths = Set(
            framing.values(for: "Content-Length").flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) })
        if let only = lengths.first {
            guard lengths.count == 1, let length = Int(only), length >= 0 else { throw Failure(reason: "bad Content-Length") }
            guard length <= maxBodyBytes else { throw Failure(reason: "body larger than \(maxBodyBytes) bytes") }
            response.body.reserveCapacity(length)
            state = length == 0 ? .done : .fixed(remaining: length)
            return
        }
        keepAlive = false
        state = .untilClose
    }

    private let crlf: [UInt8] = [13, 10]
    private let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard buffer.count - start >= needle.count else { return nil }
        var index = start
        let last = buffer.count - needle.count
        while index <= last {
            if buffer[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where buffer[index + offset] != needle[offset] { matched = false; break }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    /// Drops consumed bytes so a long body does not keep them twice.
    /// Moves up to `remaining` buffered body bytes into the response. True when all of them
    /// were there (the state moves on to `next`); false when more must come (the state keeps
    /// how many, through `waiting`).
    private mutating func moveBody(_ remaining: Int, then next: State, waiting: (Int) -> State) -> Bool {
        let available = min(remaining, buffer.count - position)
        response.body.append(contentsOf: buffer[position..<(position + available)])
        position += available
        guard available == remaining else {
            state = waiting(remaining - available)
            compact()
            return false
        }
        state = next
        return true
    }

    private mutating func compact() {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
    }
}
