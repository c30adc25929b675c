import Foundation
import XCTest

@testable import StubServer

/// Every `/__admin/` call over real HTTP against an embedded server.
final class AdminAPITests: XCTestCase {
    /// What every tool sends with an admin body (the API refuses other content types).
    static let jsonBody = [("Content-Type", "application/json")]
    private let config = """
        [
          {"description": "stories", "request": {"method": "GET", "uri": "/stories"}, "response": {"seq": [{"text": "one"}, {"text": "two"}]}},
          {"request": {"method": "POST", "uri": "/oauth/token", "forms": {"username": "qa@example.com"}}, "response": {"text": "token"}}
        ]
        """

    private func json(_ response: RawHTTPResponse, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        return try JSONValue(parsing: response.body)
    }

    func testHealthCountsStubs() throws {
        let live = try LiveStubs(config)
        let health = try live.send("GET", "/__admin/health")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(try json(health), ["status": "ok", "stubs": 2])
    }

    func testListsStubsWithIdSourceAndSession() throws {
        let live = try LiveStubs(config)
        let list = try json(try live.send("GET", "/__admin/stubs"))
        XCTAssertEqual(list.arrayValue?.count, 2)
        XCTAssertEqual(list.arrayValue?[0]["id"], "stubs.json#0")
        XCTAssertEqual(list.arrayValue?[0]["source"], "stubs.json#0")
        XCTAssertEqual(list.arrayValue?[0]["session"]?["request"], ["method": "GET", "uri": "/stories"])
        XCTAssertEqual(list.arrayValue?[1]["session"]?["request"]?["forms"], ["username": "qa@example.com"])
    }

