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
    public init(configuration: Configuration = Configuration(), streamHandler makeHandler: @escaping @Sendable () -> any HTTPUpgradeHandler) {
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

/// What every loop of one server shares: configuration, responder and the connection count.
final class ServerContext: @unchecked Sendable {
    let limits: HTTPServerLimits
    let memory: MemoryBudget
    let responder: any HTTPResponder
    let onRejection: (@Sendable (HTTPRejection) -> Void)?
    let headerTimeout: UInt64
    let idleTimeout: UInt64
    let replyTimeout: UInt64
    let upgradedIdleTimeout: UInt64
    /// Set once before the loops start: TLS for every connection, and the raw-stream handler.
    var tls: TLSServerContext?
    var makeStreamHandler: (@Sendable () -> any HTTPUpgradeHandler)?

    private let lock = NSLock()
    private var openConnections = 0

    init(limits: HTTPServerLimits, memory: MemoryBudget, responder: any HTTPResponder, onRejection: (@Sendable (HTTPRejection) -> Void)?) {
        self.limits = limits
        self.memory = memory
        self.responder = responder
        self.onRejection = onRejection
        headerTimeout = max(limits.headerReadTimeout.nanoseconds, 1_000_000)
        idleTimeout = max(limits.idleTimeout.nanoseconds, 1_000_000)
        replyTimeout = max(limits.replyTimeout.nanoseconds, 1_000_000)
        upgradedIdleTimeout = max(limits.upgradedIdleTimeout.nanoseconds, 1_000_000)
    }

    enum Admission { case open, evictFirst, refuse }

    /// Counts a new connection. At the cap it is still counted while an idle one is evicted
    /// for it (`evictFirst`), up to a few evictions in flight; beyond that it is refused.
    func tryOpen() -> Admission {
        lock.lock(); defer { lock.unlock() }
        if openConnections < limits.maxConnections {
            openConnections += 1
            return .open
        }
        guard openConnections < limits.maxConnections + max(8, limits.maxConnections / 64) else { return .refuse }
        openConnections += 1
        return .evictFirst
    }

    func closed() {
        lock.lock(); openConnections -= 1; lock.unlock()
    }
}

/// The connections of one event loop, its timeout sweep and its part of a graceful stop.
/// Confined to its loop's thread.
final class LoopWorker: @unchecked Sendable {
    let loop: EventLoop
    let context: ServerContext
    var acceptor: Acceptor?
    private var connections: [Int32: HTTPConnection] = [:]
    private(set) var stopping = false
    private var exited = false

    init(loop: EventLoop, context: ServerContext) {
        self.loop = loop
        self.context = context
    }

    /// First task on the loop: listen (loop 0) and start the timeout sweep.
    func begin() {
        if let acceptor { loop.register(acceptor.fd, handler: acceptor, reading: true, writing: false) }
        scheduleSweep()
    }

    /// Takes ownership of an accepted socket.
    func adopt(_ fd: Int32, remoteHost: String, remotePort: Int) {
        guard !stopping else {
            SystemCalls.close(fd)
            context.closed()
            return
        }
        let connection = HTTPConnection(fd: fd, worker: self, remoteHost: remoteHost, remotePort: remotePort)
        connections[fd] = connection
        loop.register(fd, handler: connection, reading: true, writing: false)
        if let makeHandler = context.makeStreamHandler { connection.startRawStream(makeHandler()) }
    }

    /// Called by a connection once its socket is closed.
    func connectionClosed(_ fd: Int32) {
        connections[fd] = nil
        context.closed()
        if stopping && connections.isEmpty { exit() }
    }

    /// When this loop's longest-idle connection went idle (`.max`: none is idle).
    func oldestIdleSince() -> UInt64 {
        guard !stopping else { return .max }
        var oldest = UInt64.max
        for connection in connections.values where connection.isEvictable { oldest = min(oldest, connection.idleSince) }
        return oldest
    }

    /// Closes this loop's longest-idle keep-alive connection to make room for a new client.
    /// Returns false when none is idle.
    func evictLongestIdle() -> Bool {
        guard !stopping else { return false }
        var victim: HTTPConnection?
        for connection in connections.values where connection.isEvictable {
            if victim == nil || connection.idleSince < victim!.idleSince { victim = connection }
        }
        guard let victim else { return false }
        victim.closeNow()
        return true
    }

    func closeAcceptor() {
        acceptor?.close(on: loop)
        acceptor = nil
    }

    func beginStop() {
        guard !stopping else { return }
        stopping = true
        closeAcceptor()
        for connection in Array(connections.values) { connection.stopGracefully() }
        if connections.isEmpty { exit(); return }
        loop.schedule(after: context.limits.stopTimeout) { [self] in
            for connection in Array(connections.values) { connection.closeNow() }
            exit()
        }
    }

    private func exit() {
        guard !exited else { return }
        exited = true
        loop.exitLoop()
    }

    private func scheduleSweep() {
        let shortest = min(context.headerTimeout, context.idleTimeout)
        let interval = min(max(shortest / 4, 5_000_000), 250_000_000)
        loop.schedule(after: .nanoseconds(Int64(interval))) { [self] in
            guard !exited else { return }
            let now = SystemCalls.monotonicNanos()
            for connection in Array(connections.values) { connection.checkDeadline(now: now) }
            scheduleSweep()
        }
    }
}

/// Accepts connections on loop 0 and deals them round-robin to every loop.
final class Acceptor: PollHandler {
    let fd: Int32
    private unowned let owner: LoopWorker
    private let workers: [LoopWorker]
    private var next = 0
    private var paused = false
    private var closed = false

    init(fd: Int32, owner: LoopWorker, workers: [LoopWorker]) {
        self.fd = fd
        self.owner = owner
        self.workers = workers
    }

    func handle(_ event: PollEvent) {
        guard !closed else { return }
        for _ in 0..<64 {
            var address = SocketAddress()
            address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client: Int32 = withUnsafeMutablePointer(to: &address.storage) {
                // Plain accept + fcntl: accept4 needs _GNU_SOURCE, and two extra calls per
                // connection (not per request) cost nothing measurable.
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &address.length) }
            }
            if client < 0 {
                let code = errno
                switch code {
                case EINTR, ECONNABORTED, EPROTO, EPERM:
                    continue // the peer gave up or a signal arrived: never fatal
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    backOff() // out of descriptors: stop accepting briefly instead of spinning
                    return
                default:
                    return // EAGAIN: nothing more to accept
                }
            }
            SystemCalls.setNonBlocking(client)
            let admission = owner.context.tryOpen()
            guard admission != .refuse else {
                SystemCalls.close(client) // far over maxConnections: refuse at once rather than hang
                continue
            }
            SystemCalls.prepareAccepted(client)
            let (host, port) = address.hostAndPort
            let worker = workers[next % workers.count]
            next &+= 1
            let adopt: @Sendable () -> Void = { worker.adopt(client, remoteHost: host, remotePort: port) }
            if admission == .evictFirst {
                // At the cap: a few idle keep-alive sockets must not lock everyone out, so the
                // longest-idle one (across all loops) makes room.
                Self.evictLongestIdle(among: workers, then: { worker.loop.execute(adopt) }, orElse: {
                    SystemCalls.close(client)
                    worker.context.closed()
                })
            } else if worker === owner {
                adopt()
            } else {
                worker.loop.execute(adopt)
            }
        }
    }

    /// Asks every loop when its longest-idle connection went idle, then has the loop with the
    /// oldest close it (falling back to the others in that order if it got busy meanwhile).
    private static func evictLongestIdle(among workers: [LoopWorker], then admit: @escaping @Sendable () -> Void, orElse refuse: @escaping @Sendable () -> Void) {
        let survey = IdleSurvey(expected: workers.count)
        for (index, worker) in workers.enumerated() {
            worker.loop.execute {
                guard let answers = survey.report(worker.oldestIdleSince(), from: index) else { return }
                let order = answers.enumerated().filter { $0.element != .max }
                    .sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map { workers[$0.offset] }
                evict(in: order, then: admit, orElse: refuse)
            }
        }
    }

    /// Asks each loop in turn to close its longest-idle connection; `then` once one did.
    private static func evict(in order: [LoopWorker], then admit: @escaping @Sendable () -> Void, orElse refuse: @escaping @Sendable () -> Void) {
        guard let first = order.first else { refuse(); return }
        let rest = Array(order.dropFirst())
        first.loop.execute {
            if first.evictLongestIdle() { admit() } else { evict(in: rest, then: admit, orElse: refuse) }
        }
    }

    private func backOff() {
        guard !paused else { return }
        paused = true
        owner.loop.setInterest(fd, reading: false, writing: false, wasReading: true, wasWriting: false)
        owner.loop.schedule(after: .milliseconds(50)) { [self] in
            guard !closed else { return }
            paused = false
            owner.loop.setInterest(fd, reading: true, writing: false, wasReading: false, wasWriting: false)
        }
    }

    func close(on loop: EventLoop) {
        guard !closed else { return }
        closed = true
        loop.deregister(fd)
        SystemCalls.close(fd)
    }
}

/// The responder of a stream server, which never parses HTTP.
private struct NoHTTPResponder: HTTPResponder {
    func respond(to request: HTTPRequest) -> HTTPReply { HTTPReply(.close) }
}

/// Collects one answer per loop; the last to report gets them all.
final class IdleSurvey: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [UInt64]
    private var missing: Int

    init(expected: Int) {
        answers = Array(repeating: .max, count: expected)
        missing = expected
    }

    func report(_ since: UInt64, from index: Int) -> [UInt64]? {
        lock.lock(); defer { lock.unlock() }
        answers[index] = since
        missing -= 1
        return missing == 0 ? answers : nil
    }
}
