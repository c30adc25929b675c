#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to an upstream, driven by the client's event loop: connect (with a
/// timeout, which also bounds the TLS handshake of an `https` upstream), write a request, read
/// its response (with a read timeout), then return to the pool or close. Loop-confined.
final class UpstreamConnection: PollHandler {
    private enum State { case connecting, handshaking, writing, reading, idle, closed }

    private unowned let pool: UpstreamPool
    private var fd: Int32 = -1
    private var state = State.closed
    private var exchange: UpstreamExchange?
    private var parser: UpstreamResponseParser?
    private var output: [UInt8] = []
    private var written = 0
    private var wantsWrite = false
    /// Whether this connection already carried a response (a failure before the next one's
    /// first byte is then most likely the upstream closing an idle connection).
    private var reused = false
    private var timer: UInt64?
    private var lastActivity: UInt64 = 0
    private var released = false
    #if !canImport(Darwin)
    /// The TLS session of an `https` upstream; bytes then go through it instead of the socket.
    private var tls: TLSSession?
    #endif
    /// The last write could not go on until the peer sends something (TLS only).
    private var writeWaitsForRead = false
    /// A streamed body's consumer is behind: the socket is not read until it catches up.
    private var readingPaused = false
    /// For a call with a body stream: whether this response's body is relayed (decided at its
    /// head; nil before).
    private var relaying: Bool?
    private var loop: EventLoop { pool.client.loop }
    private var configuration: UpstreamClient.Configuration { pool.client.configuration }

    init(pool: UpstreamPool) { self.pool = pool }

    func connect(then exchange: UpstreamExchange) {
        var address = pool.address
        #if canImport(Glibc)
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        #else
        fd = socket(address.family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else {
            let code = errno
            fail(exchange, .unreachable("socket: \(String(cString: strerror(code)))"))
            return
        }
        SystemCalls.setNonBlocking(fd)
        SystemCalls.prepareAccepted(fd)
        self.exchange = exchange
        exchange.connection = self
        let result = withUnsafePointer(to: &address.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectSocket(fd, $0, address.length) }
        }
        let code = errno
        if result != 0 && code != EINPROGRESS && code != EINTR {
            fail(exchange, connectFailure(code))
            return
        }
        state = .connecting
        loop.register(fd, handler: self, reading: true, writing: true)
        wantsWrite = true
        let limit = configuration.connectTimeout
        timer = loop.schedule(after: limit) { [weak self] in
            guard let self, self.state == .connecting || self.state == .handshaking, let exchange = self.exchange else { return }
            self.timer = nil
            self.fail(exchange, .connectTimeout(limit))
        }
    }

    /// Starts `exchange` on this (connected) connection.
    func begin(_ exchange: UpstreamExchange) {
        cancelTimer()
        self.exchange = exchange
        exchange.connection = self
        output = exchange.serialized
        written = 0
        // A streamed body is handed on as it arrives, never collected: no size limit here.
        let limit = exchange.request.bodyStream == nil ? configuration.maxResponseBytes : Int.max
        parser = UpstreamResponseParser(requestMethod: exchange.request.method, maxBodyBytes: limit)
        relaying = nil
        state = .writing
        armReadTimer()
        flush()
    }

    func becomeIdle() {
        state = .idle
        resumeReadingInterest()
        exchange = nil
        parser = nil
        setWriting(false)
        let limit = configuration.idleTimeout
        timer = loop.schedule(after: limit) { [weak self] in
            guard let self, self.state == .idle else { return }
            self.timer = nil
            self.close()
        }
    }

    /// The exchange was cancelled mid-flight: the connection cannot be reused.
    func abandon() {
        exchange = nil
        close()
    }

    // MARK: Streamed bodies (see `UpstreamBodyStream`)

    /// The consumer of `stream` went away before its end (the connection may have moved on
    /// to another call meanwhile: only that stream's call is abandoned).
    func abandonStream(_ stream: UpstreamBodyStream) {
        guard let current = exchange?.request.bodyStream, current === stream else { return }
        abandon()
    }

    func pauseReading() {
        guard !readingPaused, fd >= 0, state == .reading else { return }
        readingPaused = true
        loop.setInterest(fd, reading: false, writing: wantsWrite, wasReading: true, wasWriting: wantsWrite)
    }

    func resumeReading(_ stream: UpstreamBodyStream) {
        guard readingPaused, let current = exchange?.request.bodyStream, current === stream else { return }
        resumeReadingInterest()
        lastActivity = SystemCalls.monotonicNanos()
        // TLS may hold decrypted bytes the socket will not announce again.
        if state == .reading { read() }
    }

