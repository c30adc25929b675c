import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP response as it came off the wire, for tests that need to see exact bytes.
struct RawHTTPResponse {
    var statusLine: String
    var version: String
    var status: Int
    var reason: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// The head exactly as received (status line through the empty line), to check CRLFs.
    var rawHead: [UInt8]
    /// The pieces of a chunked body, as sent (empty for other bodies).
    var chunks: [[UInt8]] = []

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

enum RawHTTPClientError: Error, CustomStringConvertible {
    case connectFailed(Int32)
    case closedByPeer(received: [UInt8])
    case timedOut(received: [UInt8])
    case malformed(String)

    var description: String {
        switch self {
        case .connectFailed(let code): "connect failed: errno \(code)"
        case .closedByPeer(let bytes):
            "connection closed by peer after \(bytes.count) bytes: \(String(decoding: bytes.prefix(300), as: UTF8.self))"
        case .timedOut(let bytes): "timed out after \(bytes.count) bytes: \(String(decoding: bytes.prefix(300), as: UTF8.self))"
        case .malformed(let why): "malformed response: \(why)"
        }
    }
}

/// A blocking socket client that sends exactly the bytes it is given and parses responses
/// itself: for malformed requests, pipelining, slow senders and other things URLSession won't do.
///
/// ```swift
/// let client = try RawHTTPClient(port: server.port)
/// try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
/// let response = try client.readResponse()
/// ```
final class RawHTTPClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
    /// `receiveBuffer` shrinks SO_RCVBUF, for clients that read slowly or not at all.
    init(port: Int, host: String = "127.0.0.1", timeout: TimeInterval = 15, receiveBuffer: Int32? = nil) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if let receiveBuffer {
            var size = receiveBuffer // before connect, so the window is small from the start
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            let code = errno
            close(fd)
            throw RawHTTPClientError.connectFailed(code)
        }
        setTimeout(timeout)
    }

    deinit { close(fd) }

    func setTimeout(_ seconds: TimeInterval) {
        var time = timeval()
        time.tv_sec = Int(seconds)
        time.tv_usec = .init((seconds - Double(Int(seconds))) * 1_000_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends every byte; throws if the peer closed the connection.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw -> Int in
                #if canImport(Glibc)
                Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(fd, raw.baseAddress, raw.count, 0)
                #endif
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw RawHTTPClientError.closedByPeer(received: [])
            }
            offset += sent
        }
    }

    /// Half-closes: no more bytes from us, the server may still answer.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// One `recv` of at most `limit` bytes straight from the socket (buffered bytes first);
    /// empty at end of stream, nil on a timeout or error.
    func receiveSome(limit: Int) -> [UInt8]? {
        if !buffer.isEmpty {
            let taken = Array(buffer.prefix(limit))
            buffer.removeFirst(taken.count)
            return taken
        }
        var chunk = [UInt8](repeating: 0, count: limit)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return Array(chunk[0..<count])
    }

    /// What a read after the server closed reports: true for a reset (ECONNRESET), false for
    /// an orderly end of stream, nil if the connection is still open after `timeout`.
    func closeKind(timeout: TimeInterval = 15) -> Bool? {
        setTimeout(timeout)
        defer { setTimeout(15) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { buffer.append(contentsOf: chunk[0..<count]); continue }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return true }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            return false
        }
    }

    /// Bytes received and not consumed yet.
    var unread: [UInt8] { buffer }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw RawHTTPClientError.timedOut(received: buffer) }
            return false // ECONNRESET counts as closed
        }
    }

    /// Reads one response. `forHEAD` means the body is absent whatever Content-Length says.
    func readResponse(forHEAD: Bool = false) throws -> RawHTTPResponse {
        var response = try readHead()
        if forHEAD || (100..<200).contains(response.status) || response.status == 204 || response.status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() {
                response.chunks.append(chunk)
                response.body += chunk
            }
            return response
        }
        if let lengthText = response.header("Content-Length"), let length = Int(lengthText) {
            response.body = try readBytes(length)
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Exactly `count` bytes (of a body, or of an upgraded protocol).
    func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            if try !fill() { throw RawHTTPClientError.closedByPeer(received: buffer) }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// The next chunk of a chunked body; nil after the last (zero) chunk and its trailers.
    func readChunk() throws -> [UInt8]? {
        let line = try readLine()
        guard let size = Int(line.split(separator: ";").first.map(String.init) ?? "", radix: 16) else {
            throw RawHTTPClientError.malformed("chunk size line \(line.debugDescription)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let bytes = try readBytes(size)
        guard try readLine().isEmpty else { throw RawHTTPClientError.malformed("no CRLF after a chunk") }
        return bytes
    }

    /// One CRLF-terminated line, without the CRLF.
    func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: buffer) {
                defer { buffer.removeFirst(end + 2) }
                return String(decoding: buffer[0..<end], as: UTF8.self)
            }
            if try !fill() { throw RawHTTPClientError.closedByPeer(received: buffer) }
        }
    }

    /// Reads a status line and headers only (the body stays unread).
    func readHead() throws -> RawHTTPResponse {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil, try !fill() { throw RawHTTPClientError.closedByPeer(received: buffer) }
        }
        let rawHead = Array(buffer[0..<(headEnd! + 4)])
        let lines = String(decoding: buffer[0..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0]
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let status = Int(parts[1]) else { throw RawHTTPClientError.malformed(statusLine) }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPClientError.malformed(line) }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        buffer.removeFirst(headEnd! + 4)
        return RawHTTPResponse(
            statusLine: statusLine, version: String(parts[0]), status: status, reason: String(parts[2]),
            headers: headers, body: [], rawHead: rawHead
        )
    }

    /// True when the server closes the connection (EOF or reset) before `timeout`; any bytes
    /// received meanwhile are kept for `readResponse`.
    func waitForClose(timeout: TimeInterval = 15) -> Bool {
        setTimeout(timeout)
        defer { setTimeout(15) }
        do {
            while try fill() {}
            return true
        } catch {
            return false
        }
    }

    /// Everything the server sends until it closes.
    func readUntilClose() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }

    /// Opens a connection, sends `request`, returns the first response.
    static func exchange(port: Int, _ request: String, forHEAD: Bool = false) throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        try client.send(request)
        return try client.readResponse(forHEAD: forHEAD)
    }
}

extension RawHTTPClient {
    /// `GET target` on a fresh connection that closes afterwards.
    static func get(port: Int, _ target: String) throws -> RawHTTPResponse {
        try exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    }
}
