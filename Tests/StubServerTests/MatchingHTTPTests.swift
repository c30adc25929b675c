import Foundation
import XCTest

@testable import StubServer

/// Every request key and operator, through a real server on 127.0.0.1.
final class MatchingHTTPTests: XCTestCase {
    private static let config = """
        [
          {"request": {"uri": "/uri"}, "response": {"text": "uri"}},
          {"request": {"uri": "/method", "method": "DELETE"}, "response": {"text": "method"}},
          {"request": {"uri": "/version", "version": "HTTP/1.0"}, "response": {"text": "version"}},
          {"request": {"uri": "/headers", "headers": {"X-Token": "abc", "Accept": {"contain": "json"}}}, "response": {"text": "headers"}},
          {"request": {"uri": "/queries", "queries": {"page": "2", "flag": ""}}, "response": {"text": "queries"}},
          {"request": {"uri": "/cookies", "cookies": {"sid": "42"}}, "response": {"text": "cookies"}},
          {"request": {"uri": "/forms", "forms": {"name": "neo"}}, "response": {"text": "forms"}},
          {"request": {"uri": "/text", "text": "plain body"}, "response": {"text": "text"}},
          {"request": {"uri": "/json", "json": {"id": 1, "tags": ["a"]}}, "response": {"text": "json"}},
          {"request": {"uri": "/file", "file": "request-body.txt"}, "response": {"text": "file"}},
          {"request": {"uri": "/json_paths", "json_paths": {"$.order.id": "7"}}, "response": {"text": "json_paths"}},
          {"request": {"uri": "/struct", "struct": {"json": {"id": 0}}}, "response": {"text": "struct"}},
          {"request": {"uri": "/xpaths", "xpaths": {"/order/id/text()": "7"}}, "response": {"text": "xpaths"}},
          {"request": {"uri": {"match": "/op/match/[0-9]+"}}, "response": {"text": "match"}},
          {"request": {"uri": {"startsWith": "/op/starts"}}, "response": {"text": "startsWith"}},
          {"request": {"uri": {"endsWith": "/op/ends"}}, "response": {"text": "endsWith"}},
          {"request": {"uri": {"contain": "/op/contain/"}}, "response": {"text": "contain"}},
          {"request": {"uri": "/op/exist", "headers": {"X-Absent": {"exist": "false"}}}, "response": {"text": "exist"}},
          {"request": {"uri": {"path": "/op/path/{id}"}}, "response": {"text": {"template": "path ${req.path.id}"}}},
          {"request": {"uri": "/redirect"}, "redirectTo": "/uri"},
          {"description": "the fallback", "response": {"status": 404, "text": "catch-all"}}
        ]
        """

    private var stubs: LiveStubs!

    override func setUpWithError() throws {
        stubs = try LiveStubs(Self.config, files: ["request-body.txt": "file body\n"])
    }

    override func tearDown() { stubs = nil }

    private func text(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "", version: String = "HTTP/1.1")
        throws -> String
    {
        let response = try stubs.send(method, target, headers: headers, body: body, version: version)
        return response.status == 200 ? response.text : "\(response.status) \(response.text)"
    }

    func testRequestKeys() throws {
        XCTAssertEqual(try text("GET", "/uri"), "uri")
        XCTAssertEqual(try text("DELETE", "/method"), "method")
        XCTAssertEqual(try text("GET", "/version", version: "HTTP/1.0"), "version")
        XCTAssertEqual(try text("GET", "/headers", headers: [("x-token", "abc"), ("Accept", "application/json")]), "headers")
        XCTAssertEqual(try text("GET", "/queries?flag&page=2"), "queries")
        XCTAssertEqual(try text("GET", "/cookies", headers: [("Cookie", "a=1; sid=42")]), "cookies")
        XCTAssertEqual(
            try text("POST", "/forms", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "name=neo"), "forms")
        XCTAssertEqual(try text("POST", "/text", body: "plain body"), "text")
        XCTAssertEqual(try text("POST", "/json", headers: [("Content-Type", "application/json")], body: #"{"tags":["a"],"id":1}"#), "json")
        XCTAssertEqual(try text("POST", "/file", body: "file body\n"), "file")
        XCTAssertEqual(try text("POST", "/json_paths", body: #"{"order": {"id": 7}}"#), "json_paths")
        XCTAssertEqual(try text("POST", "/struct", body: #"{"id": 99, "extra": "ok"}"#), "struct")
        XCTAssertEqual(
            try text("POST", "/xpaths", headers: [("Content-Type", "application/xml")], body: "<order><id>7</id></order>"), "xpaths")
    }

    func testChunkedBodiesAreMatchedToo() throws {
        let client = try RawHTTPClient(port: stubs.server.port)
        try client.send(
            "POST /text HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nplain\r\n5\r\n body\r\n0\r\n\r\n"
        )
        XCTAssertEqual(try client.readResponse().text, "text")
    }

    func testOperators() throws {
        XCTAssertEqual(try text("GET", "/op/match/123"), "match")
        XCTAssertEqual(try text("GET", "/op/starts/here"), "startsWith")
        XCTAssertEqual(try text("GET", "/a/b/op/ends"), "endsWith")
        XCTAssertEqual(try text("GET", "/x/op/contain/y"), "contain")
        XCTAssertEqual(try text("GET", "/op/exist"), "exist")
        XCTAssertEqual(try text("GET", "/op/path/42"), "path 42")
    }

    func testRedirectAndCatchAll() throws {
        let redirect = try stubs.send("GET", "/redirect")
        XCTAssertEqual(redirect.statusLine, "HTTP/1.1 302 Found")
        XCTAssertEqual(redirect.header("Location"), "/uri")
        XCTAssertEqual(try text("GET", "/nothing/here"), "404 catch-all")
        XCTAssertEqual(try text("GET", "/op/exist", headers: [("X-Absent", "1")]), "404 catch-all")
        let entry = try XCTUnwrap(stubs.server.journal.last)
        XCTAssertEqual(entry.stub, StubReference(file: "stubs.json", index: 20))
    }

    func testNearMissOverHTTP() throws {
        let server = try LiveStubs(
            #"[{"description": "stories", "request": {"method": "GET", "uri": "/api/v1/stories", "queries": {"client_id": {"exist": "true"}}}, "response": {"text": "ok"}}]"#
        )
        let miss = try server.send("GET", "/api/v1/stories?page=2")
        XCTAssertEqual(miss.statusLine, "HTTP/1.1 400 Bad Request")
        XCTAssertEqual(miss.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(
            miss.text,
            """
            No stub matched GET /api/v1/stories?page=2

            Closest stub: stubs.json#0 (stories)
              ✓ method: "GET"
              ✓ uri: "/api/v1/stories"
              ✗ queries.client_id: expected present, got nothing

            1 stub with request conditions compared; the closest failed 1 of 3.

            """)
        XCTAssertNil(server.server.journal.last?.stub)
    }
}
