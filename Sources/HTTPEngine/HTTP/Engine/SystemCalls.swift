#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// An `errno` captured right after a failed system call.
struct SystemError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    var description: String { "\(call): \(String(cString: strerror(code))) (errno \(code))" }
}

/// Thin wrappers over the socket calls the engine uses. Every call that can be interrupted is
/// retried on `EINTR` (debuggers and profilers deliver signals); writes never raise `SIGPIPE`.
package enum SystemCalls {
    enum IOResult: Equatable {
        case bytes(Int)
        case wouldBlock
        case endOfFile
        case failed(Int32)
    }

    /// Reads into `buffer`; `.endOfFile` when the peer closed its side.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> IOResult {
        while true {
            let n = recv(fd, buffer, count, 0)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .endOfFile }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(code)
        }
    }

    /// Sends without ever raising SIGPIPE: `MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` (set per
    /// accepted socket) on Darwin.
    static func send(_ fd: Int32, _ buffer: UnsafeRawPointer, count: Int) -> IOResult {
        while true {
            #if canImport(Glibc)
            let n = Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
            #else
            let n = Darwin.send(fd, buffer, count, 0)
            #endif
            if n >= 0 { return .bytes(n) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(code)
        }
    }

    /// Closes once. `close` is deliberately not retried on EINTR: on Linux the descriptor is
    /// released even then, and a retry could close a descriptor another thread just opened.
    package static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Makes the next `close` send a TCP reset instead of a FIN (`SO_LINGER` with 0 seconds).
    static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Options every accepted socket gets: no Nagle delay for small replies, and on Darwin no
    /// SIGPIPE (the option is per socket there and is not reliably inherited from the listener).
    static func prepareAccepted(_ fd: Int32) {
        setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        #if canImport(Darwin)
        setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
    }

    /// Monotonic clock in nanoseconds (never goes backwards, unaffected by wall-clock changes).
    /// Bytes still in the kernel's send queue (not yet taken by the peer), or nil if unknown.
    /// Lets a slow reader's progress show even while the socket is not writable.
    static func unsentBytes(_ fd: Int32) -> Int? {
        #if canImport(Glibc)
        let value = cshim_unsent_bytes(fd)
        return value >= 0 ? Int(value) : nil
        #else
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_NWRITE, &value, &length) == 0 ? Int(value) : nil
        #endif
    }

    /// How far past `start` the first `byte` among the next `count` bytes lies (libc's
    /// vectorised `memchr`), or nil: the HTTP parser's line scanning, inlined into it.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard let found = memchr(start, Int32(byte), count) else { return nil }
        return start.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    static func monotonicNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}

/// The address a listener binds to or a peer connects from.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0

    /// Parses a numeric IPv4 or IPv6 address (`127.0.0.1`, `::1`, `0.0.0.0`); `localhost` means
    /// `127.0.0.1`. Host names are not resolved: a stub server binds to addresses it is told.
    init?(host: String, port: Int) {
        let name = host == "localhost" ? "127.0.0.1" : host
        let networkPort = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = networkPort
            store(v4)
            return
        }
        var v6 = sockaddr_in6()
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        guard inet_pton(AF_INET6, bare, &v6.sin6_addr) == 1 else { return nil }
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = networkPort
        store(v6)
    }

    /// Copies a `sockaddr_in` or `sockaddr_in6` into the storage and sets its length.
    private mutating func store<Address>(_ address: Address) {
        withUnsafeMutableBytes(of: &storage) { raw in
            withUnsafeBytes(of: address) { raw.copyMemory(from: $0) }
        }
        length = socklen_t(MemoryLayout<Address>.size)
        #if canImport(Darwin)
        storage.ss_len = UInt8(length) // BSD sockets: sin_len / sin6_len, the first byte of either
        #endif
    }

    init() {}

    var family: Int32 { Int32(storage.ss_family) }

    /// The numeric host and port, e.g. `("127.0.0.1", 53122)`.
    var hostAndPort: (host: String, port: Int) {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            if family == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var address = v4.pointee.sin_addr
                    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                    return (Self.string(text), Int(UInt16(bigEndian: v4.pointee.sin_port)))
                }
            } else if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return (Self.string(text), Int(UInt16(bigEndian: v6.pointee.sin6_port)))
                }
            }
            return ("", 0)
        }
    }

    private static func string(_ text: [CChar]) -> String {
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True for 127.0.0.0/8 and ::1.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        guard let address = SocketAddress(host: host, port: 0) else { return false }
        let (numeric, _) = address.hostAndPort
        if address.family == AF_INET { return numeric.hasPrefix("127.") }
        return numeric == "::1"
    }
}
