import Foundation

#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// A request the engine refused before any responder saw it (malformed, too large, too slow).
public struct HTTPRejection: Sendable, CustomStringConvertible {
    /// The status sent (400, 408, 413, 414, 417, 431, 501, 505), or 0 when the connection was
    /// closed without an answer.
    public var status: Int
    /// Why, in a few words (`header block larger than 65536 bytes`).
    public var reason: String
    /// The method and target when the request line could be read.
    public var method: String?
    public var target: String?
    public var remoteAddress: String
    public var remotePort: Int

    public var description: String {
        "\(method ?? "-") \(target ?? "-") \(status) \(reason)"
    }
}

/// Why `HTTPServer.start()` failed.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case invalidHost(String)
    case addressInUse(host: String, port: Int)
    case cannotListen(host: String, port: Int, reason: String)
    case alreadyRunning
    /// The TLS identity cannot be served (OpenSSL missing, key and certificate do not match…).
    case tls(String)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            "invalid host \"\(host)\": expected a numeric IPv4 or IPv6 address such as 127.0.0.1"
        case .addressInUse(let host, let port):
            "port \(port) on \(host) is already in use"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        case .alreadyRunning:
            "the server is already running"
        case .tls(let reason):
            "cannot serve HTTPS: \(reason)"
        }
    }
}

