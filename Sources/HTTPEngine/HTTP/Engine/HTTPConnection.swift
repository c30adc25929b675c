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
    /// When the current request's body started, and how many bytes of it arrived since.
    private var bodyStartedAt: UInt64 = 0
    private var bodyBytesReceived = 0
    /// Bytes this connection counts against the memory budget now, and the announced size of
    /// the body being read (reserved when its head arrived).
    private var memoryCharged = 0
    private var bodyReserved = 0
    /// The kernel send queue's size when a stalled write was last checked.
    private var kernelQueueAtLastCheck = Int.max
    /// When the connection last became idle between requests (for slot eviction).
    private var keepAliveIdleSince: UInt64
    /// When the connection went quiet, for slot eviction: between requests, or (upgraded) its
    /// last byte read or written.
    var idleSince: UInt64 {
        if case .upgraded = inFlight { return lastTraffic }
        return keepAliveIdleSince
    }

    /// A reply that outlives one write (deferred, streamed, upgraded); see "Reply kinds" below.
    private var inFlight = InFlightReply.none
    /// When the deferred reply or the stream's next piece is overdue.
    private var replyDeadline = UInt64.max
    /// True while a request is being dispatched, so replies finished synchronously inside it
    /// let the dispatching loop carry on instead of re-entering `process()`.
    private var dispatching = false
    /// Last byte read or written on an upgraded connection.
    private var lastTraffic: UInt64 = 0
    /// Close with a reset instead of a FIN (the `connectionReset` fault).
    private var resetOnClose = false
    /// A flush of an upgraded connection's queued sends is due on this loop turn.
    private var upgradedFlushScheduled = false
    /// The rest of an upgraded connection's input is due to its handler on a later turn.
    private var upgradedInputScheduled = false

    /// HTTPS: the session every byte goes through (nil for plain HTTP). See "TLS" below.
    private let tls: TLSServerSession?
    /// The server serves TLS but no session could be made for this socket: close at once.
    private let tlsUnavailable: Bool
    private var handshakeDone = false
    private var handshakeWantsWrite = false
    /// The first byte was looked at (a TLS record, or a plain-HTTP client on the TLS port).
    private var firstByteChecked = false
    /// OpenSSL asked a read to wait for writability, or a write to wait for readability.
    private var tlsReadWantsWrite = false
    private var tlsWriteWantsRead = false

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
        keepAliveIdleSince = now
        if let context = worker.context.tls {
            tls = TLSServerSession(context: context, descriptor: fd)
            tlsUnavailable = tls == nil
        } else {
            tls = nil
            tlsUnavailable = false
        }
    }

    /// Idle between requests with nothing to send, or upgraded and silent (no byte either way)
    /// for the keep-alive idle time: the connection a new client may displace. A websocket in
    /// use holds state worth more than a keep-alive socket, hence the minimum silence; without
    /// it 4,096 idle websockets would lock every new client out for their 10-minute timeout.
    var isEvictable: Bool {
        guard !isClosed, !closeWhenFlushed else { return false }
        if case .upgraded = inFlight { return worker.loop.now &- lastTraffic >= context.idleTimeout }
        return phase == .idle && output.isEmpty && input.isEmpty && !awaitingReply
    }

    // MARK: Events

    func handle(_ event: PollEvent) {
        guard !isClosed else { return }
        if tlsUnavailable { closeNow(); return }
        if tls != nil {
            if !handshakeDone && phase != .lingering {
                continueHandshake()
                return
            }
            if tlsWriteWantsRead && (event.readable || event.hangup) {
                tlsWriteWantsRead = false
                flush()
                guard !isClosed else { return }
            }
            if tlsReadWantsWrite && event.writable {
                tlsReadWantsWrite = false
                readAvailable(force: true)
                guard !isClosed else { return }
            }
        }
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
        var bytesRead = 0
        reading: while rounds < 4 {
            input.reserve(16 * 1024)
            let space = input.writableCount
            switch transportRead(into: input.writableSpace, count: space) {
            case .bytes(let count):
                input.didWrite(count)
                rounds += 1
                bytesRead += count
                if count < space && (tls?.bufferedBytes ?? 0) == 0 { break reading }
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
        if let tls, tls.bufferedBytes > 0, !peerClosed {
            // Decrypted bytes wait inside OpenSSL while the socket may be empty: no event
            // would come for them, so read again on the loop's next turn.
            _ = worker.loop.schedule(after: .zero) { [self] in if !isClosed { readAvailable(force: true) } }
        }
        if case .upgraded = inFlight {
            upgradedDidRead(rounds > 0)
            return
        }
        let now = worker.loop.now
        if phase == .idle && !input.isEmpty {
            phase = .head
            deadline = now &+ context.headerTimeout
        } else if phase == .body && bytesRead > 0 {
            bodyBytesReceived += bytesRead
            deadline = bodyDeadline()
        }
        process()
        // A body's bytes now sit in the parser: the read buffer (grown to 64 KiB by a burst)
        // is given back, or 200 stalled uploads would each hold one outside the budget.
        if phase == .body { input.shrinkIfIdle(above: 16 * 1024) }
        if peerClosed && !isClosed { peerDidClose() }
    }

    private func peerDidClose() {
        if case .none = inFlight {} else {
            // Waiting on a deferred reply, a stream or an upgraded protocol: the client is
            // gone, so cancel the work rather than finish it for nobody.
            closeNow()
            return
        }
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
                if phase == .head && input.isEmpty && !parser.isMidRequest {
                    // Only stray CRLFs between requests: still idle, not a head in progress.
                    phase = .idle
                    keepAliveIdleSince = worker.loop.now
                    deadline = worker.loop.now &+ context.idleTimeout
                }
                if phase == .body && parser.bufferedBodyBytes >= context.memory.largeWork && context.memory.isExhausted
                    && bodyReserved == 0 {
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
                    memoryCharged += length
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
    private func bodyDeadline() -> UInt64 {
        let rate = UInt64(max(1, context.limits.minimumBodyBytesPerSecond))
        let earned = UInt64(max(0, bodyBytesReceived)) &* 1_000_000_000 / rate
        return bodyStartedAt &+ context.headerTimeout &+ earned
    }

    /// 503 for work the memory budget cannot take now; the client may retry later.
    private func rejectForMemory(_ line: (method: String?, target: String?)) {
        reject(HTTPParseFailure(status: 503, reason: "the server is at its memory budget (\(context.memory.limit) bytes); try again later"),
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
    private func send(_ reply: HTTPReply, version requestVersion: HTTPVersion, framing: RequestFraming, started: UInt64) {
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
    private func resumeAfterReply() {
        guard !isClosed, !dispatching else { return }
        process()
        if peerClosed && !isClosed { peerDidClose() }
        updateInterest()
    }

    private func deliver(_ original: HTTPReply, version requestVersion: HTTPVersion, framing: RequestFraming, started: UInt64) {
        var reply = original
        if !framing.isHead, let size = Self.bufferedBodySize(of: reply), size >= context.memory.largeWork,
           !context.memory.admit(size) {
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
    private func finishReply(status: Int, keepAlive: Bool, onSent: (@Sendable (Int, Duration) -> Void)?, started: UInt64) {
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
        flushOutput()
        accountMemory()
    }

    /// Brings this connection's share of the server's memory budget up to date: unsent output
    /// plus the request body being read (or the size it announced, reserved up front).
    private func accountMemory() {
        guard !isClosed else { return }
        let held = output.readableCount + max(bodyReserved, input.readableCount + parser.bufferedBodyBytes)
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

    private func updateInterest() {
        guard !isClosed else { return }
        let read: Bool
        if phase == .lingering || (tls != nil && !handshakeDone) || tlsWriteWantsRead {
            read = true
        } else {
            read = !peerClosed && (!awaitingReply || readsWhileAwaiting) && !closeWhenFlushed
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

    // MARK: Closing

    /// Sends FIN and keeps reading (and discarding) briefly, so a client still sending a body
    /// we refused receives our answer instead of a reset.
    private func startLingering() {
        phase = .lingering
        if handshakeDone { tls?.shutdown() }
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
        if tls != nil && !handshakeDone && phase != .lingering {
            if now >= deadline { failHandshake("TLS handshake not completed within \(context.limits.headerReadTimeout)") }
            return
        }
        if !output.isEmpty && now &- lastWriteProgress > context.idleTimeout {
            // Writability is only signalled once much of the socket buffer is free, so a slow
            // reader may still be taking bytes: it is stalled only if the kernel's queue did
            // not shrink either.
            flush()
            if isClosed { return }
            if let queued = SystemCalls.unsentBytes(fd), queued < kernelQueueAtLastCheck {
                lastWriteProgress = now
                kernelQueueAtLastCheck = queued
            } else if !output.isEmpty && now &- lastWriteProgress > context.idleTimeout {
                closeNow() // the client stopped reading
                return
            }
        }
        if now >= replyDeadline {
            replyTimedOut()
            return
        }
        if case .upgraded = inFlight, now &- lastTraffic > context.upgradedIdleTimeout {
            closeNow()
            return
        }
        guard now >= deadline else { return }
        switch phase {
        case .idle where !output.isEmpty:
            break // still writing: only a write stall (above) ends it
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
        if case .upgraded(let upgraded) = inFlight {
            upgraded.handler.serverWillStop()
            return
        }
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
        context.memory.adjust(by: -memoryCharged)
        memoryCharged = 0
        worker.loop.deregister(fd)
        if resetOnClose { SystemCalls.setResetOnClose(fd) } else if handshakeDone && phase != .lingering { tls?.shutdown() }
        SystemCalls.close(fd)
        worker.connectionClosed(fd)
        abandonInFlight()
    }

    // MARK: TLS

    /// Reads through TLS when serving HTTPS, else straight from the socket.
    private func transportRead(into buffer: UnsafeMutableRawPointer, count: Int) -> SystemCalls.IOResult {
        guard let tls else { return SystemCalls.read(fd, into: buffer, count: count) }
        switch tls.read(into: buffer, count: count) {
        case .done(let read): return .bytes(read)
        case .wantRead: return .wouldBlock
        case .wantWrite:
            tlsReadWantsWrite = true
            updateInterest()
            return .wouldBlock
        case .closed: return .endOfFile
        case .failed: return .failed(EIO)
        }
    }

    private func transportSend(_ bytes: UnsafeRawPointer, count: Int) -> SystemCalls.IOResult {
        guard let tls else { return SystemCalls.send(fd, bytes, count: count) }
        guard handshakeDone else { return .wouldBlock } // queued until the handshake completes
        switch tls.write(bytes, count: count) {
        case .done(let written): return .bytes(written)
        case .wantWrite: return .wouldBlock
        case .wantRead:
            tlsWriteWantsRead = true
            return .wouldBlock
        case .closed: return .endOfFile
        case .failed: return .failed(EIO)
        }
    }

    /// One step of the server handshake, on every event until it completes. A client whose
    /// first byte is not a TLS handshake record (plain HTTP on the HTTPS port) gets a
    /// plain-text 400 instead of a hang or a TLS alert it cannot read.
    private func continueHandshake() {
        guard let tls else { return }
        if !firstByteChecked {
            var first: UInt8 = 0
            let peeked = recv(fd, &first, 1, Int32(MSG_PEEK))
            if peeked == 0 { closeNow(); return }
            if peeked < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                closeNow()
                return
            }
            firstByteChecked = true
            if first != 0x16 { refusePlainHTTP(); return }
        }
        switch tls.handshake() {
        case .done:
            handshakeDone = true
            handshakeWantsWrite = false
            deadline = worker.loop.now &+ context.headerTimeout
            updateInterest()
            flush() // bytes a stream handler queued meanwhile
            if !isClosed { readAvailable(force: true) } // application data may have come with the last flight
        case .wantRead:
            handshakeWantsWrite = false
            updateInterest()
        case .wantWrite:
            handshakeWantsWrite = true
            updateInterest()
        case .closed:
            closeNow()
        case .failed(let reason):
            failHandshake("TLS handshake failed: \(reason)")
        }
    }

    private func failHandshake(_ reason: String) {
        context.onRejection?(HTTPRejection(status: 0, reason: reason, method: nil, target: nil, remoteAddress: remoteHost, remotePort: remotePort))
        closeNow()
    }

    private func refusePlainHTTP() {
        let reason = "plain HTTP sent to an HTTPS port"
        context.onRejection?(HTTPRejection(status: 400, reason: reason, method: nil, target: nil, remoteAddress: remoteHost, remotePort: remotePort))
        let body = "This port speaks HTTPS: use an https:// URL.\n"
        let text = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        // A few hundred bytes into an empty socket buffer: one send, never a wait.
        _ = Array(text.utf8).withUnsafeBytes { SystemCalls.send(fd, $0.baseAddress!, count: $0.count) }
        startLingering()
    }

    // MARK: Reply kinds: deferred, streamed, upgraded, faults

    /// A stream server's connection: handed to `handler` before any byte is read.
    func startRawStream(_ handler: any HTTPUpgradeHandler) {
        let channel = HTTPUpgradedChannel(loop: worker.loop, connection: self, remoteAddress: remoteHost, remotePort: remotePort)
        inFlight = .upgraded(UpgradeState(handler: handler, channel: channel))
        awaitingReply = true
        phase = .responding
        lastTraffic = worker.loop.now
        handler.didStart(channel)
        updateInterest()
    }

    /// Bytes of pipelined input buffered while a deferred or streamed reply is in progress.
    /// Reading continues up to this bound so a disconnect is noticed (and the work cancelled).
    private static let busyInputLimit = 64 * 1024
    /// A stream's producer is asked for the next piece once the unsent output is below this.
    private static let streamLowWaterMark = 32 * 1024

    private var readsWhileAwaiting: Bool {
        switch inFlight {
        case .none: false
        case .deferred, .stream, .upgraded: input.readableCount < Self.busyInputLimit
        }
    }

    /// Bytes queued for the socket.
    var pendingOutputBytes: Int { output.readableCount }

    private func deliverFault(_ fault: HTTPFault, onSent: (@Sendable (Int, Duration) -> Void)?, started: UInt64) {
        switch fault {
        case .connectionReset: resetOnClose = true
        case .emptyResponse: break
        case .bytesThenClose(let bytes): output.append(bytes)
        }
        onSent?(0, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started)))
        closeWhenFlushed = true
        lingerOnClose = false
    }

    private func awaitDeferred(_ promise: HTTPReplyPromise, _ reply: ReplyContext) {
        awaitingReply = true
        phase = .responding
        inFlight = .deferred(promise, reply)
        replyDeadline = worker.loop.now &+ context.replyTimeout
        let loop = worker.loop
        let resume = UncheckedAction<HTTPReply> { [weak self] fulfilled in self?.deferredFulfilled(promise, fulfilled) }
        promise.whenFulfilled { fulfilled in
            if loop.inLoop { resume.action(fulfilled) } else { loop.execute { resume.action(fulfilled) } }
        }
        updateInterest()
    }

    private func deferredFulfilled(_ promise: HTTPReplyPromise, _ fulfilled: HTTPReply) {
        guard !isClosed, case .deferred(let pending, let reply) = inFlight, pending === promise else { return }
        inFlight = .none
        awaitingReply = false
        replyDeadline = .max
        var next = fulfilled
        if let outer = reply.onSent {
            let inner = fulfilled.onSent
            next.onSent = { status, elapsed in
                inner?(status, elapsed)
                outer(status, elapsed)
            }
        }
        send(next, version: reply.version, framing: reply.framing, started: reply.started)
        resumeAfterReply()
    }

    private func replyTimedOut() {
        replyDeadline = .max
        switch inFlight {
        case .deferred(let promise, let reply):
            inFlight = .none
            awaitingReply = false
            promise.cancel()
            let reason = "the reply was not ready within \(context.limits.replyTimeout)\n"
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            deliver(HTTPReply(.response(HTTPResponse(status: 504, headers: headers, body: Array(reason.utf8))), onSent: reply.onSent),
                    version: reply.version, framing: reply.framing, started: reply.started)
            resumeAfterReply()
        case .stream:
            closeNow() // mid-body: closing is the only way to tell the client it is truncated
        case .upgraded, .none:
            break
        }
    }

    private func startStream(_ streamed: HTTPStreamedResponse, _ reply: ReplyContext) {
        let head = streamed.head
        let version = head.version ?? reply.version
        let length = streamed.contentLength.map { max($0, 0) }
        let chunked = length == nil && (version.major > 1 || (version.major == 1 && version.minor >= 1))
        let forbidsBody = HTTPStatus.forbidsBody(head.status)
        let noBody = reply.framing.isHead || forbidsBody
        appendVersion(version)
        let closes = HTTPResponseSerializer.appendStatusAndHeaders(of: head, contentLength: false) { output.append($0) }
        // A close-delimited body (HTTP/1.0) ends the connection; so does a stream that asks to.
        let keepAlive = reply.framing.keepAlive && !stopping && !worker.stopping && !closes
            && !streamed.closesConnection && (chunked || noBody || length != nil)
        if chunked && !forbidsBody { output.append("Transfer-Encoding: chunked\r\n") }
        if let length, !forbidsBody {
            output.append("Content-Length: ")
            output.append(decimal: length)
            output.append("\r\n")
        }
        appendConnection(keepAlive: keepAlive, version: version)
        guard !noBody else {
            finishReply(status: head.status, keepAlive: keepAlive, onSent: reply.onSent, started: reply.started)
            return
        }
        let state = StreamState(
            body: HTTPBodyStream(loop: worker.loop, connection: self), produce: streamed.produce,
            chunked: chunked, keepAlive: keepAlive, status: head.status, reply: reply
        )
        state.remaining = length
        inFlight = .stream(state)
        awaitingReply = true
        phase = .responding
        if !head.body.isEmpty { appendPiece(head.body, to: state) }
        pumpStream()
    }

    /// Asks the producer for the next piece when the previous ones have drained. Re-entrant
    /// calls (a producer that writes at once) loop here instead of recursing.
    private func pumpStream() {
        guard case .stream(let state) = inFlight, !isClosed, !state.demandOutstanding,
              output.readableCount < Self.streamLowWaterMark else { return }
        if state.pumping { state.pumpAgain = true; return }
        state.pumping = true
        defer { state.pumping = false }
        repeat {
            state.pumpAgain = false
            state.demandOutstanding = true
            replyDeadline = worker.loop.now &+ context.replyTimeout
            state.body.noteDemand()
            state.produce(state.body)
        } while state.pumpAgain && !isClosed && isCurrent(state) && !state.demandOutstanding
            && output.readableCount < Self.streamLowWaterMark
    }

    private func isCurrent(_ state: StreamState) -> Bool {
        if case .stream(let current) = inFlight { return current === state }
        return false
    }

    private func appendPiece(_ bytes: [UInt8], to state: StreamState) {
        guard !bytes.isEmpty else { return }
        if let remaining = state.remaining {
            // More than the announced length cannot be framed: send what fits, then close.
            output.append(Array(bytes.prefix(remaining)))
            state.remaining = remaining - min(remaining, bytes.count)
            if bytes.count > remaining { state.overran = true }
        } else if state.chunked {
            output.append(String(bytes.count, radix: 16))
            output.append("\r\n")
            output.append(bytes)
            output.append("\r\n")
        } else {
            output.append(bytes)
        }
    }

    func streamDidWrite(_ bytes: [UInt8], from body: HTTPBodyStream) {
        guard !isClosed, case .stream(let state) = inFlight, state.body === body else { return }
        state.demandOutstanding = false
        replyDeadline = .max
        appendPiece(bytes, to: state)
        if state.overran {
            closeWhenFlushed = true
            lingerOnClose = false
            inFlight = .none
            awaitingReply = false
            body.cancel()
            state.reply.onSent?(state.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- state.reply.started)))
        }
        flush()
    }

    func streamDidAbort(from body: HTTPBodyStream) {
        guard !isClosed, case .stream(let state) = inFlight, state.body === body else { return }
        closeWhenFlushed = true
        lingerOnClose = false
        inFlight = .none
        awaitingReply = false
        replyDeadline = .max
        body.cancel()
        state.reply.onSent?(state.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- state.reply.started)))
        flush()
    }

    func streamDidFinish(from body: HTTPBodyStream) {
        guard !isClosed, case .stream(let state) = inFlight, state.body === body else { return }
        inFlight = .none
        awaitingReply = false
        replyDeadline = .max
        if state.chunked { output.append("0\r\n\r\n") }
        body.retire()
        // A body shorter than its Content-Length can only be reported by closing.
        let keepAlive = state.keepAlive && !stopping && !worker.stopping && (state.remaining ?? 0) == 0
        finishReply(status: state.status, keepAlive: keepAlive, onSent: state.reply.onSent, started: state.reply.started)
        flush()
        resumeAfterReply()
    }

    private func startUpgrade(_ upgrade: HTTPUpgrade, _ reply: ReplyContext) {
        let head = upgrade.head
        appendVersion(head.version ?? reply.version)
        _ = HTTPResponseSerializer.appendStatusAndHeaders(of: head, contentLength: false) { output.append($0) }
        output.append("Connection: Upgrade\r\n\r\n")
        let channel = HTTPUpgradedChannel(loop: worker.loop, connection: self, remoteAddress: remoteHost, remotePort: remotePort)
        let handler = upgrade.makeHandler()
        inFlight = .upgraded(UpgradeState(handler: handler, channel: channel))
        awaitingReply = true
        phase = .responding
        lastTraffic = worker.loop.now
        reply.onSent?(head.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- reply.started)))
        handler.didStart(channel)
        if !isClosed && !input.isEmpty {
            let early = Array(input.readable)
            input.consume(early.count)
            handler.didReceive(early)
        }
        updateInterest()
    }

    /// Bytes of an upgraded connection's input handed to its handler per loop turn. What a
    /// handler does with them can fan out (a websocket broadcast sends each message to every
    /// member), so a client's burst is taken in slices, other connections served in between.
    private static let upgradedSliceBytes = 2 * 1024

    private func upgradedDidRead(_ gotBytes: Bool) {
        guard case .upgraded(let upgraded) = inFlight else { return }
        if gotBytes { lastTraffic = worker.loop.now }
        if !input.isEmpty && !closeWhenFlushed {
            let bytes = Array(input.readable.prefix(Self.upgradedSliceBytes))
            input.consume(bytes.count)
            upgraded.handler.didReceive(bytes)
        }
        guard !isClosed else { return }
        if !input.isEmpty && !closeWhenFlushed {
            scheduleUpgradedInput()
        } else if peerClosed {
            closeNow()
            return
        }
        flush()
    }

    /// The rest of the input on a later turn, after the events already waiting.
    private func scheduleUpgradedInput() {
        guard !upgradedInputScheduled else { return }
        upgradedInputScheduled = true
        let resume = UncheckedAction<Void> { [weak self] _ in
            guard let self else { return }
            upgradedInputScheduled = false
            if !isClosed { upgradedDidRead(false) }
        }
        worker.loop.execute { resume.action(()) }
    }

    func upgradedSend(_ bytes: [UInt8]) {
        guard !isClosed, !closeWhenFlushed, case .upgraded = inFlight else { return }
        let limit = context.limits.outputHighWaterMark
        if !output.isEmpty && output.readableCount + bytes.count > limit {
            flush() // let the kernel take what it will before judging the peer
            guard !isClosed else { return }
            if !output.isEmpty && output.readableCount + bytes.count > limit {
                // A peer that stopped reading (a broadcast's silent member): queueing more would
                // grow without bound, and dropping messages silently would lie. Closing tells it.
                closeNow()
                return
            }
        }
        output.append(bytes)
        scheduleUpgradedFlush()
    }

    /// Sends from an upgraded handler are written once per loop turn, not once per message: a
    /// burst of broadcasts costs one write per member instead of one system call per message
    /// (most of them failing with EAGAIN on a member that does not read).
    private func scheduleUpgradedFlush() {
        if writeInterest {
            // The socket is full: its writable event flushes. Counted in 64 KiB steps, not per
            // message (the budget's lock is shared by every loop).
            if output.readableCount >= memoryCharged + 64 * 1024 { accountMemory() }
            return
        }
        guard !upgradedFlushScheduled else { return }
        upgradedFlushScheduled = true
        let flushLater = UncheckedAction<Void> { [weak self] _ in
            guard let self else { return }
            upgradedFlushScheduled = false
            if !isClosed { flush() }
        }
        worker.loop.execute { flushLater.action(()) }
    }

    func upgradedClose() {
        guard !isClosed, case .upgraded = inFlight else { return }
        closeWhenFlushed = true
        lingerOnClose = false
        awaitingReply = false
        flush()
    }

    /// The connection closed with a reply still in progress: cancel its work and report it.
    private func abandonInFlight() {
        let current = inFlight
        inFlight = .none
        replyDeadline = .max
        switch current {
        case .none:
            break
        case .deferred(let promise, let reply):
            promise.cancel()
            reply.onSent?(0, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- reply.started)))
        case .stream(let state):
            state.body.cancel()
            // The head went out, so the status was sent; the journal still hears of it.
            state.reply.onSent?(state.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- state.reply.started)))
        case .upgraded(let upgraded):
            upgraded.channel.markClosed()
            upgraded.handler.didClose()
        }
    }
}

