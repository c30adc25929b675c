#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Requests: parsing buffered input, dispatching to the responder, writing buffered and
/// prepared replies in request order, refusals; then flushing the output.
extension HTTPConnection {
    // MARK: Requests

    /// Parses and answers buffered requests, one at a time so replies leave in request order.
    func process() {
        while true {
            let stoppedForOutput = parseBuffered()
            flush()
            // A flush that drained the output below the high-water mark must resume parsing
            // here: the pipelined requests are already buffered, so no readable event will come.
            guard stoppedForOutput, !isClosed, !awaitingReply, !closeWhenFlushed, !input.isEmpty,
                output.readableCount < context.limits.outputHighWaterMark
            else { return }
        }
    }

    /// Handles complete requests in the input. Returns true when it stopped only because too
    /// much output is waiting (more input may be ready to parse once it drains).
    private func parseBuffered() -> Bool {
        while !isClosed && !awaitingReply && !closeWhenFlushed {
            guard output.readableCount < context.limits.outputHighWaterMark else { return true }
            let available = input.readable
            guard available.count > 0 else { return false }
            let wasReadingHead = phase != .body
            let (consumed, step) = parser.advance(available)
            var line: (method: String?, target: String?) = (nil, nil)
            if case .failed = step {
                line = wasReadingHead ? Self.requestLine(of: available) : parser.pendingRequestLine
            }
            input.consume(consumed)
            switch step {
            case .needMore:
                if phase == .head && input.isEmpty && !parser.isMidRequest {
                    // Only stray CRLFs between requests: still idle, not a head in progress.
                    phase = .idle
                    keepAliveIdleSince = worker.loop.now
                    deadline = worker.loop.now &+ context.idleTimeout
                }
                if phase == .body && parser.bufferedBodyBytes >= context.memory.largeWork && context.memory.isExhausted
                    && bodyReserved == 0
                {
                    rejectForMemory(parser.pendingRequestLine) // a chunked body growing past the budget
                }
                return false
            case .headComplete(let framing):
                if case .length(let length) = framing.body {
                    // A large upload must fit the budget (after the journal shed old bodies);
                    // it is counted at once, so another loop cannot take the same room.
                    guard context.memory.reserve(length) else {
                        rejectForMemory(parser.pendingRequestLine)
                        return false
                    }
                    bodyReserved = length
                    if length >= context.memory.largeWork { memoryCharged += length } // counted by reserve
                }
                phase = .body
                bodyStartedAt = worker.loop.now
                bodyBytesReceived = input.readableCount
                deadline = bodyDeadline()
                if framing.expectsContinue && input.isEmpty {
                    output.append("HTTP/1.1 100 Continue\r\n\r\n")
                }
            case .request(let request, let framing):
                dispatch(request, framing)
            case .failed(let failure):
                reject(failure, method: line.method, target: line.target)
                return false
            }
        }
        return false
    }

    /// A body gets `headerReadTimeout` plus the time its bytes so far would take at the minimum
    /// rate: a total deadline, so a byte every few seconds cannot hold the connection forever.
    func bodyDeadline() -> UInt64 {
        let rate = UInt64(max(1, context.limits.minimumBodyBytesPerSecond))
        let earned = UInt64(max(0, bodyBytesReceived)) &* 1_000_000_000 / rate
        return bodyStartedAt &+ context.headerTimeout &+ earned
    }

    /// 503 for work the memory budget cannot take now; the client may retry later.
    private func rejectForMemory(_ line: (method: String?, target: String?)) {
        reject(
            HTTPParseFailure(status: 503, reason: "the server is at its memory budget (\(context.memory.limit) bytes); try again later"),
            method: line.method, target: line.target)
    }

    private func dispatch(_ parsed: HTTPRequest, _ framing: RequestFraming) {
        bodyReserved = 0 // the body is the responder's now
        var request = parsed
        request.remoteAddress = remoteHost
        request.remotePort = remotePort
        phase = .responding
        let started = SystemCalls.monotonicNanos()
        dispatching = true
        defer { dispatching = false }
        let reply = context.responder.respond(to: request)
        send(reply, version: request.version, framing: framing, started: started)
    }

