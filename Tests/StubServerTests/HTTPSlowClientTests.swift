import Foundation
import XCTest

@testable import StubServer

/// Slow and idle clients: a reader is not idle, a dribbling body has a total deadline, and a
/// full house of idle keep-alive sockets cannot lock a new client out.
final class HTTPSlowClientTests: XCTestCase {
    /// Before, the idle deadline ignored write progress: a client reading a 20 MB body at
    /// 250 KB/s got 18.3 MB, then FIN. Here: 1 s idle timeout, a read that takes longer.
    func testAClientThatKeepsReadingIsNotIdle() throws {
        var limits = HTTPServerLimits()
        limits.idleTimeout = .seconds(1)
        let server = try startEchoServer(limits: limits, loops: 1)
        defer { server.stop() }
        let size = 8 * 1024 * 1024
        let client = try RawHTTPClient(port: server.port, receiveBuffer: 16 * 1024)
        try client.send("GET /big/\(size) HTTP/1.1\r\nHost: x\r\n\r\n")
        let started = Date()
        var received = 0
        var headSeen = false
        var pending: [UInt8] = []
        while true {
            guard let piece = client.receiveSome(limit: 16 * 1024), !piece.isEmpty else { break }
            if !headSeen {
                pending += piece
                if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                    headSeen = true
                    received = pending.count - end.upperBound
                }
            } else {
                received += piece.count
            }
            if received >= size { break }
            Thread.sleep(forTimeInterval: 0.004) // ~4 MB/s at best: well over the idle timeout
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(received, size, "the body was cut after \(elapsed) s")
        XCTAssertGreaterThan(elapsed, 1.0, "the read must outlast the idle timeout to test anything")
    }

    /// Before, each body byte restarted the timeout: one byte every 300 ms (under a 1 s
    /// timeout) was never cut off. Now the body has a total deadline.
    func testADribblingBodyHasATotalDeadline() throws {
        var limits = HTTPServerLimits()
        limits.headerReadTimeout = .seconds(1)
        limits.idleTimeout = .seconds(30)
        let server = try startEchoServer(limits: limits, loops: 1)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port, timeout: 0.2)
        try client.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        let started = Date()
        var status: Int?
        while status == nil && Date().timeIntervalSince(started) < 8 {
            try? client.send("x")
            if let response = try? client.readResponse() { status = response.status }
        }
        XCTAssertEqual(status, 408, "a body dribbled for \(Date().timeIntervalSince(started)) s without being cut off")
    }

    /// A fast upload is not cut by the same deadline: it earns time as bytes arrive.
    func testASteadyUploadEarnsTime() throws {
        var limits = HTTPServerLimits()
        limits.headerReadTimeout = .milliseconds(500)
        limits.minimumBodyBytesPerSecond = 1024
        let server = try startEchoServer(limits: limits, loops: 1)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /steady HTTP/1.1\r\nHost: x\r\nContent-Length: 8000\r\n\r\n")
        for _ in 0..<8 {
            try client.send(Array(repeating: UInt8(ascii: "y"), count: 1000))
            Thread.sleep(forTimeInterval: 0.15)
        }
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.text.contains("body=8000"), response.text)
    }

    /// Before, at the connection cap every new client was closed at once, so a handful of idle
    /// keep-alive sockets locked everyone out. Now the longest-idle one makes room.
    func testAtTheCapTheLongestIdleConnectionMakesRoom() throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 8
        let server = try startEchoServer(limits: limits, loops: 2)
        defer { server.stop() }
        var holders: [RawHTTPClient] = []
        for index in 0..<8 {
            let holder = try RawHTTPClient(port: server.port)
            try holder.send("GET /hold/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try holder.readResponse().status, 200)
            holders.append(holder)
            Thread.sleep(forTimeInterval: 0.01)
        }
        var newcomers: [RawHTTPClient] = [] // kept open, so each one needs a slot of its own
        for round in 0..<2 {
            let newcomer = try RawHTTPClient(port: server.port)
            try newcomer.send("GET /new/\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try newcomer.readResponse().status, 200)
            newcomers.append(newcomer)
        }
        // The oldest holders were the ones displaced.
        XCTAssertTrue(holders[0].waitForClose(timeout: 5), "the longest-idle holder is closed")
        XCTAssertTrue(holders[1].waitForClose(timeout: 5))
        try holders[7].send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try holders[7].readResponse().status, 200, "a recent holder keeps its connection")
    }

    /// A busy connection (mid-request) is never displaced; with none idle a newcomer is refused.
    func testBusyConnectionsAreNotDisplaced() throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 2
        let server = try startEchoServer(limits: limits, loops: 1)
        defer { server.stop() }
        let first = try RawHTTPClient(port: server.port)
        let second = try RawHTTPClient(port: server.port)
        try first.send("GET /delay/3000 HTTP/1.1\r\nHost: x\r\n\r\n")
        try second.send("GET /delay/3000 HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        let third = try RawHTTPClient(port: server.port)
        XCTAssertTrue(third.waitForClose(timeout: 5), "no idle connection to displace: refused")
        XCTAssertEqual(try first.readResponse().status, 200)
        XCTAssertEqual(try second.readResponse().status, 200)
    }
}

extension HTTPSlowClientTests {
    /// A stray CRLF after a request (some clients send one) leaves the connection idle: it is
    /// not answered 408 at the header deadline, and it can be displaced at the cap.
    func testStrayCRLFBetweenRequestsKeepsTheConnectionIdle() throws {
        var limits = HTTPServerLimits()
        limits.headerReadTimeout = .milliseconds(300)
        limits.idleTimeout = .seconds(30)
        let server = try startEchoServer(limits: limits, loops: 1)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port, timeout: 1)
        try client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        Thread.sleep(forTimeInterval: 0.8)
        XCTAssertThrowsError(try client.readResponse(), "no 408 for an idle connection")
        try client.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
    }
}
