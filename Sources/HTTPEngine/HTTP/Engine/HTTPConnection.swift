#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection: reads and parses requests, asks the responder, writes replies in
/// request order, and enforces timeouts and backpressure. Lives on one event loop's thread.
/// This file holds its state, events, closing and timeouts; requests and buffered replies are in
/// HTTPConnection+Requests, TLS in +TLS, the reply kinds that outlive one write in
/// +DeferredReplies, +StreamedReplies and +Upgrades.
final class HTTPConnection: PollHandler {
    enum Phase {
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
    unowned let worker: LoopWorker
    let context: ServerContext
    let remoteHost: String
    let remotePort: Int

    var parser: HTTPRequestParser
    let input = ByteBuffer()
    let output = ByteBuffer()

    var phase = Phase.idle
    var deadline: UInt64
    var lastWriteProgress: UInt64
    var readInterest = true
    var writeInterest = false

    var awaitingReply = false
    var replyTimer: UInt64?
    var pendingOnSent: (() -> Void)?
    var closeWhenFlushed = false
    var lingerOnClose = true
    var peerClosed = false
    var stopping = false
    var isClosed = false
    private var lingerDiscarded = 0
    /// When the current request's body started, and how many bytes of it arrived since.
    var bodyStartedAt: UInt64 = 0
    var bodyBytesReceived = 0
    /// Bytes this connection counts against the memory budget now (its reserve, its buffers'
    /// capacity, the body being read), and the announced size of that body (reserved when its
    /// head arrived).
    var memoryCharged = 0
    var bodyReserved = 0
    /// The kernel send queue's size when a stalled write was last checked.
    var kernelQueueAtLastCheck = Int.max
    /// When the connection last became idle between requests (for slot eviction).
    var keepAliveIdleSince: UInt64
    /// When the connection went quiet, for slot eviction: between requests, or (upgraded) its
    /// last byte read or written.
    var idleSince: UInt64 {
        if case .upgraded = inFlight { return lastTraffic }
        return keepAliveIdleSince
    }

    /// A reply that outlives one write (deferred, streamed, upgraded); see HTTPConnection+DeferredReplies,
    /// +StreamedReplies and +Upgrades.
    var inFlight = InFlightReply.none
    /// When the deferred reply or the stream's next piece is overdue.
    var replyDeadline = UInt64.max
    /// True while a request is being dispatched, so replies finished synchronously inside it
    /// let the dispatching loop carry on instead of re-entering `process()`.
    var dispatching = false
    /// Last byte read or written on an upgraded connection.
    var lastTraffic: UInt64 = 0
    /// Close with a reset instead of a FIN (the `connectionReset` fault).
    var resetOnClose = false
    /// A flush of an upgraded connection's queued sends is due on this loop turn.
    var upgradedFlushScheduled = false
    /// The rest of an upgraded connection's input is due to its handler on a later turn.
    var upgradedInputScheduled = false

    /// HTTPS: the session every byte goes through (nil for plain HTTP). See HTTPConnection+TLS.
    let tls: TLSServerSession?
    /// The server serves TLS but no session could be made for this socket: close at once.
    private let tlsUnavailable: Bool
    var handshakeDone = false
    var handshakeWantsWrite = false
    /// The first byte was looked at (a TLS record, or a plain-HTTP client on the TLS port).
    var firstByteChecked = false
    /// OpenSSL asked a read to wait for writability, or a write to wait for readability.
    var tlsReadWantsWrite = false
    var tlsWriteWantsRead = false

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
        // Charged until `closeNow()`: what the connection costs beyond its buffers' capacity.
        memoryCharged = limits.connectionMemoryReserve
        context.memory.adjust(by: memoryCharged)
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

    func readAvailable(force: Bool) {
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

    func peerDidClose() {
        if case .none = inFlight {
        } else {
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

    // MARK: Closing

    /// Sends FIN and keeps reading (and discarding) briefly, so a client still sending a body
    /// we refused receives our answer instead of a reset.
    func startLingering() {
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
            reject(
                HTTPParseFailure(status: 408, reason: "request not received within \(context.limits.headerReadTimeout)"),
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

    // MARK: Reply kinds (the rest in HTTPConnection+DeferredReplies, +StreamedReplies, +Upgrades)

    /// Bytes of pipelined input buffered while a deferred or streamed reply is in progress.
    /// Reading continues up to this bound so a disconnect is noticed (and the work cancelled).
    private static let busyInputLimit = 64 * 1024
    /// A stream's producer is asked for the next piece once the unsent output is below this.
    static let streamLowWaterMark = 32 * 1024

    var readsWhileAwaiting: Bool {
        switch inFlight {
        case .none: false
        case .deferred, .stream, .upgraded: input.readableCount < Self.busyInputLimit
        }
    }

    /// Bytes queued for the socket.
    var pendingOutputBytes: Int { output.readableCount }
}
