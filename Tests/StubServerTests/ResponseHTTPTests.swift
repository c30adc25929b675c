import Foundation
import XCTest

@testable import StubServer

/// Every response key, through a real server on 127.0.0.1.
final class ResponseHTTPTests: XCTestCase {
    private static let config = """
        [
          {"request": {"uri": "/text"}, "response": {"text": "hello"}},
          {"request": {"uri": "/json"}, "response": {"json": {"id": 1, "name": "Ann"}}},
          {"request": {"uri": "/file"}, "response": {"file": "bodies/story.json"}},
          {"request": {"uri": "/status"}, "response": {"status": 204}},
          {"request": {"uri": "/headers"}, "response": {"text": "h", "headers": {"X-Request-Id": {"template": "${req.headers['X-Id']}"}, "Cache-Control": "no-store"}}},
          {"request": {"uri": "/cookies"}, "response": {"text": "c", "cookies": {"sid": {"value": "abc", "path": "/", "httpOnly": "true", "sameSite": "Strict"}}}},
          {"request": {"uri": "/version"}, "response": {"text": "old", "version": "HTTP/1.0"}},
          {"request": {"uri": "/latency"}, "response": {"text": "slow", "latency": {"duration": 50, "unit": "millisecond"}}},
          {"request": {"uri": "/seq"}, "response": {"seq": [{"text": "first"}, {"status": 500, "json": {"error": "boom"}}]}},
          {"request": {"uri": "/cycle"}, "response": {"cycle": [{"text": "ping"}, {"text": "pong"}]}},
          {"request": {"uri": "/attachment"}, "response": {"attachment": {"filename": "story.json", "file": "bodies/story.json"}}},
          {"request": {"uri": "/template"}, "response": {"text": {"template": "${req.method} ${req.queries['q']!'none'}"}}},
          {"request": {"uri": "/broken-template"}, "response": {"text": {"template": "${req.queries['q']}"}}},
          {"request": {"uri": "/charset"}, "response": {"file": {"name": "bodies/legacy.txt", "charset": "ISO-8859-1"}}}
        ]
        """

    private var stubs: LiveStubs!

    override func setUpWithError() throws {
        stubs = try LiveStubs(Self.config, files: ["bodies/story.json": #"{"story": {"id": 7}}"#, "bodies/legacy.txt": "plain"])
    }

    override func tearDown() { stubs = nil }

    func testBodies() throws {
        let text = try stubs.send("GET", "/text")
        XCTAssertEqual(text.statusLine, "HTTP/1.1 200 OK")
        XCTAssertEqual(text.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(text.header("Content-Length"), "5")
        XCTAssertEqual(text.text, "hello")
        let json = try stubs.send("GET", "/json")
        XCTAssertEqual(json.text, #"{"id":1,"name":"Ann"}"#)
        XCTAssertEqual(json.header("Content-Type"), "application/json; charset=utf-8")
        let file = try stubs.send("GET", "/file")
        XCTAssertEqual(file.text, #"{"story": {"id": 7}}"#)
        XCTAssertEqual(file.header("Content-Type"), "application/json")
        let legacy = try stubs.send("GET", "/charset")
        XCTAssertEqual(legacy.header("Content-Type"), "text/plain; charset=iso-8859-1")
        XCTAssertEqual(legacy.text, "plain")
    }

    func testStatusHeadersCookiesAndVersion() throws {
        let status = try stubs.send("GET", "/status")
        XCTAssertEqual(status.statusLine, "HTTP/1.1 204 No Content")
        XCTAssertTrue(status.body.isEmpty)
        let headers = try stubs.send("GET", "/headers", headers: [("X-Id", "r-1")])
        XCTAssertEqual(headers.header("X-Request-Id"), "r-1")
        XCTAssertEqual(headers.header("Cache-Control"), "no-store")
        XCTAssertEqual(try stubs.send("GET", "/cookies").header("Set-Cookie"), "sid=abc; Path=/; HTTPOnly; SameSite=Strict")
        XCTAssertEqual(try stubs.send("GET", "/version").statusLine, "HTTP/1.0 200 OK")
        XCTAssertEqual(
            try stubs.send("GET", "/text", version: "HTTP/1.0").statusLine, "HTTP/1.0 200 OK", "the default is the request's version")
    }

    func testLatencyAnswersAfterATimer() throws {
        let response = try stubs.send("GET", "/latency")
        XCTAssertEqual(response.text, "slow")
        XCTAssertEqual(stubs.server.journal.last?.stub, StubReference(file: "stubs.json", index: 7))
    }

    func testSeqAndCycleKeepStateAcrossConnections() throws {
        XCTAssertEqual(try stubs.send("GET", "/seq").text, "first")
        let second = try stubs.send("GET", "/seq")
        XCTAssertEqual(second.status, 500)
        XCTAssertEqual(second.text, #"{"error":"boom"}"#)
        XCTAssertEqual(try stubs.send("GET", "/seq").status, 500, "the last response repeats")
        XCTAssertEqual(try (0..<5).map { _ in try stubs.send("GET", "/cycle").text }, ["ping", "pong", "ping", "pong", "ping"])
    }

    func testAttachmentAndTemplates() throws {
        let attachment = try stubs.send("GET", "/attachment")
        XCTAssertEqual(attachment.header("Content-Disposition"), "attachment; filename=story.json")
        XCTAssertEqual(attachment.header("Content-Type"), "application/json")
        XCTAssertEqual(attachment.text, #"{"story": {"id": 7}}"#)
        XCTAssertEqual(try stubs.send("PUT", "/template?q=x").text, "PUT x")
        XCTAssertEqual(try stubs.send("GET", "/template").text, "GET none")
        let broken = try stubs.send("GET", "/broken-template")
        XCTAssertEqual(broken.statusLine, "HTTP/1.1 400 Bad Request")
        XCTAssertTrue(broken.text.contains("req.queries['q'] is missing"), broken.text)
    }

    func testHeadGetsHeadersWithoutBody() throws {
        let head = try stubs.send("HEAD", "/text")
        XCTAssertEqual(head.status, 200, "a stub without a method condition answers any method")
        XCTAssertEqual(head.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertTrue(head.body.isEmpty)
    }
}
