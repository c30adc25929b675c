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
    enum State { case connecting, handshaking, writing, reading, idle, closed }

    unowned let pool: UpstreamPool
    var fd: Int32 = -1
    var state = State.closed
    var exchange: UpstreamExchange?
    var parser: UpstreamResponseParser?
    private var output: [UInt8] = []
    private var written = 0
    var wantsWrite = false
    /// Whether this connection already carried a response (a failure before the next one's
    /// first byte is then most likely the upstream closing an idle connection).
    var reused = false
    var timer: UInt64?
    var lastActivity: UInt64 = 0
    var released = false
    #if !canImport(Darwin)
    /// The TLS session of an `https` upstream; bytes then go through it instead of the socket.
    var tls: TLSSession?
    #endif
    /// The last write could not go on until the peer sends something (TLS only).
    var writeWaitsForRead = false
    /// A streamed body's consumer is behind: the socket is not read until it catches up.
    var readingPaused = false
    /// For a call with a body stream: whether this response's body is relayed (decided at its
    /// head; nil before).
    var relaying: Bool?
    var loop: EventLoop { pool.client.loop }
    var configuration: UpstreamClient.Configuration { pool.client.configuration }

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

    func read() {
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
}

/// `connect(2)`, named apart from `UpstreamConnection.connect`.
private func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(fd, address, length)
    #else
    Darwin.connect(fd, address, length)
    #endif
}
