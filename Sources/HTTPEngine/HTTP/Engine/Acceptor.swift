import Foundation

#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

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
                Self.evictLongestIdle(
                    among: workers, then: { worker.loop.execute(adopt) },
                    orElse: {
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
    private static func evictLongestIdle(
        among workers: [LoopWorker], then admit: @escaping @Sendable () -> Void, orElse refuse: @escaping @Sendable () -> Void
    ) {
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
    private static func evict(
        in order: [LoopWorker], then admit: @escaping @Sendable () -> Void, orElse refuse: @escaping @Sendable () -> Void
    ) {
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