    /// Sends `reply` now, or arms its latency timer first.
    func send(_ reply: HTTPReply, version requestVersion: HTTPVersion, framing: RequestFraming, started: UInt64) {
        if reply.delay > .zero {
            awaitingReply = true
            let onSent = reply.onSent
            let status = reply.status
            pendingOnSent = onSent.map { callback in
                { callback(status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started))) }
            }
            replyTimer = worker.loop.schedule(after: reply.delay) { [self] in
                replyTimer = nil
                pendingOnSent = nil
                awaitingReply = false
                guard !isClosed else { return }
                dispatching = true
                deliver(reply, version: requestVersion, framing: framing, started: started)
                dispatching = false
                resumeAfterReply()
            }
            updateInterest()
        } else {
            deliver(reply, version: requestVersion, framing: framing, started: started)
        }
    }

    /// After a reply finished outside `process()` (a timer, a fulfilled promise, the end of a
    /// stream): answer whatever else is buffered and finish a pending close.
    func resumeAfterReply() {
        guard !isClosed, !dispatching else { return }
        process()
        if peerClosed && !isClosed { peerDidClose() }
        updateInterest()
    }

    func deliver(_ original: HTTPReply, version requestVersion: HTTPVersion, framing: RequestFraming, started: UInt64) {
        var reply = original
        if !framing.isHead, let size = Self.bufferedBodySize(of: reply), size >= context.memory.largeWork,
            !context.memory.admit(size)
        {
            // A large buffered response past the budget: refuse it rather than grow.
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            headers.add(name: "Retry-After", value: "1")
            let reason = "the server is at its memory budget (\(context.memory.limit) bytes); try again later\n"
            reply = HTTPReply(.response(HTTPResponse(status: 503, headers: headers, body: Array(reason.utf8))), onSent: reply.onSent)
        }
        var keepAlive = framing.keepAlive && !stopping && !worker.stopping
        let status: Int
        let body: [UInt8]
        switch reply.payload {
        case .close:
            reply.onSent?(0, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started)))
            closeWhenFlushed = true
            lingerOnClose = false
            return
        case .fault(let fault):
            deliverFault(fault, onSent: reply.onSent, started: started)
            return
        case .deferred(let promise):
            awaitDeferred(promise, ReplyContext(version: requestVersion, framing: framing, started: started, onSent: reply.onSent))
            return
        case .streamed(let streamed):
            startStream(streamed, ReplyContext(version: requestVersion, framing: framing, started: started, onSent: reply.onSent))
            return
        case .upgraded(let upgrade):
            startUpgrade(upgrade, ReplyContext(version: requestVersion, framing: framing, started: started, onSent: reply.onSent))
            return
        case .prepared(let prepared):
            status = prepared.response.status
            body = prepared.response.body
            keepAlive = keepAlive && !prepared.closesConnection
            let version = prepared.response.version ?? requestVersion
            appendVersion(version)
            output.append(prepared.statusAndHeaders)
            appendConnection(keepAlive: keepAlive, version: version)
        case .response(let response):
            status = response.status
            body = response.body
            let version = response.version ?? requestVersion
            appendVersion(version)
            let closes = HTTPResponseSerializer.appendStatusAndHeaders(of: response) { output.append($0) }
            keepAlive = keepAlive && !closes
            appendConnection(keepAlive: keepAlive, version: version)
        }
        if !framing.isHead && !HTTPStatus.forbidsBody(status) { output.append(body) }
        // Called before the bytes reach the socket, so a client that has the response can
        // already see the exchange in the journal.
        finishReply(status: status, keepAlive: keepAlive, onSent: reply.onSent, started: started)
    }

    private static func bufferedBodySize(of reply: HTTPReply) -> Int? {
        switch reply.payload {
        case .response(let response): response.body.count
        case .prepared(let prepared): prepared.response.body.count
        default: nil
        }
    }

    /// The end of every answered reply: report it, then wait for the next request or close.
    func finishReply(status: Int, keepAlive: Bool, onSent: (@Sendable (Int, Duration) -> Void)?, started: UInt64) {
        if !keepAlive {
            // The client asked to close (or we are stopping): nothing is left to drain, so
            // close as soon as the reply is out. Lingering is for refused requests.
            closeWhenFlushed = true
            lingerOnClose = false
        }
        onSent?(status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started)))
        phase = .idle
        keepAliveIdleSince = worker.loop.now
        deadline = worker.loop.now &+ context.idleTimeout
        if !input.isEmpty {
            phase = .head
            deadline = worker.loop.now &+ context.headerTimeout
        }
    }

    func appendVersion(_ version: HTTPVersion) {
        if version == .http1_1 {
            output.append("HTTP/1.1")
        } else if version == .http1_0 {
            output.append("HTTP/1.0")
        } else {
            output.append("HTTP/\(version.major).\(version.minor)")
        }
    }

    func appendConnection(keepAlive: Bool, version: HTTPVersion) {
        if !keepAlive {
            output.append("Connection: close\r\n\r\n")
        } else if version.major == 1 && version.minor == 0 {
            output.append("Connection: keep-alive\r\n\r\n")
        } else {
            output.append("\r\n")
        }
    }

    /// Answers a refused request with a short plain-text reason and closes.
    func reject(_ failure: HTTPParseFailure, method: String?, target: String?) {
        context.onRejection?(
            HTTPRejection(
                status: failure.status, reason: failure.reason, method: method, target: target,
                remoteAddress: remoteHost, remotePort: remotePort
            ))
        let body = failure.reason + "\n"
        output.append("HTTP/1.1 \(failure.status) \(HTTPStatus.reasonPhrase(for: failure.status))\r\n")
        output.append("Content-Type: text/plain; charset=utf-8\r\nContent-Length: ")
        output.append(decimal: body.utf8.count)
        output.append("\r\nConnection: close\r\n\r\n")
        if method != "HEAD" { output.append(body) } // a HEAD answer never has a body, errors included
        closeWhenFlushed = true
        lingerOnClose = true
        phase = .responding
        // The parser made room for an announced body before the budget was asked: give it back,
        // or every refused upload would stay charged (and allocated) until its peer closed.
        parser.body = []
        bodyReserved = 0
    }

    /// Best-effort method and target from the first line of a refused request, for logs.
    private static func requestLine(of bytes: UnsafeBufferPointer<UInt8>) -> (method: String?, target: String?) {
        var end = 0
        while end < bytes.count && end < 512 && bytes[end] != UInt8(ascii: "\n") { end += 1 }
        var start = 0
        while start < end && (bytes[start] == 13 || bytes[start] == 10) { start += 1 }
        let parts = UnsafeBufferPointer(rebasing: bytes[start..<end]).split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard let first = parts.first, first.allSatisfy(HTTPRequestParser.isTokenByte) else { return (nil, nil) }
        let method = String(decoding: first, as: UTF8.self)
        let target =
            parts.count > 1 && parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            ? String(decoding: parts[1], as: UTF8.self) : nil
        return (method, target)
    }

    // MARK: Output

    func flush() {
        flushOutput()
        accountMemory()
    }

    /// Brings this connection's share of the server's memory budget up to date: its reserve,
    /// the capacity its read and write buffers hold (allocated, not merely used: a buffer grows
    /// by doubling), and the request body being read (or the size it announced, reserved up front).
    func accountMemory() {
        guard !isClosed else { return }
        let held =
            context.limits.connectionMemoryReserve + output.capacity + input.capacity
            + max(bodyReserved, parser.bufferedBodyCapacity)
        if held != memoryCharged {
            context.memory.adjust(by: held - memoryCharged)
            memoryCharged = held
        }
    }

    private func flushOutput() {
        let hadOutput = !output.isEmpty
        while !output.isEmpty {
            let pending = output.readable
            switch transportSend(pending.baseAddress!, count: pending.count) {
            case .bytes(let count):
                output.consume(count)
                lastWriteProgress = worker.loop.now
                if case .upgraded = inFlight { lastTraffic = worker.loop.now }
                kernelQueueAtLastCheck = .max
            case .wouldBlock:
                updateInterest()
                return
            case .failed, .endOfFile:
                closeNow()
                return
            }
        }
        // A client still reading a reply is not idle: its idle time starts when the last byte left.
        if hadOutput && phase == .idle { deadline = worker.loop.now &+ context.idleTimeout }
        output.shrinkIfIdle(above: 256 * 1024)
        input.shrinkIfIdle(above: 256 * 1024)
        if case .stream = inFlight { pumpStream() }
        if isClosed { return }
        if closeWhenFlushed && !awaitingReply {
            if lingerOnClose && !peerClosed { startLingering() } else { closeNow() }
            return
        }
        updateInterest()
    }

    func updateInterest() {
        guard !isClosed else { return }
        let read: Bool
        if phase == .lingering || (tls != nil && !handshakeDone) || tlsWriteWantsRead {
            read = true
        } else {
            read =
                !peerClosed && (!awaitingReply || readsWhileAwaiting) && !closeWhenFlushed
                && output.readableCount < context.limits.outputHighWaterMark
        }
        let write: Bool
        if tls != nil && !handshakeDone && phase != .lingering {
            write = handshakeWantsWrite // queued output waits for the handshake, without spinning
        } else {
            write = (!output.isEmpty && !tlsWriteWantsRead) || tlsReadWantsWrite
        }
        if read != readInterest || write != writeInterest {
            worker.loop.setInterest(fd, reading: read, writing: write, wasReading: readInterest, wasWriting: writeInterest)
            readInterest = read
            writeInterest = write
        }
    }
}
