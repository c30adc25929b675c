import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

final class HTTPEngineTests: XCTestCase {
    private var server: HTTPServer!

    override func setUpWithError() throws {
        server = try startEchoServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    func testAnswersWithStatusLineReasonPhraseAndCRLFHead() throws {
        let response = try RawHTTPClient.exchange(port: server.port, "GET /hello?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        XCTAssertEqual(response.statusLine, "HTTP/1.1 200 OK")
        XCTAssertTrue(response.text.hasPrefix("GET /hello?x=1 HTTP/1.1 body=0 Host=localhost"), response.text)
        XCTAssertEqual(response.header("Content-Length"), "\(response.body.count)")
        // Every head line ends in CRLF: no bare LF anywhere in the head.
        let head = response.rawHead
        for index in head.indices where head[index] == 10 {
            XCTAssertEqual(head[index - 1], 13, "bare LF at \(index)")
        }
    }

    func testKeepAliveServesManyRequestsOnOneConnection() throws {
        let client = try RawHTTPClient(port: server.port)
        for index in 0..<20 {
            try client.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertTrue(response.text.hasPrefix("GET /n/\(index) "))
            XCTAssertNil(response.header("Connection"))
        }
    }

    func testPipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsDelayed() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send(
            "GET /delay/150 HTTP/1.1\r\nHost: x\r\n\r\n" + "POST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /third HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        XCTAssertTrue(try client.readResponse().text.hasPrefix("GET /delay/150 "))
        let second = try client.readResponse()
        XCTAssertTrue(second.text.hasPrefix("POST /second HTTP/1.1 body=3"), second.text)
        XCTAssertEqual(second.header("X-Body"), "abc")
        XCTAssertTrue(try client.readResponse().text.hasPrefix("GET /third "))
    }

    func testContentLengthBodyArrivingInPieces() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("PUT /pieces HTTP/1.1\r\nHo")
        Thread.sleep(forTimeInterval: 0.02)
        try client.send("st: x\r\nContent-Length: 11\r\n\r\nhello")
        Thread.sleep(forTimeInterval: 0.02)
        try client.send(" world")
        let response = try client.readResponse()
        XCTAssertTrue(response.text.hasPrefix("PUT /pieces HTTP/1.1 body=11"), response.text)
        XCTAssertEqual(response.header("X-Body"), "hello world")
    }

    func testChunkedBodyWithExtensionsAndTrailersIsDechunked() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("5;name=value\r\nhello\r\n")
        Thread.sleep(forTimeInterval: 0.02)
        try client.send("1\r\n \r\n6\r\nworld!\r\n0\r\nX-Checksum: 42\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("X-Body"), "hello world!")
        // The connection stays usable after a chunked request.
        try client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(try client.readResponse().text.hasPrefix("GET /after "))
    }

    func testHTTP10ClosesUnlessKeepAliveIsAsked() throws {
        let plain = try RawHTTPClient(port: server.port)
        try plain.send("GET /old HTTP/1.0\r\n\r\n")
        let first = try plain.readResponse()
        XCTAssertEqual(first.statusLine, "HTTP/1.0 200 OK")
        XCTAssertEqual(first.header("Connection"), "close")
        XCTAssertTrue(plain.waitForClose())

        let keepAlive = try RawHTTPClient(port: server.port)
        try keepAlive.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try keepAlive.readResponse().header("Connection"), "keep-alive")
        try keepAlive.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertTrue(try keepAlive.readResponse().text.hasPrefix("GET /b HTTP/1.0"))
    }