    private func resumeReadingInterest() {
        guard readingPaused else { return }
        readingPaused = false
        if fd >= 0 { loop.setInterest(fd, reading: true, writing: wantsWrite, wasReading: false, wasWriting: wantsWrite) }
    }

    /// Hands a streamed body on: the head once (the call's completion gets it), then each
    /// piece as it is parsed.
    private func relayStreamedBody() throws(UpstreamResponseParser.Failure) {
        guard let exchange, let stream = exchange.request.bodyStream, var parser, parser.headIsComplete, relaying != false else { return }
        if relaying == nil {
            relaying = UpstreamBodyStream.relays(parser.response)
            if relaying == false {
                // A small answer is collected as usual (its journal entry is then written
                // before the client has it, and a failover could still use it).
                try parser.limitBody(to: configuration.maxResponseBytes)
                self.parser = parser
                return
            }
        }
        if !exchange.isFinished {
            stream.attach(self, loop: loop)
            var head = parser.response
            head.body = []
            exchange.finish(.success(head))
        }
        let piece = parser.takeBody()
        self.parser = parser
        stream.push(piece)
    }

    func handle(_ event: PollEvent) {
        switch state {
        case .connecting:
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            guard let exchange else { return close() }
            if code != 0 {
                fail(exchange, connectFailure(code))
                return
            }
            #if !canImport(Darwin)
            if pool.endpoint.secure {
                startHandshake(exchange)
                return
            }
            #endif
            begin(exchange)
        case .handshaking:
            #if !canImport(Darwin)
            continueHandshake()
            #endif
        case .writing:
            if event.writable || event.hangup || (writeWaitsForRead && event.readable) { flush() }
            if state == .reading && (event.readable || event.hangup) { read() }
        case .reading:
            read()
        case .idle:
            // An idle keep-alive connection that becomes readable was closed (or spoke out of
            // turn): either way it is no longer usable.
            close()
        case .closed:
            break
        }
    }

    private func flush() {
        while written < output.count {
            let result = output.withUnsafeBytes { raw in
                send(raw.baseAddress! + written, count: output.count - written)
            }
            switch result {
            case .bytes(let count):
                written += count
            case .wouldBlock:
                // A TLS write can wait for the peer's bytes (a renegotiation) instead of room.
                setWriting(!writeWaitsForRead)
                return
            case .endOfFile, .failed:
                connectionLost("the connection closed while sending the request")
                return
            }
        }
        output = []
        setWriting(false)
        state = .reading
    }

