#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection: reads and parses requests, asks the responder, writes replies in
/// request order, and enforces timeouts and backpressure. Lives on one event loop's thread.
final class HTTPConnection: PollHandler {
    private enum Phase {
        /// Between requests (or before the first); closes silently at the deadline.
        case idle
        /// Part of a head has arrived; 408 at the deadline.
        case head
        /// Reading a body; 408 if it stalls past the deadline.
        case body
        /// The responder has the request (possibly a delayed reply pending).
        case responding
        /// Final response sent, our side shut down; discarding input until the peer closes.
        case lingering
    }

    let fd: Int32
    private unowned let worker: LoopWorker
    private let context: ServerContext
    private let remoteHost: String
    private let remotePort: Int

    private var parser: HTTPRequestParser
    private let input = ByteBuffer()
    private let output = ByteBuffer()

    private var phase = Phase.idle
    private var deadline: UInt64
    private var lastWriteProgress: UInt64
    private var readInterest = true
    private var writeInterest = false

    private var awaitingReply = false
    private var replyTimer: UInt64?
    private var pendingOnSent: (() -> Void)?
    private var closeWhenFlushed = false
    private var lingerOnClose = true
    private var peerClosed = false
    private var stopping = false
    private var isClosed = false
    private var lingerDiscarded = 0

    init(fd: Int32, worker: LoopWorker, remoteHost: String, remotePort: Int) {
        self.fd = fd
        self.worker = worker
        self.context = worker.context
        self.remoteHost = remoteHost
        self.remotePort = remotePort
        let limits = worker.context.limits
        parser = HTTPRequestParser(
            maxRequestLineBytes: limits.maxRequestLineBytes,
            maxHeaderBytes: limits.maxHeaderBytes,
            maxBodyBytes: limits.maxBodyBytes
        )
        let now = SystemCalls.monotonicNanos()
        deadline = now &+ worker.context.headerTimeout
        lastWriteProgress = now
    }

    // MARK: Events

    func handle(_ event: PollEvent) {
        guard !isClosed else { return }
        if event.readable || event.hangup {
            if phase == .lingering { drainLingering() } else { readAvailable(force: event.hangup) }
        }
        guard !isClosed else { return }
        if event.writable {
            flush()
            if !isClosed && !input.isEmpty && !awaitingReply { process() }
        }
    }

    private func readAvailable(force: Bool) {
        guard readInterest || force else { return }
        var rounds = 0
        reading: while rounds < 4 {
            input.reserve(16 * 1024)
            let space = input.writableCount
            switch SystemCalls.read(fd, into: input.writableSpace, count: space) {
            case .bytes(let count):
                input.didWrite(count)
                rounds += 1
                if count < space { break reading }
            case .wouldBlock:
                break reading
            case .endOfFile:
                peerClosed = true
                break reading
            case .failed:
                closeNow()
                return
            }
        }
        let now = worker.loop.now
        if phase == .idle && !input.isEmpty {
            phase = .head
            deadline = now &+ context.headerTimeout
        } else if phase == .body && rounds > 0 {
            deadline = now &+ context.headerTimeout
        }
        process()
        if peerClosed && !isClosed { peerDidClose() }
    }

    private func peerDidClose() {
        if awaitingReply || !output.isEmpty || phase == .responding {
            // Answer what was asked, then close (a half-closed client can still read).
            closeWhenFlushed = true
            lingerOnClose = false
            updateInterest()
        } else {
            closeNow()
        }
    }

    // MARK: Requests

    /// Parses and answers buffered requests, one at a time so replies leave in request order.
    private func process() {
        while true {
            let stoppedForOutput = parseBuffered()
            flush()
            // A flush that drained the output below the high-water mark must resume parsing
            // here: the pipelined requests are already buffered, so no readable event will come.
            guard stoppedForOutput, !isClosed, !awaitingReply, !closeWhenFlushed, !input.isEmpty,
                  output.readableCount < context.limits.outputHighWaterMark else { return }
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
                return false
            case .headComplete(let framing):
                phase = .body
                deadline = worker.loop.now &+ context.headerTimeout
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

    private func dispatch(_ parsed: HTTPRequest, _ framing: RequestFraming) {
        var request = parsed
        request.remoteAddress = remoteHost
        request.remotePort = remotePort
        phase = .responding
        let started = SystemCalls.monotonicNanos()
        let reply = context.responder.respond(to: request)
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
                deliver(reply, version: request.version, framing: framing, started: started)
                process()
                if peerClosed && !isClosed { peerDidClose() }
            }
            updateInterest()
        } else {
            deliver(reply, version: request.version, framing: framing, started: started)
        }
    }

