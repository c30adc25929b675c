import Foundation
import OpenAPI
import StubServer
import XCTest

/// `StubServer.Options.openAPI` (`stubserver start --openapi`): requests the app sends and
/// responses stubs send, checked against the document over real HTTP on 127.0.0.1.
final class RuntimeContractHTTPTests: XCTestCase {
    static let document = """
        {"openapi": "3.0.3", "info": {"title": "items", "version": "1"},
         "paths": {
          "/items": {
            "get": {"parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}],
                    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}}},
            "post": {"requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                     "responses": {"201": {"description": "made"}}}},
          "/broken": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}},
          "/gone": {"get": {"responses": {"200": {"description": "ok"}}}}},
         "components": {"schemas": {"Item": {"type": "object", "required": ["id", "name"],
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}
        """

    private func startServer(checking: Bool = true) throws -> StubServer {
        var options = StubServer.Options()
        if checking { options.openAPI = try OpenAPILoader().load(bytes: Array(Self.document.utf8), name: "items.json") }
        let server = try StubServer(
            stubs: [
                StubDefinition(request: .get("/items"), response: .json([["id": 1, "name": "a"]])),
                StubDefinition(request: .post("/items"), response: .json(["id": 2, "name": "b"], status: 201)),
                StubDefinition(request: .get("/broken"), response: .json(["id": "one", "name": "b"])),
                StubDefinition(request: .get("/gone"), response: .text("gone", status: 410)),
            ], options: options)
        try server.start()
        return server
    }

    private func violations(_ server: StubServer, sequence: Int) throws -> [String] {
        try server.contractViolations().filter { $0.sequence == sequence }.map { "\($0.side.rawValue) \($0.location): \($0.message)" }
    }