/// What a connection needs to finish a reply that did not go out in one write.
struct ReplyContext {
    var version: HTTPVersion
    var framing: RequestFraming
    var started: UInt64
    var onSent: (@Sendable (Int, Duration) -> Void)?
}

/// A reply in progress beyond one write.
private enum InFlightReply {
    case none
    case deferred(HTTPReplyPromise, ReplyContext)
    case stream(StreamState)
    case upgraded(UpgradeState)
}

/// A streamed body in progress: framing, and whether a piece has been asked for.
private final class StreamState {
    let body: HTTPBodyStream
    let produce: @Sendable (HTTPBodyStream) -> Void
    let chunked: Bool
    let keepAlive: Bool
    let status: Int
    let reply: ReplyContext
    /// Bytes still owed for a `Content-Length` body; nil for chunked or close-delimited ones.
    var remaining: Int?
    var overran = false
    var demandOutstanding = false
    var pumping = false
    var pumpAgain = false

    init(body: HTTPBodyStream, produce: @escaping @Sendable (HTTPBodyStream) -> Void, chunked: Bool, keepAlive: Bool, status: Int, reply: ReplyContext) {
        self.body = body
        self.produce = produce
        self.chunked = chunked
        self.keepAlive = keepAlive
        self.status = status
        self.reply = reply
    }
}

/// An upgraded connection's protocol handler and its channel.
private struct UpgradeState {
    let handler: any HTTPUpgradeHandler
    let channel: HTTPUpgradedChannel
}