    private func deliver(_ reply: HTTPReply, version requestVersion: HTTPVersion, framing: RequestFraming, started: UInt64) {
        var keepAlive = framing.keepAlive && !stopping && !worker.stopping
        let status: Int
        let body: [UInt8]
        switch reply.payload {
        case .close:
            reply.onSent?(0, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started)))
            closeWhenFlushed = true
            lingerOnClose = false
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
        if !keepAlive {
            // The client asked to close (or we are stopping): nothing is left to drain, so
            // close as soon as the reply is out. Lingering is for refused requests.
            closeWhenFlushed = true
            lingerOnClose = false
        }
        // Called before the bytes reach the socket, so a client that has the response can
        // already see the exchange in the journal.
        reply.onSent?(status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started)))
        phase = .idle
        deadline = worker.loop.now &+ context.idleTimeout
        if !input.isEmpty {
            phase = .head
            deadline = worker.loop.now &+ context.headerTimeout
        }
    }

    private func appendVersion(_ version: HTTPVersion) {
        if version == .http1_1 {
            output.append("HTTP/1.1")
        } else if version == .http1_0 {
            output.append("HTTP/1.0")
        } else {
            output.append("HTTP/\(version.major).\(version.minor)")
        }
    }

    private func appendConnection(keepAlive: Bool, version: HTTPVersion) {
        if !keepAlive {
            output.append("Connection: close\r\n\r\n")
        } else if version.major == 1 && version.minor == 0 {
            output.append("Connection: keep-alive\r\n\r\n")
        } else {
            output.append("\r\n")
        }
    }

    /// Answers a refused request with a short plain-text reason and closes.
    private func reject(_ failure: HTTPParseFailure, method: String?, target: String?) {
        context.onRejection?(HTTPRejection(
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
        let target = parts.count > 1 && parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            ? String(decoding: parts[1], as: UTF8.self) : nil
        return (method, target)
    }

    // MARK: Output

    private func flush() {
        while !output.isEmpty {
            let pending = output.readable
            switch SystemCalls.send(fd, pending.baseAddress!, count: pending.count) {
            case .bytes(let count):
                output.consume(count)
                lastWriteProgress = worker.loop.now
            case .wouldBlock:
                updateInterest()
                return
            case .failed, .endOfFile:
                closeNow()
                return
            }
        }
        output.shrinkIfIdle(above: 256 * 1024)
        input.shrinkIfIdle(above: 256 * 1024)
        if closeWhenFlushed && !awaitingReply {
            if lingerOnClose && !peerClosed { startLingering() } else { closeNow() }
            return
        }
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        let read: Bool
        if phase == .lingering {
            read = true
        } else {
            read = !peerClosed && !awaitingReply && !closeWhenFlushed
                && output.readableCount < context.limits.outputHighWaterMark
        }
        let write = !output.isEmpty
        if read != readInterest || write != writeInterest {
            worker.loop.setInterest(fd, reading: read, writing: write, wasReading: readInterest, wasWriting: writeInterest)
            readInterest = read
            writeInterest = write
        }
    }

    // MARK: Closing

    /// Sends FIN and keeps reading (and discarding) briefly, so a client still sending a body
    /// we refused receives our answer instead of a reset.
    private func startLingering() {
        phase = .lingering
        shutdown(fd, Int32(SHUT_WR))
        input.consume(input.readableCount)
        deadline = worker.loop.now &+ min(2_000_000_000, context.idleTimeout)
        updateInterest()
    }

    private func drainLingering() {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let result = scratch.withUnsafeMutableBytes { SystemCalls.read(fd, into: $0.baseAddress!, count: $0.count) }
            switch result {
            case .bytes(let count):
                lingerDiscarded += count
                if lingerDiscarded > 1024 * 1024 { closeNow(); return }
            case .wouldBlock:
                return
            case .endOfFile, .failed:
                closeNow()
                return
            }
        }
    }

    /// Called by the timeout sweep.
    func checkDeadline(now: UInt64) {
        guard !isClosed else { return }
        if !output.isEmpty && now &- lastWriteProgress > context.idleTimeout {
            closeNow() // the client stopped reading
            return
        }
        guard now >= deadline else { return }
        switch phase {
        case .idle, .lingering:
            closeNow()
        case .head, .body:
            if closeWhenFlushed { closeNow(); return }
            reject(HTTPParseFailure(status: 408, reason: "request not received within \(context.limits.headerReadTimeout)"),
                   method: parser.pendingRequestLine.method, target: parser.pendingRequestLine.target)
            flush()
        case .responding:
            break
        }
    }

    /// Part of a graceful stop: idle connections close now, busy ones after their response.
    func stopGracefully() {
        stopping = true
        guard !isClosed else { return }
        switch phase {
        case .idle:
            if output.isEmpty { closeNow() } else { closeWhenFlushed = true; lingerOnClose = false }
        case .lingering:
            closeNow()
        case .head, .body, .responding:
            break
        }
    }

    func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        if let replyTimer { worker.loop.cancelTimer(replyTimer) }
        replyTimer = nil
        pendingOnSent?()
        pendingOnSent = nil
        worker.loop.deregister(fd)
        SystemCalls.close(fd)
        worker.connectionClosed(fd)
    }
}
