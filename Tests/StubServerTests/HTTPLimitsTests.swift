import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// Malformed and oversized requests get the right status, then the connection closes; the
/// server keeps serving everyone else.
final class HTTPLimitsTests: XCTestCase {
    private var server: HTTPServer!
    private let rejections = RejectionLog()

    override func setUpWithError() throws {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 1024
        limits.maxHeaderBytes = 4096
        limits.maxBodyBytes = 64 * 1024
        // Short enough to test, long enough that a loaded machine never trips them by accident.
        limits.headerReadTimeout = .milliseconds(800)
        limits.idleTimeout = .milliseconds(1000)
        let log = rejections
        server = try startEchoServer(limits: limits, onRejection: { log.append($0) })
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    /// Sends `request`, expects `status`, a closed connection, and a healthy server afterwards.
    private func assertRefused(_ request: String, status: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send(request)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Connection"), "close", file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "text/plain; charset=utf-8", file: file, line: line)
        XCTAssertFalse(response.reason.isEmpty, file: file, line: line)
        XCTAssertTrue(client.waitForClose(), "connection left open after \(status)", file: file, line: line)
        let healthy = try RawHTTPClient.exchange(port: server.port, "GET /still-alive HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(healthy.status, 200, file: file, line: line)
    }

    func testMalformedRequestLinesAre400() throws {
        try assertRefused("GARBAGE\r\n\r\n", status: 400)
        try assertRefused("GET /only-two-parts\r\n\r\n", status: 400)
        try assertRefused("GET  /double-space HTTP/1.1\r\n\r\n", status: 400)
        try assertRefused("G(T / HTTP/1.1\r\n\r\n", status: 400)
        try assertRefused("GET / HTTP/x.y\r\n\r\n", status: 400)
        try assertRefused("GET /a\u{01}b HTTP/1.1\r\n\r\n", status: 400)
    }

    func testMalformedHeadersAre400() throws {
        try assertRefused("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", status: 400)
        try assertRefused("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", status: 400)
        try assertRefused("GET / HTTP/1.1\r\nName : x\r\n\r\n", status: 400)
        try assertRefused("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", status: 400)
        try assertRefused("GET / HTTP/1.1\r\nA: b\u{7f}c\r\n\r\n", status: 400)
    }

    func testBadFramingIs400() throws {
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", status: 400)
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 12abc\r\n\r\n", status: 400)
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", status: 400)
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", status: 400)
        try assertRefused("POST / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n", status: 400)
        try assertRefused("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400)
        try assertRefused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400)
        try assertRefused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n", status: 400)
    }

    func testUnsupportedThingsGetTheirOwnStatus() throws {
        try assertRefused("GET / HTTP/2.0\r\n\r\n", status: 505)
        try assertRefused("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: 501)
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 1\r\nExpect: teapot\r\n\r\nx", status: 417)
    }

    func testOversizedPartsGetTheirStatus() throws {
        try assertRefused("GET /\(String(repeating: "a", count: 2000)) HTTP/1.1\r\n\r\n", status: 414)
        try assertRefused(
            "GET / HTTP/1.1\r\n" + (0..<100).map { "X-Header-\($0): \(String(repeating: "v", count: 60))\r\n" }.joined() + "\r\n",
            status: 431)
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 70000\r\n\r\n", status: 413)
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", status: 413)
        let chunk = String(repeating: "z", count: 40000)
        try assertRefused(
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n9c40\r\n\(chunk)\r\n9c40\r\n\(chunk)\r\n0\r\n\r\n", status: 413
        )
        try assertRefused("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", status: 413)
    }

    func testOversizedBodyIsRefusedBeforeItIsSent() throws {
        // With Expect: 100-continue the client learns of the 413 without sending the body.
        try assertRefused("POST / HTTP/1.1\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n", status: 413)
    }

    func testHeadersThatNeverFinishGet408() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 408)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
    }

    func testDrippingHeadersDoNotExtendTheDeadline() throws {
        // Its own server with a long idle timeout, so the refused connection lingers (draining
        // our late lines) until we stop sending, and the 408 is never lost to a reset.
        var limits = HTTPServerLimits()
        limits.headerReadTimeout = .milliseconds(300)
        limits.idleTimeout = .seconds(30)
        let dripServer = try startEchoServer(limits: limits)
        defer { dripServer.stop() }
        let client = try RawHTTPClient(port: dripServer.port)
        try client.send("GET /drip HTTP/1.1\r\n")
        for index in 0..<10 {
            Thread.sleep(forTimeInterval: 0.06)
            try? client.send("X-Drip-\(index): y\r\n") // each line arrives well within the deadline
        }
        XCTAssertEqual(try client.readResponse().status, 408)
    }

    func testStalledBodyGets408() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /stall HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        XCTAssertEqual(try client.readResponse().status, 408)
    }

    func testSilentConnectionIsClosedWithoutAnAnswer() throws {
        let client = try RawHTTPClient(port: server.port)
        XCTAssertEqual(try client.readUntilClose(), [])
    }

    func testIdleKeepAliveConnectionIsClosedAfterIdleTimeout() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /once HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        XCTAssertEqual(try client.readUntilClose(), [])
    }

    func testRejectionsAreReportedWithWhatWasReadable() throws {
        try assertRefused("POST /too-big HTTP/1.1\r\nContent-Length: 70000\r\n\r\n", status: 413)
        let rejection = try XCTUnwrap(rejections.all.first { $0.status == 413 })
        XCTAssertEqual(rejection.method, "POST")
        XCTAssertEqual(rejection.target, "/too-big")
        XCTAssertEqual(rejection.remoteAddress, "127.0.0.1")
        XCTAssertTrue(rejection.reason.contains("65536"), rejection.reason)
    }

    func testMaxConnectionsRefusesExtraConnectionsAtOnce() throws {
        server.stop()
        var limits = HTTPServerLimits()
        limits.maxConnections = 2
        server = try startEchoServer(limits: limits)
        let first = try RawHTTPClient(port: server.port)
        let second = try RawHTTPClient(port: server.port)
        // Both busy (an idle one would be displaced to make room; see HTTPSlowClientTests).
        try first.send("GET /delay/1500 HTTP/1.1\r\nHost: x\r\n\r\n")
        try second.send("GET /delay/1500 HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2)
        let third = try RawHTTPClient(port: server.port)
        XCTAssertTrue(third.waitForClose(timeout: 1.2), "a connection over the limit must be closed, not left hanging")
        XCTAssertEqual(try first.readResponse().status, 200)
        XCTAssertEqual(try second.readResponse().status, 200)
        // Closing one frees a slot.
        first.shutdownWrite()
        XCTAssertTrue(first.waitForClose())
        var served = false
        let deadline = Date().addingTimeInterval(30)
        while !served && Date() < deadline {
            if let response = try? RawHTTPClient.exchange(port: server.port, "GET /4 HTTP/1.1\r\nHost: x\r\n\r\n") {
                served = response.status == 200
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        XCTAssertTrue(served)
    }
}

final class RejectionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [HTTPRejection] = []
    func append(_ rejection: HTTPRejection) { lock.lock(); items.append(rejection); lock.unlock() }
    var all: [HTTPRejection] { lock.lock(); defer { lock.unlock() }; return items }
}
