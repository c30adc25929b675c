import Foundation

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