    func testAConformingExchangeIsNotMarked() throws {
        let server = try startServer()
        defer { server.stop() }
        XCTAssertEqual(try RawHTTPClient.get(port: server.port, "/items?page=2").status, 200)
        let body = #"{"id": 3, "name": "c"}"#
        let posted = try RawHTTPClient.exchange(
            port: server.port,
            "POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        )
        XCTAssertEqual(posted.status, 201)
        XCTAssertEqual(try server.contractViolations(), [])
        XCTAssertEqual(server.journal.entries.map(\.contractViolations.isEmpty), [true, true])
    }

    func testRequestsTheDocumentRejectsAreMarked() throws {
        let server = try startServer()
        defer { server.stop() }
        _ = try RawHTTPClient.get(port: server.port, "/items?pages=2")
        _ = try RawHTTPClient.get(port: server.port, "/items?page=two")
        _ = try RawHTTPClient.get(port: server.port, "/nowhere")
        let body = #"{"name": "c"}"#
        _ = try RawHTTPClient.exchange(
            port: server.port,
            "POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        )
        _ = try RawHTTPClient.exchange(port: server.port, "DELETE /items HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")

        XCTAssertEqual(
            try violations(server, sequence: 1), [#"request query.pages: undeclared query parameter "pages" (GET /items declares page)"#])
        XCTAssertEqual(
            try violations(server, sequence: 2),
            [#"request query.page: $: expected an integer, got a string "two" (schema #/paths/~1items/get/parameters/0/schema/type)"#])
        XCTAssertEqual(try violations(server, sequence: 3), ["request operation: no operation of items.json has the path /nowhere"])
        XCTAssertEqual(
            try violations(server, sequence: 4),
            [#"request body $: missing the required property "id" (schema #/components/schemas/Item/required)"#])
        XCTAssertEqual(try violations(server, sequence: 5), ["request operation: /items has no DELETE operation (it has GET, POST)"])
        let line = try XCTUnwrap(server.journal.entries.first?.description)
        XCTAssertTrue(line.contains(#"✗ contract: request query.pages: undeclared query parameter "pages""#), line)
    }

    func testStubResponsesOffTheDocumentAreMarked() throws {
        let server = try startServer()
        defer { server.stop() }
        _ = try RawHTTPClient.get(port: server.port, "/broken")
        _ = try RawHTTPClient.get(port: server.port, "/gone")
        XCTAssertEqual(
            try violations(server, sequence: 1),
            [#"response body $.id: expected an integer, got a string "one" (schema #/components/schemas/Item/properties/id/type)"#])
        XCTAssertEqual(try violations(server, sequence: 2), ["response status: undeclared status 410 (GET /gone declares 200)"])
    }

    func testTheAdminAPIListsViolationsAndJournalEntriesCarryThem() throws {
        let server = try startServer()
        defer { server.stop() }
        _ = try RawHTTPClient.get(port: server.port, "/items?pages=2")
        _ = try RawHTTPClient.get(port: server.port, "/items")
        let listed = try JSONValue(parsing: RawHTTPClient.get(port: server.port, "/__admin/contract-violations").body)
        let violations = try XCTUnwrap(listed["violations"]?.arrayValue)
        XCTAssertEqual(violations.count, 1)
        XCTAssertEqual(violations.first?["location"], "query.pages")
        XCTAssertEqual(violations.first?["side"], "request")
        XCTAssertEqual(violations.first?["sequence"]?.intValue, 1)
        let requests = try JSONValue(parsing: RawHTTPClient.get(port: server.port, "/__admin/requests").body)
        let entries = try XCTUnwrap(requests["requests"]?.arrayValue)
        XCTAssertEqual(entries.first?["contractViolations"]?.arrayValue?.first?["path"], "/items")
        XCTAssertNil(entries.last?["contractViolations"])
    }

    func testAServerWithoutADocumentSaysSo() throws {
        let server = try startServer(checking: false)
        defer { server.stop() }
        _ = try RawHTTPClient.get(port: server.port, "/items?pages=2")
        XCTAssertTrue(server.journal.entries.allSatisfy(\.contractViolations.isEmpty))
        XCTAssertThrowsError(try server.contractViolations()) { XCTAssertTrue($0 is ContractCheckNotEnabled) }
        XCTAssertEqual(try RawHTTPClient.get(port: server.port, "/__admin/contract-violations").status, 409)
    }

    func testViolationsPerExchangeAreBounded() throws {
        let server = try startServer()
        defer { server.stop() }
        let query = (1...30).map { "x\($0)=1" }.joined(separator: "&")
        _ = try RawHTTPClient.get(port: server.port, "/items?page=1&" + query)
        let found = try server.contractViolations()
        XCTAssertEqual(found.count, 10)
        XCTAssertTrue(found.last?.message.hasSuffix("(and 20 more)") == true, "\(String(describing: found.last))")
    }

    /// The 400 no stub answered also says how the request breaks the document (a miss may be the
    /// app sending what the real API rejects, not a missing stub); without a document it does not.
    func testTheNearMissPageSaysHowTheRequestBreaksTheDocument() throws {
        let server = try startServer()
        defer { server.stop() }
        let miss = try RawHTTPClient.get(port: server.port, "/nowhere")
        XCTAssertEqual(miss.status, 400)
        XCTAssertTrue(miss.text.hasPrefix("No stub matched GET /nowhere"), miss.text)
        XCTAssertTrue(
            miss.text.contains(
                "The request also breaks the API's OpenAPI document (items.json):\n  ✗ operation: no operation of items.json has the path /nowhere\n"
            ), miss.text)
        let unchecked = try startServer(checking: false)
        defer { unchecked.stop() }
        let plain = try RawHTTPClient.get(port: unchecked.port, "/nowhere")
        XCTAssertEqual(plain.status, 400)
        XCTAssertFalse(plain.text.contains("OpenAPI"), plain.text)
    }

    /// The dashboard's feed sends each request with its violations, and its state names the document.
    func testTheDashboardFeedCarriesTheViolations() throws {
        let server = try startServer()
        defer { server.stop() }
        let feed = try RawHTTPClient(port: server.port, timeout: 5)
        try feed.send("GET /__admin/ui/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: text/event-stream\r\n\r\n")
        XCTAssertEqual(try feed.readHead().status, 200)
        _ = try RawHTTPClient.get(port: server.port, "/items?pages=2")
        var received = ""
        let deadline = Date().addingTimeInterval(5)
        while !received.contains("query.pages"), Date() < deadline, let chunk = try feed.readChunk() {
            received += String(decoding: chunk, as: UTF8.self)
        }
        let line = try XCTUnwrap(received.split(separator: "\n").last { $0.hasPrefix("data: ") && $0.contains("pages") }, received)
        let event = try JSONValue(parsing: Array(line.dropFirst("data: ".count).utf8))
        let violation = try XCTUnwrap(event["contractViolations"]?.arrayValue?.first)
        XCTAssertEqual(violation["side"], "request")
        XCTAssertEqual(violation["location"], "query.pages")
        let state = try JSONValue(parsing: RawHTTPClient.get(port: server.port, "/__admin/ui/state").body)
        XCTAssertEqual(state["contract"], "items.json")
    }
}