/// The HTTP/1.1 engine: a listening socket and one event loop per usable CPU, each serving its own
/// connections with non-blocking sockets. Most users want `StubServer`; this is the layer
/// beneath it, usable with any `HTTPResponder`.
///
/// ```swift
/// struct Hello: HTTPResponder {
///     func respond(to request: HTTPRequest) -> HTTPReply {
///         HTTPReply(.response(HTTPResponse(status: 200, body: Array("hello".utf8))))
///     }
/// }
/// let server = HTTPServer(responder: Hello())
/// try server.start()            // listening on 127.0.0.1:server.port
/// defer { server.stop() }
/// ```
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Numeric address to bind; loopback unless you mean to expose the server.
        public var host = "127.0.0.1"
        /// 0 picks a free port; read the bound one from `HTTPServer.port`.
        public var port = 0
        public var limits = HTTPServerLimits()
        /// Event-loop threads; 0 means one per CPU the process may use (`UsableProcessors`).
        public var eventLoopCount = 0
        /// Pending-connection queue length passed to `listen`.
        public var backlog: Int32 = 1024
        /// Serve HTTPS with this certificate and key (TLS 1.2+, through the system's OpenSSL,
        /// on Linux); nil serves plain HTTP. A plain-HTTP request on a TLS port gets a `400`
        /// saying so, in plain text.
        public var tls: TLSIdentity?

        public init(host: String = "127.0.0.1", port: Int = 0, limits: HTTPServerLimits = HTTPServerLimits()) {
            self.host = host
            self.port = port
            self.limits = limits
        }
    }

    public let configuration: Configuration
    /// What this server's buffers and anything attached (the journal) may hold together.
    public let memory: MemoryBudget
    private let responder: any HTTPResponder
    private let onRejection: (@Sendable (HTTPRejection) -> Void)?

    private let lock = NSLock()
    private var workers: [LoopWorker] = []
    private var boundPort = 0

    /// Every accepted connection goes straight to a handler `makeStreamHandler` builds: a plain
    /// TCP (or TLS) server for a protocol without HTTP framing, with the engine's limits,
    /// timeouts (`upgradedIdleTimeout` between bytes) and graceful stop.
    private let makeStreamHandler: (@Sendable () -> any HTTPUpgradeHandler)?

    public init(
        configuration: Configuration = Configuration(),
        responder: any HTTPResponder,
        onRejection: (@Sendable (HTTPRejection) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.memory = MemoryBudget(limit: configuration.limits.maxMemoryBytes)
        self.responder = responder
        self.onRejection = onRejection
        self.makeStreamHandler = nil
    }

    /// A server that speaks no HTTP: each connection is handed at once to the handler
    /// `makeHandler` builds, which reads and writes raw bytes through its channel.
    ///
    /// ```swift
    /// final class Echo: HTTPUpgradeHandler {
    ///     var channel: HTTPUpgradedChannel?
    ///     func didStart(_ channel: HTTPUpgradedChannel) { self.channel = channel }
    ///     func didReceive(_ bytes: [UInt8]) { channel?.send(bytes) }
    ///     func didClose() { channel = nil }
    /// }
    /// let echo = HTTPServer(configuration: HTTPServer.Configuration(), streamHandler: { Echo() })
    /// try echo.start()
    /// ```
    public init(configuration: Configuration = Configuration(), streamHandler makeHandler: @escaping @Sendable () -> any HTTPUpgradeHandler)
    {
        self.configuration = configuration
        self.memory = MemoryBudget(limit: configuration.limits.maxMemoryBytes)
        self.responder = NoHTTPResponder()
        self.onRejection = nil
        self.makeStreamHandler = makeHandler
    }

    deinit { stop() }

    /// The bound port (the real one when configured with 0); 0 before `start()`.
    public var port: Int {
        lock.lock(); defer { lock.unlock() }
        return boundPort
    }

    public var isRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        return !workers.isEmpty
    }

    /// The event loops serving while running (0 before `start()`).
    public var eventLoopCount: Int {
        lock.lock(); defer { lock.unlock() }
        return workers.count
    }

    /// Binds, listens and starts the event loops. Returns once connections are accepted.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard workers.isEmpty else { throw HTTPServerError.alreadyRunning }
        var tlsContext: TLSServerContext?
        if let identity = configuration.tls {
            do throws(TLSConfigurationError) {
                tlsContext = try TLSServerContext.make(identity)
            } catch {
                throw HTTPServerError.tls(error.message)
            }
        }
        let host = configuration.host
        guard var address = SocketAddress(host: host, port: configuration.port) else {
            throw HTTPServerError.invalidHost(host)
        }
        #if canImport(Glibc)
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(address.family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else {
            throw HTTPServerError.cannotListen(host: host, port: configuration.port, reason: String(cString: strerror(errno)))
        }
        // SO_REUSEADDR lets a restarted server bind through TIME_WAIT; SO_REUSEPORT is left off
        // so two servers can never silently share a port.
        SystemCalls.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        let bound = withUnsafePointer(to: &address.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, address.length) }
        }
        if bound != 0 {
            let code = errno
            SystemCalls.close(fd)
            if code == EADDRINUSE { throw HTTPServerError.addressInUse(host: host, port: configuration.port) }
            throw HTTPServerError.cannotListen(host: host, port: configuration.port, reason: String(cString: strerror(code)))
        }
        guard listen(fd, configuration.backlog) == 0 else {
            let code = errno
            SystemCalls.close(fd)
            throw HTTPServerError.cannotListen(host: host, port: configuration.port, reason: String(cString: strerror(code)))
        }
        SystemCalls.setNonBlocking(fd)
        var local = SocketAddress()
        local.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &local.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &local.length) }
        }
        let port = local.hostAndPort.port

        let count = configuration.eventLoopCount > 0 ? configuration.eventLoopCount : UsableProcessors.count
        let context = ServerContext(limits: configuration.limits, memory: memory, responder: responder, onRejection: onRejection)
        context.tls = tlsContext
        context.makeStreamHandler = makeStreamHandler
        var created: [LoopWorker] = []
        do {
            for index in 0..<count {
                created.append(LoopWorker(loop: try EventLoop(index: index), context: context))
            }
        } catch {
            SystemCalls.close(fd)
            throw HTTPServerError.cannotListen(host: host, port: port, reason: "\(error)")
        }
        let acceptor = Acceptor(fd: fd, owner: created[0], workers: created)
        created[0].acceptor = acceptor
        for worker in created {
            worker.loop.execute { worker.begin() }
            worker.loop.start(name: "stubserver-loop-\(worker.loop.index)")
        }
        workers = created
        boundPort = port
        // The standalone server charges the process's own footprint, loops started, so the
        // budget bounds the whole process, not only what clients make it hold.
        if configuration.limits.chargesProcessBaseline, let resident = ProcessMemory.peakResidentBytes() {
            memory.chargeBaseline(resident)
        }
    }

    /// Stops accepting, lets in-flight requests finish (at most `limits.stopTimeout`), closes
    /// every connection and the listener. When it returns the port is free and no responder
    /// runs any more. Calling it from inside a responder starts the stop without waiting.
    public func stop() {
        lock.lock()
        let stopping = workers
        workers = []
        lock.unlock()
        guard !stopping.isEmpty else { return }
        let calledFromLoop = stopping.contains { $0.loop.inLoop }
        // Close the listener first and wait for it, so no accepted socket can still be on its
        // way to a loop that already finished stopping.
        let acceptorClosed = DispatchSemaphore(value: 0)
        let first = stopping[0]
        first.loop.execute {
            first.closeAcceptor()
            acceptorClosed.signal()
        }
        if !calledFromLoop { acceptorClosed.wait() }
        for worker in stopping {
            worker.loop.execute { worker.beginStop() }
        }
        if calledFromLoop { return }
        for worker in stopping { worker.loop.join() }
    }
}

/// The responder of a stream server, which never parses HTTP.
private struct NoHTTPResponder: HTTPResponder {
    func respond(to request: HTTPRequest) -> HTTPReply { HTTPReply(.close) }
}
