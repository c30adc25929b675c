// `make bench-live`: round-trip time of a websocket echo versus an HTTP keep-alive request on
// the same embedded server (one event loop), from one blocking client on 127.0.0.1. Absolute
// numbers depend on the machine's load; the ratio is the thing to compare between runs.
import Foundation
import StubServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client: exact bytes out, exact byte counts in.
final class Client {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(connected == 0, "connect failed")
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            precondition(sent > 0, "write failed")
            offset += sent
        }
    }

    /// Reads until `buffer` holds `marker`, returns everything up to and including it.
    func read(until marker: [UInt8]) -> [UInt8] {
        while true {
            if let end = find(marker) {
                let result = Array(buffer[..<(end + marker.count)])
                buffer.removeFirst(end + marker.count)
                return result
            }
            fill()
        }
    }

    func read(count: Int) -> [UInt8] {
        while buffer.count < count { fill() }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private func fill() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        precondition(count > 0, "connection closed")
        buffer += chunk[..<count]
    }

    private func find(_ marker: [UInt8]) -> Int? {
        guard buffer.count >= marker.count else { return nil }
        for start in 0...(buffer.count - marker.count) where buffer[start] == marker[0] {
            if Array(buffer[start..<(start + marker.count)]) == marker { return start }
        }
        return nil
    }
}

func percentiles(_ samples: [UInt64]) -> (p50: Double, p99: Double) {
    let sorted = samples.sorted()
    return (Double(sorted[sorted.count / 2]) / 1000, Double(sorted[sorted.count * 99 / 100]) / 1000)
}

let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 20_000
var options = StubServer.Options()
options.eventLoopCount = 1
let server = try StubServer(stubs: [
    StubDefinition(request: .get("/ping"), response: .text("pong")),
    .websocket(WebSocketEndpoint(uri: "/ws", sessions: [.init(request: "ping", response: .init(text: "pong"))])),
], options: options)
try server.start()
defer { server.stop() }

// HTTP keep-alive: one request, one 200 "pong".
let http = Client(port: server.port)
let request = Array("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
var httpSamples: [UInt64] = []
for round in 0..<(rounds + 1000) {
    let start = DispatchTime.now().uptimeNanoseconds
    http.send(request)
    _ = http.read(until: Array("\r\n\r\npong".utf8))
    if round >= 1000 { httpSamples.append(DispatchTime.now().uptimeNanoseconds - start) }
}

// Websocket: handshake, then masked "ping" text frames, each answered by a "pong" frame.
let ws = Client(port: server.port)
ws.send(Array("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
let head = String(decoding: ws.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
precondition(head.hasPrefix("HTTP/1.1 101"), "handshake failed: \(head)")
let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
let frame: [UInt8] = [0x81, 0x84] + mask + Array("ping".utf8).enumerated().map { $0.element ^ mask[$0.offset & 3] }
var wsSamples: [UInt64] = []
for round in 0..<(rounds + 1000) {
    let start = DispatchTime.now().uptimeNanoseconds
    ws.send(frame)
    let reply = ws.read(count: 6)
    precondition(reply == [0x81, 4] + Array("pong".utf8), "unexpected frame \(reply)")
    if round >= 1000 { wsSamples.append(DispatchTime.now().uptimeNanoseconds - start) }
}

let h = percentiles(httpSamples), w = percentiles(wsSamples)
print("round trips on 127.0.0.1, \(rounds) each after 1000 warm-up, one event loop:")
print(String(format: "  HTTP keep-alive GET   p50 %7.1f µs   p99 %7.1f µs", h.p50, h.p99))
print(String(format: "  websocket echo        p50 %7.1f µs   p99 %7.1f µs", w.p50, w.p99))
print(String(format: "  websocket / HTTP p50  %.2f", w.p50 / h.p50))
