import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// moco's shutdown protocol: a TCP port on 127.0.0.1 where the line `_SHUTDOWN_MOCO_KEY` stops
/// the server. The connection is closed once the server has stopped, so the shutdown command
/// returns only when the stub server is really gone.
///
/// It runs on its own thread with `poll` and non-blocking sockets, never on the global dispatch
/// pool: a flood of silent connections costs a slot each (at most `maxClients`, the oldest
/// dropped first, each given `clientDeadline` to speak) and cannot starve anything else.
final class ShutdownPort: @unchecked Sendable {
    static let key = "_SHUTDOWN_MOCO_KEY"
    /// Clients waited on at once; a newer one pushes out the oldest.
    static let maxClients = 128
    /// How long a client may take to send the key.
    static let clientDeadline: UInt64 = 2_000_000_000

    let port: Int
    private let fd: Int32
    private let onShutdown: @Sendable () -> Void
    private let lock = NSLock()
    private var stopped = false
    private var thread: Thread?

    private struct Client {
        var fd: Int32
        var received: [UInt8]
        var deadline: UInt64
    }

    init(port requested: Int, onShutdown: @escaping @Sendable () -> Void) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw RuntimeFailure("cannot open the shutdown port: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: requested)
        let bound = withGenericAddress(&address) { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            closeDescriptor(fd)
            if code == EADDRINUSE { throw RuntimeFailure("shutdown port \(requested) is already in use") }
            throw RuntimeFailure("cannot listen on shutdown port \(requested): \(String(cString: strerror(code)))")
        }
        _ = withGenericAddress(&address) { pointer, length in
            var length = length
            return getsockname(fd, pointer, &length)
        }
        setNonBlocking(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.onShutdown = onShutdown
        let thread = Thread { [self] in serve() }
        thread.name = "stubserver-shutdown-port"
        self.thread = thread
        thread.start()
    }

    /// Stops accepting; the thread closes the listener within one poll interval.
    func stopListening() {
        lock.lock(); stopped = true; lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    private func serve() {
        var clients: [Client] = []
        defer {
            for client in clients { closeDescriptor(client.fd) }
            closeDescriptor(fd)
        }
        while !isStopped {
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            descriptors += clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            // A short timeout bounds both deadline checks and noticing stopListening().
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if ready < 0 && errno != EINTR { return }
            let now = monotonicNanos()
            var keep: [Client] = []
            for (offset, var client) in clients.enumerated() {
                let events = descriptors[offset + 1].revents
                var done = false
                if events != 0 {
                    var chunk = [UInt8](repeating: 0, count: 256)
                    let count = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
                    if count > 0 {
                        client.received.append(contentsOf: chunk[0..<count])
                        done =
                            client.received.contains(UInt8(ascii: "\n")) || client.received == Array(Self.key.utf8)
                            || client.received.count >= 1024
                    } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        done = true
                    }
                }
                if done || now >= client.deadline {
                    finish(client)
                } else {
                    keep.append(client)
                }
            }
            clients = keep
            if descriptors[0].revents != 0 { acceptClients(into: &clients, now: now) }
        }
    }

    /// At most `maxClients` per round: every client accepted in a round is still there when the
    /// next round reads. An unbounded burst used to push out, unread, a client whose key was
    /// waiting in its socket (128 flood connections accepted right after it).
    private func acceptClients(into clients: inout [Client], now: UInt64) {
        for _ in 0..<Self.maxClients {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            setNonBlocking(client)
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            if clients.count >= Self.maxClients {
                closeDescriptor(clients.removeFirst().fd) // a flood pushes out its own oldest
            }
            clients.append(Client(fd: client, received: [], deadline: now &+ Self.clientDeadline))
        }
    }

    /// A client that sent the key keeps its connection until the server stopped (on a thread of
    /// its own, since stopping blocks); any other is closed at once.
    private func finish(_ client: Client) {
        let line = String(decoding: client.received, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard line == Self.key else {
            closeDescriptor(client.fd)
            return
        }
        let onShutdown = onShutdown
        let descriptor = client.fd
        let stopper = Thread {
            onShutdown()
            closeDescriptor(descriptor)
        }
        stopper.name = "stubserver-shutdown"
        stopper.start()
    }

    /// The client side, for `stubserver shutdown -s PORT`: sends the key and waits until the
    /// server closes the connection (after it stopped), then until the port refuses connections.
    /// A close is not proof: a flood of silent clients pushes out the oldest, possibly this one
    /// before its key arrived. So the request is sent again until nothing listens any more.
    static func requestShutdown(port: Int, timeout: TimeInterval = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var attempts = 0
        while true {
            attempts += 1
            switch try attemptShutdown(port: port, retrying: attempts > 1) {
            case .gone: return
            case .closed:
                guard Date() < deadline else {
                    throw RuntimeFailure("shutdown port \(port) still listens \(Int(timeout)) s after \(attempts) requests to stop")
                }
                usleep(20_000)
            }
        }
    }

    /// `gone`: the port refuses connections. `closed`: the connection ended, in order or not.
    private enum Attempt { case gone, closed }

    private static func attemptShutdown(port: Int, retrying: Bool) throws -> Attempt {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        defer { closeDescriptor(fd) }
        var address = loopbackAddress(port: port)
        let connected = withGenericAddress(&address) { connect(fd, $0, $1) }
        guard connected == 0 else {
            let code = errno
            if retrying && code == ECONNREFUSED { return .gone }
            throw RuntimeFailure("nothing is listening on shutdown port \(port) (\(String(cString: strerror(code))))")
        }
        let message = Array((key + "\n").utf8)
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL) // a dropped connection is an error to handle, not SIGPIPE
        #else
        let flags: Int32 = 0
        #endif
        let sent = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
        if sent != message.count { return .closed }
        var timeout = timeval()
        timeout.tv_sec = 30
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, 0)
            if count > 0 { continue }
            if count == 0 { return .closed } // stopped, or dropped before the key arrived
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                throw RuntimeFailure("shutdown port \(port) took the request but the server did not stop within 30 s")
            default: return .closed // reset: dropped without taking the key
            }
        }
    }
}

/// 127.0.0.1:`port`, the only address the shutdown port listens on.
private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// Calls `body` (bind, connect, getsockname) with `address` as the `sockaddr` and length they take.
private func withGenericAddress(_ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

private func setNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
}

private func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

private func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
