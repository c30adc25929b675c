import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// moco's shutdown protocol: a TCP port on 127.0.0.1 where the line `_SHUTDOWN_MOCO_KEY` stops
/// the server. The connection is closed once the server has stopped, so the shutdown command
/// returns only when the stub server is really gone.
final class ShutdownPort: @unchecked Sendable {
    static let key = "_SHUTDOWN_MOCO_KEY"

    let port: Int
    private let fd: Int32
    private let source: DispatchSourceRead
    private let onShutdown: @Sendable () -> Void

    init(port requested: Int, onShutdown: @escaping @Sendable () -> Void) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw RuntimeFailure("cannot open the shutdown port: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(requested).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            closeDescriptor(fd)
            if code == EADDRINUSE { throw RuntimeFailure("shutdown port \(requested) is already in use") }
            throw RuntimeFailure("cannot listen on shutdown port \(requested): \(String(cString: strerror(code)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.onShutdown = onShutdown
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "stubserver.shutdown-port"))
        source.setEventHandler { [weak self] in self?.acceptClients() }
        source.setCancelHandler { closeDescriptor(fd) }
        source.resume()
    }

    func stopListening() { source.cancel() }

    private func acceptClients() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let onShutdown = onShutdown
            DispatchQueue.global().async {
                // Blocking read with a timeout: a client that says nothing cannot hold us.
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL, 0) & ~O_NONBLOCK)
                var timeout = timeval()
                timeout.tv_sec = 5
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var received: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 256)
                while received.count < 1024, !received.contains(UInt8(ascii: "\n")) {
                    let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    received.append(contentsOf: chunk[0..<count])
                }
                let line = String(decoding: received, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if line == Self.key { onShutdown() }
                closeDescriptor(client)
            }
        }
    }

    /// The client side, for `stubserver shutdown -s PORT`: sends the key and waits until the
    /// server closes the connection (after it stopped).
    static func requestShutdown(port: Int) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { closeDescriptor(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            throw RuntimeFailure("nothing is listening on shutdown port \(port) (\(String(cString: strerror(errno))))")
        }
        let message = Array((key + "\n").utf8)
        _ = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var timeout = timeval()
        timeout.tv_sec = 30
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) > 0 {}
    }
}

private func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