    private func read() {
        // One read buffer per client loop, reused by every connection (reads never overlap).
        let scratch = pool.client.readBuffer
        while state == .reading || state == .writing {
            switch receive(into: scratch.baseAddress!, count: scratch.count) {
            case .bytes(let count):
                lastActivity = SystemCalls.monotonicNanos()
                do throws(UpstreamResponseParser.Failure) {
                    let outcome = try parser!.feed(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                    try relayStreamedBody()
                    if case .complete(let reusable) = outcome {
                        complete(reusable: reusable)
                        return
                    }
                    if readingPaused { return }
                } catch {
                    guard let exchange else { return close() }
                    fail(exchange, .malformedResponse(error.reason))
                    return
                }
            case .wouldBlock:
                return
            case .endOfFile:
                do throws(UpstreamResponseParser.Failure) {
                    if case .complete = try parser!.finish() {
                        try relayStreamedBody()
                        complete(reusable: false)
                        return
                    }
                } catch {
                    connectionLost(error.reason)
                    return
                }
            case .failed(let code):
                connectionLost(String(cString: strerror(code)))
                return
            }
        }
    }

    // MARK: Transport: the socket, or the TLS session over it

    private func send(_ bytes: UnsafeRawPointer, count: Int) -> SystemCalls.IOResult {
        writeWaitsForRead = false
        #if !canImport(Darwin)
        if let tls {
            switch tls.write(bytes, count: count) {
            case .done(let sent): return .bytes(sent)
            case .wantRead:
                writeWaitsForRead = true
                return .wouldBlock
            case .wantWrite: return .wouldBlock
            case .closed: return .endOfFile
            case .failed: return .failed(EPROTO)
            }
        }
        #endif
        return SystemCalls.send(fd, bytes, count: count)
    }

    private func receive(into buffer: UnsafeMutableRawPointer, count: Int) -> SystemCalls.IOResult {
        #if !canImport(Darwin)
        if let tls {
            switch tls.read(into: buffer, count: count) {
            case .done(let received):
                if state == .reading { setWriting(false) }
                return .bytes(received)
            case .wantRead:
                if state == .reading { setWriting(false) }
                return .wouldBlock
            case .wantWrite:
                // A TLS read may need to write first (a key update): wake when writable too.
                setWriting(true)
                return .wouldBlock
            // OpenSSL 3 reports a close without close_notify as an error; for a response that
            // ends with the connection, that is its end (a Content-Length one still fails).
            case .closed, .failed: return .endOfFile
            }
        }
        #endif
        return SystemCalls.read(fd, into: buffer, count: count)
    }

    #if !canImport(Darwin)
    private func startHandshake(_ exchange: UpstreamExchange) {
        let context: TLSClientContext
        switch pool.client.tlsContext() {
        case .success(let made): context = made
        case .failure(let error): return fail(exchange, error)
        }
        guard let session = TLSSession(context: context, descriptor: fd, host: pool.endpoint.host) else {
            return fail(exchange, .unreachable("TLS: cannot start a session with \(pool.endpoint)"))
        }
        tls = session
        state = .handshaking
        continueHandshake()
    }

    private func continueHandshake() {
        guard let tls, let exchange else { return close() }
        switch tls.handshake() {
        case .done:
            begin(exchange)   // cancels the connect timer, which bounded the handshake too
        case .wantRead:
            setWriting(false)
        case .wantWrite:
            setWriting(true)
        case .closed:
            fail(exchange, .closed("\(pool.endpoint): the connection closed during the TLS handshake"))
        case .failed(let reason):
            fail(exchange, .unreachable(reason))
        }
    }
    #endif

    private func complete(reusable: Bool) {
        guard let exchange, let parser else { return close() }
        let response = parser.response
        self.exchange = nil
        self.parser = nil
        cancelTimer()
        reused = true
        if reusable {
            pool.release(self)
        } else {
            close()
        }
        exchange.request.bodyStream?.end()
        exchange.finish(.success(response))
    }

    private func connectionLost(_ reason: String) {
        guard let exchange else { return close() }
        let started = parser?.hasStarted ?? false
        if reused && !started && !exchange.retried {
            // The upstream closed a keep-alive connection as we reused it: try a fresh one once.
            self.exchange = nil
            close()
            exchange.retried = true
            exchange.connection = nil
            pool.enqueue(exchange, first: true)
            return
        }
        fail(exchange, .closed("\(pool.endpoint): \(reason)"))
    }

    /// Refused is told apart: it means nothing listens there (for a stubserver client: none is running).
    private func connectFailure(_ code: Int32) -> UpstreamError {
        code == ECONNREFUSED ? .refused("\(pool.endpoint)") : .unreachable("\(pool.endpoint): \(String(cString: strerror(code)))")
    }

    private func fail(_ exchange: UpstreamExchange, _ error: UpstreamError) {
        self.exchange = nil
        close()
        // After its head the call has answered: the failure ends the streamed body instead.
        if exchange.isFinished { exchange.request.bodyStream?.fail("\(error)") }
        exchange.finish(.failure(error))
    }

    private func armReadTimer() {
        lastActivity = SystemCalls.monotonicNanos()
        timer = loop.schedule(after: readTimeout) { [weak self] in self?.readTimerFired() }
    }

    private func readTimerFired() {
        timer = nil
        guard state == .reading || state == .writing, let exchange else { return }
        let limit = readTimeout
        if readingPaused {
            // Waiting for our own consumer is not the upstream being slow.
            lastActivity = SystemCalls.monotonicNanos()
            timer = loop.schedule(after: limit) { [weak self] in self?.readTimerFired() }
            return
        }
        let deadline = lastActivity &+ limit.nanoseconds
        if SystemCalls.monotonicNanos() >= deadline {
            fail(exchange, .readTimeout(limit))
        } else {
            timer = loop.schedule(at: deadline) { [weak self] in self?.readTimerFired() }
        }
    }

    /// The call's own read timeout, else the client's.
    private var readTimeout: Duration { exchange?.request.readTimeout ?? configuration.readTimeout }

    private func cancelTimer() {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
    }

    private func setWriting(_ writing: Bool) {
        guard fd >= 0, writing != wantsWrite else { return }
        loop.setInterest(fd, reading: !readingPaused, writing: writing, wasReading: !readingPaused, wasWriting: wantsWrite)
        wantsWrite = writing
    }

    private func close() {
        cancelTimer()
        #if !canImport(Darwin)
        tls?.shutdown()
        tls = nil
        #endif
        if fd >= 0 {
            loop.deregister(fd)
            SystemCalls.close(fd)
            fd = -1
        }
        state = .closed
        parser = nil
        // The pool counted this connection when it was created; uncount it exactly once.
        if !released {
            released = true
            pool.closed(self)
        }
    }
}

/// `connect(2)`, named apart from `UpstreamConnection.connect`.
private func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(fd, address, length)
    #else
    Darwin.connect(fd, address, length)
    #endif
}