    func testConnectionCloseIsHonoured() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try client.readResponse().header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
    }

    func testHEADGetsContentLengthButNoBody() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("HEAD /prepared HTTP/1.1\r\nHost: x\r\n\r\nGET /prepared HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(forHEAD: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "9")
        // The next response starts right after the head: no body bytes were sent for HEAD.
        let get = try client.readResponse()
        XCTAssertEqual(get.text, "prepared\n")
        XCTAssertEqual(get.header("X-Prepared"), "yes")
    }

    func testNoBodyStatusesCarryNoContentLength() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send(
            "GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\nGET /status/304 HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        let noContent = try client.readResponse()
        XCTAssertEqual(noContent.statusLine, "HTTP/1.1 204 No Content")
        XCTAssertNil(noContent.header("Content-Length"))
        let notModified = try client.readResponse()
        XCTAssertEqual(notModified.statusLine, "HTTP/1.1 304 Not Modified")
        XCTAssertTrue(try client.readResponse().text.hasPrefix("GET /next "))
    }

    func testExpectContinueGetsInterimResponseBeforeBody() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        XCTAssertEqual(interim.statusLine, "HTTP/1.1 100 Continue")
        try client.send("data")
        let final = try client.readResponse()
        XCTAssertEqual(final.status, 200)
        XCTAssertEqual(final.header("X-Body"), "data")
    }

    func testUnknownButValidMethodReachesTheResponder() throws {
        let response = try RawHTTPClient.exchange(port: server.port, "PROPFIND /dav HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.text.hasPrefix("PROPFIND /dav "))
    }

    func testAbsoluteFormTargetIsReducedToOriginForm() throws {
        let response = try RawHTTPClient.exchange(
            port: server.port, "GET http://example.com/api/x?y=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        XCTAssertTrue(response.text.hasPrefix("GET /api/x?y=1 "), response.text)
    }

    func testLeadingEmptyLinesBeforeARequestAreIgnored() throws {
        let response = try RawHTTPClient.exchange(port: server.port, "\r\n\r\nGET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(response.text.hasPrefix("GET /late "))
    }

    func testCloseReplyClosesWithoutAnswer() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /close HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readUntilClose(), [])
    }

    func testLargeResponseReachesASlowReaderWhole() throws {
        let size = 6 * 1024 * 1024
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /big/\(size) HTTP/1.1\r\nHost: x\r\n\r\nGET /after-big HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2) // let the server hit a full socket buffer
        let response = try client.readResponse()
        XCTAssertEqual(response.body.count, size)
        XCTAssertEqual(response.body[size - 1], UInt8(ascii: "a") &+ UInt8((size - 1) % 26))
        let after = try client.readResponse()
        XCTAssertTrue(after.text.hasPrefix("GET /after-big "), "\(after.statusLine) \(after.text)")
    }

    func testPipelinedRequestsResumeAfterBackpressureEvenWhenTheSocketTookEverything() throws {
        // A high-water mark of one byte pauses parsing after every reply; each reply is small
        // enough to leave in one send, so parsing must resume without a new readable event.
        var limits = HTTPServerLimits()
        limits.outputHighWaterMark = 1
        let tight = try startEchoServer(limits: limits)
        defer { tight.stop() }
        let client = try RawHTTPClient(port: tight.port)
        try client.send((1...5).map { "GET /p/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for index in 1...5 {
            XCTAssertTrue(try client.readResponse().text.hasPrefix("GET /p/\(index) "))
        }
    }

    func testBoundPortIsReportedAndServerCanRestart() throws {
        let port = server.port
        XCTAssertGreaterThan(port, 0)
        server.stop()
        XCTAssertThrowsError(try RawHTTPClient(port: port))
        try server.start()
        XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
    }

    func testSecondServerOnTheSamePortFailsWithAddressInUse() throws {
        let other = HTTPServer(configuration: .init(port: server.port), responder: EchoResponder())
        XCTAssertThrowsError(try other.start()) { error in
            XCTAssertEqual(error as? HTTPServerError, .addressInUse(host: "127.0.0.1", port: server.port))
        }
    }

    func testInvalidHostIsRejected() {
        let other = HTTPServer(configuration: .init(host: "not-an-address"), responder: EchoResponder())
        XCTAssertThrowsError(try other.start()) { error in
            XCTAssertEqual(error as? HTTPServerError, .invalidHost("not-an-address"))
        }
    }
}