    func testAddedStubsAnswerBeforeTheFilesNewestFirstAndCanBeRemoved() throws {
        let live = try LiveStubs(config)
        let first = try live.send(
            "POST", "/__admin/stubs", headers: Self.jsonBody,
            body: #"{"request": {"method": "GET", "uri": "/stories"}, "response": {"text": "added"}}"#)
        XCTAssertEqual(first.status, 201)
        XCTAssertEqual(try json(first), ["ids": ["admin-1"]])
        let more = try live.send(
            "POST", "/__admin/stubs", headers: Self.jsonBody,
            body:
                #"[{"request": {"uri": "/stories"}, "response": {"text": "newer"}}, {"request": {"uri": "/x"}, "response": {"text": "x"}}]"#
        )
        XCTAssertEqual(try json(more), ["ids": ["admin-2", "admin-3"]])
        XCTAssertEqual(try live.send("GET", "/stories").text, "newer")
        let list = try json(try live.send("GET", "/__admin/stubs")).arrayValue ?? []
        XCTAssertEqual(list.map { $0["id"]?.stringValue ?? "" }, ["admin-3", "admin-2", "admin-1", "stubs.json#0", "stubs.json#1"])
        XCTAssertEqual(list[0]["source"], "admin")

        XCTAssertEqual(try live.send("DELETE", "/__admin/stubs/admin-2").status, 204)
        XCTAssertEqual(try live.send("GET", "/stories").text, "added")
        let unknown = try live.send("DELETE", "/__admin/stubs/admin-2")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertTrue(try json(unknown)["error"]?.stringValue?.contains("admin-2") == true)
        XCTAssertEqual(try live.send("POST", "/__admin/stubs/reset").status, 204)
        XCTAssertEqual(try live.send("GET", "/stories").text, "one")
        XCTAssertEqual(try json(try live.send("GET", "/__admin/health"))["stubs"], 2)
    }

    func testABadSessionIs400WithTheDiagnosticsValidatePrints() throws {
        let live = try LiveStubs(config)
        let bad = try live.send(
            "POST", "/__admin/stubs", headers: Self.jsonBody,
            body: "[\n  {\"request\": {\"metod\": \"GET\"}, \"response\": {\"text\": \"x\"}}\n]")
        XCTAssertEqual(bad.status, 400)
        let diagnostic = try XCTUnwrap(try json(bad)["diagnostics"]?.arrayValue?.first)
        XCTAssertEqual(diagnostic["path"], "[0].request.metod")
        XCTAssertEqual(diagnostic["line"], 2)
        XCTAssertEqual(diagnostic["column"], 16)
        XCTAssertEqual(diagnostic["text"], #"request body: [0].request.metod: unknown key; did you mean "method"? (line 2, column 16)"#)
        let badRegex = try live.send(
            "POST", "/__admin/stubs", headers: Self.jsonBody, body: #"{"request": {"uri": {"match": "(("}}, "response": {"text": "x"}}"#)
        XCTAssertEqual(badRegex.status, 400)
        XCTAssertEqual(try json(badRegex)["diagnostics"]?.arrayValue?.first?["path"], ".request.uri")
        let notJSON = try live.send("POST", "/__admin/stubs", headers: Self.jsonBody, body: "{oops")
        XCTAssertEqual(notJSON.status, 400)
        XCTAssertEqual(try json(try live.send("GET", "/__admin/health"))["stubs"], 2, "nothing was added")
    }

    func testJournalListingFilteringCountingAndClearing() throws {
        let live = try LiveStubs(config)
        _ = try live.send("GET", "/stories?page=1", headers: [("X-Trace", "a")])
        _ = try live.send(
            "POST", "/oauth/token", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "username=qa%40example.com")
        _ = try live.send("GET", "/nothing")
        let all = try json(try live.send("GET", "/__admin/requests"))["requests"]?.arrayValue ?? []
        XCTAssertEqual(all.map { $0["uri"]?.stringValue ?? "" }, ["/stories", "/oauth/token", "/nothing"])
        XCTAssertEqual(all[0]["query"], "page=1")
        XCTAssertEqual(all[0]["stub"], "stubs.json#0")
        XCTAssertEqual(all[0]["source"], "stubs.json#0")
        XCTAssertEqual(all[0]["status"], 200)
        XCTAssertTrue(all[0]["headers"]?.arrayValue?.contains(["name": "X-Trace", "value": "a"]) == true)
        XCTAssertEqual(all[1]["body"], "username=qa%40example.com")
        XCTAssertNotNil(all[0]["time"]?.stringValue)
        XCTAssertNotNil(all[0]["durationMs"]?.doubleValue)
        XCTAssertEqual(all[2]["stub"], .null)
        XCTAssertEqual(all[2]["nearMiss"]?["stub"], "stubs.json#0")

        let last = try json(try live.send("GET", "/__admin/requests?limit=1"))["requests"]?.arrayValue ?? []
        XCTAssertEqual(last.map { $0["uri"]?.stringValue ?? "" }, ["/nothing"])
        let unmatched = try json(try live.send("GET", "/__admin/requests?unmatched=true"))["requests"]?.arrayValue ?? []
        XCTAssertEqual(unmatched.map { $0["uri"]?.stringValue ?? "" }, ["/nothing"])

        let count = try live.send(
            "POST", "/__admin/requests/count", headers: Self.jsonBody, body: #"{"method": "POST", "forms": {"username": "qa@example.com"}}"#
        )
        XCTAssertEqual(try json(count), ["count": 1])
        let regex = try live.send("POST", "/__admin/requests/count", headers: Self.jsonBody, body: #"{"uri": {"startsWith": "/"}}"#)
        XCTAssertEqual(try json(regex), ["count": 3], "admin calls are not journaled")
        let found =
            try json(try live.send("POST", "/__admin/requests/find", headers: Self.jsonBody, body: #"{"queries": {"page": "1"}}"#))[
                "requests"]?.arrayValue ?? []
        XCTAssertEqual(found.map { $0["uri"]?.stringValue ?? "" }, ["/stories"])
        let verify = try json(
            try live.send(
                "POST", "/__admin/requests/verify", headers: Self.jsonBody, body: #"{"method": "POST", "forms": {"username": "someone"}}"#))
        XCTAssertEqual(verify["count"], 0)
        XCTAssertEqual(verify["nearMisses"]?.arrayValue?.first?["request"], "POST /oauth/token")
        XCTAssertEqual(
            verify["nearMisses"]?.arrayValue?.first?["differences"], [#"forms.username: expected "someone", got "qa@example.com""#])
        let badFilter = try live.send("POST", "/__admin/requests/count", headers: Self.jsonBody, body: #"{"urri": "/x"}"#)
        XCTAssertEqual(badFilter.status, 400)
        XCTAssertEqual(try json(badFilter)["diagnostics"]?.arrayValue?.first?["path"], ".urri")

        XCTAssertEqual(try live.send("DELETE", "/__admin/requests").status, 204)
        XCTAssertEqual(try json(try live.send("GET", "/__admin/requests"))["requests"], [])
    }

    func testScenariosListSetAndReset() throws {
        let live = try LiveStubs(
            """
            [
              {"request": {"uri": "/cart"}, "response": {"text": "empty"}, "scenario": {"name": "cart", "requires": "Started"}},
              {"request": {"uri": "/cart"}, "response": {"text": "full"}, "scenario": {"name": "cart", "requires": "HasItem"}}
            ]
            """)
        XCTAssertEqual(try json(try live.send("GET", "/__admin/scenarios")), ["scenarios": [["name": "cart", "state": "Started"]]])
        XCTAssertEqual(try live.send("PUT", "/__admin/scenarios/cart", headers: Self.jsonBody, body: #"{"state": "HasItem"}"#).status, 204)
        XCTAssertEqual(try live.send("GET", "/cart").text, "full")
        XCTAssertEqual(try live.send("PUT", "/__admin/scenarios/nope", headers: Self.jsonBody, body: #"{"state": "X"}"#).status, 404)
        XCTAssertEqual(try live.send("PUT", "/__admin/scenarios/cart", headers: Self.jsonBody, body: #"{"stat": "X"}"#).status, 400)
        XCTAssertEqual(try live.send("POST", "/__admin/scenarios/reset").status, 204)
        XCTAssertEqual(try live.send("GET", "/cart").text, "empty")
    }

    func testResetRestartsSequencesScenariosJournalAndDropsAddedStubs() throws {
        let live = try LiveStubs(config)
        XCTAssertEqual(try live.send("GET", "/stories").text, "one")
        XCTAssertEqual(try live.send("GET", "/stories").text, "two")
        _ = try live.send(
            "POST", "/__admin/stubs", headers: Self.jsonBody, body: #"{"request": {"uri": "/added"}, "response": {"text": "a"}}"#)
        XCTAssertEqual(try live.send("POST", "/__admin/reset").status, 204)
        XCTAssertEqual(try json(try live.send("GET", "/__admin/requests"))["requests"], [])
        XCTAssertEqual(try live.send("GET", "/stories").text, "one")
        XCTAssertEqual(try live.send("GET", "/added").status, 400)
    }

    func testShutdownStopsTheServer() throws {
        let live = try LiveStubs(config)
        let reply = try live.send("POST", "/__admin/shutdown")
        XCTAssertEqual(reply.status, 202)
        let deadline = Date().addingTimeInterval(30)
        while live.server.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertFalse(live.server.isRunning)
    }

    func testUnknownCallsAnswer404And405() throws {
        let live = try LiveStubs(config)
        XCTAssertEqual(try live.send("GET", "/__admin/nope").status, 404)
        XCTAssertEqual(try live.send("DELETE", "/__admin/health").status, 405)
    }

    // MARK: The same operations in-process

    func testTheEmbeddedServerOffersTheClientsOperationsUnderTheSameNames() throws {
        let server = try StubServer(stubs: [StubDefinition(request: .get("/a"), response: .seq([.text("1"), .text("2")]))])
        try server.start()
        defer { server.stop() }
        func get(_ path: String) throws -> String {
            try RawHTTPClient.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").text
        }
        let ids = try server.addStubs([
            StubDefinition(request: .get("/b"), response: .text("b")), StubDefinition(request: .get("/c"), response: .text("c")),
        ])
        XCTAssertEqual(ids, ["admin-1", "admin-2"])
        XCTAssertEqual(server.stubs().map(\.id), ["admin-2", "admin-1", "stubs#0"])
        XCTAssertEqual(
            server.stubs()[2].session, ["request": ["method": "GET", "uri": "/a"], "response": ["seq": [["text": "1"], ["text": "2"]]]])
        XCTAssertEqual(try get("/a"), "1")
        XCTAssertEqual(try get("/b"), "b")
        XCTAssertTrue(try get("/zzz").hasPrefix("No stub matched"))
        XCTAssertEqual(try server.countRequests(matching: .get("/b")), 1)
        XCTAssertEqual(try server.findRequests(matching: .any("/b")).map(\.stub), ["admin-1"])
        XCTAssertEqual(server.requests(unmatchedOnly: true).map(\.uri), ["/zzz"])
        XCTAssertEqual(server.requests(limit: 2).map(\.uri), ["/b", "/zzz"])
        XCTAssertThrowsError(try server.countRequests(matching: RequestFilter(mocoJSON: #"{"uri": {"match": "(("}}"#))) { error in
            XCTAssertEqual((error as? ConfigError)?.diagnostics.first?.path, ".uri")
        }
        try server.removeStub(id: "admin-1")
        XCTAssertThrowsError(try server.removeStub(id: "stubs#0")) { error in
            XCTAssertEqual(error as? StubServerAdminError, .unknownStub("stubs#0"))
        }
        XCTAssertTrue(try get("/b").hasPrefix("No stub matched"))
        server.clearRequests()
        XCTAssertEqual(server.requests(), [])
        try server.replaceStubs([StubDefinition(request: .get("/a"), response: .text("replaced"))])
        XCTAssertEqual(try get("/c"), "c", "added stubs survive replaceStubs")
        try server.reset()
        XCTAssertEqual(try get("/a"), "replaced", "reset keeps the replaced stubs")
        XCTAssertTrue(try get("/c").hasPrefix("No stub matched"))
    }

    // MARK: Safety

    func testAUserSessionUnderTheAdminPrefixIsRefusedAtLoadWithTheHint() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json",
            """
            [
              {"request": {"uri": "/ok"}, "response": {"text": "x"}},
              {"request": {"uri": "/__admin/health"}, "response": {"text": "mine"}}
            ]
            """)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        XCTAssertThrowsError(try StubServer(configFile: "stubs.json", options: options)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("stubs.json: [1].request.uri: this uri lies under /__admin/"), text)
            XCTAssertTrue(text.contains("--no-admin"), text)
            XCTAssertTrue(text.contains("(line 3, column"), text)
        }
        options.admin = .off
        let server = try StubServer(configFile: "stubs.json", options: options)
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(
            try RawHTTPClient.exchange(port: server.port, "GET /__admin/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").text,
            "mine")
        XCTAssertThrowsError(try StubServer(stubs: [.init(request: .get(.path("/__admin/{x}")), response: .text("x"))]))
    }

    func testBoundWiderTheAdminAPIIsOffWithoutATokenAndNeedsTheBearerTokenWithOne() throws {
        var options = StubServer.Options(host: "0.0.0.0")
        let open = try StubServer(stubs: [.init(request: .get("/x"), response: .text("x"))], options: options)
        try open.start()
        defer { open.stop() }
        XCTAssertFalse(open.isAdminEnabled)
        let off = try RawHTTPClient.exchange(port: open.port, "GET /__admin/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(off.status, 400, "routed as an ordinary (unmatched) request")
        XCTAssertTrue(off.text.hasPrefix("No stub matched"))

        options.admin = .token("s3cret")
        let guarded = try StubServer(stubs: [], options: options)
        try guarded.start()
        defer { guarded.stop() }
        for header in ["", "Authorization: Bearer wrong\r\n", "Authorization: Basic s3cret\r\n", "Authorization: Bearer s3cre\r\n"] {
            let refused = try RawHTTPClient.exchange(
                port: guarded.port, "GET /__admin/health HTTP/1.1\r\nHost: x\r\n\(header)Connection: close\r\n\r\n")
            XCTAssertEqual(refused.status, 401, header)
            XCTAssertEqual(refused.header("WWW-Authenticate"), #"Bearer realm="stubserver admin""#)
        }
        let allowed = try RawHTTPClient.exchange(
            port: guarded.port, "GET /__admin/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(allowed.status, 200)
        let addRefused = try RawHTTPClient.exchange(
            port: guarded.port, "POST /__admin/reset HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(addRefused.status, 401)
    }

    func testOnLoopbackTheAdminAPIIsOnByDefaultAndOffWithNoAdmin() throws {
        XCTAssertTrue(try StubServer(stubs: []).isAdminEnabled)
        var options = StubServer.Options()
        options.admin = .off
        XCTAssertFalse(try StubServer(stubs: [], options: options).isAdminEnabled)
    }
}
