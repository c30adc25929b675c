import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny TCP server on an ephemeral 127.0.0.1 port for upstream tests. With `reply` nil it
/// never accepts (the kernel's backlog completes the handshake, then nothing is ever read or
/// written: an upstream that hangs). With `reply`, each accepted connection reads one request
/// head and gets `reply(head)` written back, then is closed when `closeAfter` is set.
final class ScriptedTCPServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var stopped = false
    private var received: [String] = []

    init(backlog: Int32 = 128, closeAfter: Bool = true, reply: (@Sendable (String) -> [UInt8])? = nil) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let didBind = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard didBind == 0, listen(fd, backlog) == 0 else { throw NSError(domain: "ScriptedTCPServer", code: Int(errno)) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard let reply else { return }
        let listener = fd
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { [self] in
                    var head: [UInt8] = []
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    while !head.containsHeadEnd {
                        let n = recv(client, &chunk, chunk.count, 0)
                        if n <= 0 { break }
                        head += chunk[..<n]
                    }
                    let text = String(decoding: head, as: UTF8.self)
                    lock.lock(); received.append(text); lock.unlock()
                    let bytes = reply(text)
                    _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
                    if closeAfter { close(client) }
                }
            }
        }
    }

    /// The request heads received so far.
    var requests: [String] {
        lock.lock(); defer { lock.unlock() }
        return received
    }

    func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    deinit { stop() }

    /// A port nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let server = try ScriptedTCPServer()
        let port = server.port
        server.stop()
        return port
    }
}

extension Array where Element == UInt8 {
    fileprivate var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
