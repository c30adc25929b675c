import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// `proxy` against embedded upstream servers on ephemeral ports.
final class ProxyTests: XCTestCase {
    private func upstream(_ stubs: [StubDefinition]) throws -> StubServer {
        let server = try StubServer(stubs: stubs)
        try server.start()
        return server
    }

    private func text(_ response: RawHTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func testSingleURLForwardsMethodHeadersBodyAndQuery() throws {
        let backend = try upstream([
            StubDefinition(
                request: RequestPattern(method: "POST", uri: "/v1/echo"),
                response: ResponseDefinition(
                    body: .text(.template("${req.queries['q']} ${req.headers['X-Token']} ${req.content}")), status: 201,
                    headers: [ResponseHeader("X-From", "upstream")]))
        ])
        defer { backend.stop() }
        let live = try LiveStubs(
            #"[{"request": {"uri": "/echo"}, "response": {"proxy": "http://127.0.0.1:\#(backend.port)/v1/echo", "headers": {"X-Added": "stub"}}}]"#
        )
        let response = try live.send("POST", "/echo?q=hello", headers: [("X-Token", "t1")], body: "payload")
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(text(response), "hello t1 payload")
        XCTAssertEqual(response.header("X-From"), "upstream")
        XCTAssertEqual(response.header("X-Added"), "stub")
        let seen = try XCTUnwrap(backend.journal.last)
        XCTAssertEqual(seen.request.target, "/v1/echo?q=hello")
        XCTAssertEqual(seen.request.headers["Host"], "127.0.0.1:\(backend.port)")
    }

    func testURLTemplateAndObjectForm() throws {
        let backend = try upstream([StubDefinition(request: .get(.path("/items/{id}")), response: .text(.template("item ${req.path.id}")))])
        defer { backend.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/lookup"}, "response": {"proxy": {"url": {"template": "http://127.0.0.1:\#(backend.port)/items/${req.queries['id']}"}}}}]
            """#)
        let response = try live.send("GET", "/lookup?id=42")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(text(response), "item 42")
        XCTAssertEqual(backend.journal.last?.request.target, "/items/42?id=42")
    }

    func testRedirectsArePassedOnNotFollowed() throws {
        let backend = try upstream([.redirect(.get("/old"), to: "/new")])
        defer { backend.stop() }
        let live = try LiveStubs(#"[{"request": {"uri": "/old"}, "response": {"proxy": "http://127.0.0.1:\#(backend.port)/old"}}]"#)
        let response = try live.send("GET", "/old")
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.header("Location"), "/new")
    }

    func testBatchProxyAtSessionLevelWithContext() throws {
        let backend = try upstream([
            StubDefinition(
                request: .get(.path("/v2/{a}/{b}")), response: .text(.template("${req.path.a}-${req.path.b}-${req.queries['x']}")))
        ])
        defer { backend.stop() }
        let live = try LiveStubs(
            #"[{"context": "/app", "include": "legacy.json"}]"#,
            files: [
                "legacy.json":
                    #"[{"proxy": {"from": "/api", "to": "http://127.0.0.1:\#(backend.port)/v2"}}, {"request": {"uri": "/other"}, "response": {"text": "local"}}]"#
            ])
        let response = try live.send("GET", "/app/api/one/two?x=3")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(text(response), "one-two-3")
        XCTAssertEqual(text(try live.send("GET", "/app/other")), "local")
        XCTAssertEqual(try live.send("GET", "/app/apix/one").status, 400, "only uris under from/ are proxied")
        XCTAssertEqual(try live.send("GET", "/api/one/two").status, 400, "the context applies")
    }

    func testBatchProxyInsideAResponse() throws {
        let backend = try upstream([StubDefinition(request: .get("/v2/stories"), response: .json(["stories": []]))])
        defer { backend.stop() }
        let live = try LiveStubs(
            #"[{"request": {"uri": {"startsWith": "/api"}}, "response": {"proxy": {"from": "/api", "to": "http://127.0.0.1:\#(backend.port)/v2/"}}}]"#
        )
        let response = try live.send("GET", "/api/stories")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(text(response), #"{"stories":[]}"#)
    }

    func testUnreachableUpstreamAnswers502WithTheReason() throws {
        let port = try ScriptedTCPServer.closedPort()
        let live = try LiveStubs(#"[{"request": {"uri": "/down"}, "response": {"proxy": "http://127.0.0.1:\#(port)/down"}}]"#)
        let response = try live.send("GET", "/down")
        XCTAssertEqual(response.status, 502)
        XCTAssertTrue(text(response).contains("upstream unreachable"), text(response))
    }

    func testJournalRecordsProxiedExchanges() throws {
        let backend = try upstream([StubDefinition(request: .get("/x"), response: .text("x", status: 203))])
        defer { backend.stop() }
        let logged = LockedBox<[JournalEntry]>([])
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", #"[{"request": {"uri": "/x"}, "response": {"proxy": "http://127.0.0.1:\#(backend.port)/x"}}]"#)
        var options = StubServer.Options()
        options.logger = { entry in logged.value.append(entry) }
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").status, 203)
        let entry = try XCTUnwrap(server.journal.last)
        XCTAssertEqual(entry.status, 203)
        XCTAssertEqual(entry.stub?.index, 0)
        XCTAssertGreaterThan(entry.duration, .zero)
        XCTAssertEqual(logged.value.map(\.status), [203])
    }

    /// The issue's bar: 50 proxied requests hanging on a silent upstream do not hold the loop.
    func testHangingUpstreamDoesNotHoldTheEventLoop() throws {
        let silent = try ScriptedTCPServer(backlog: 128)
        defer { silent.stop() }
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json",
            #"""
            [{"request": {"uri": "/hang"}, "response": {"proxy": "http://127.0.0.1:\#(silent.port)/hang"}},
             {"request": {"uri": "/ping"}, "response": {"text": "pong"}}]
            """#)
        var options = StubServer.Options()
        options.eventLoopCount = 1 // one loop: a blocked loop would stop /ping outright
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }

        var hanging: [RawHTTPClient] = []
        for _ in 0..<50 {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET /hang HTTP/1.1\r\nHost: a\r\n\r\n")
            hanging.append(client)
        }
        // Wait until the hanging requests have reached the upstream: the pool opens its bound
        // (32 connections) and the other 18 wait in line.
        let endpoint = UpstreamEndpoint(host: "127.0.0.1", port: silent.port)
        let deadline = Date().addingTimeInterval(20)
        while UpstreamClient.shared.openConnectionCount(to: endpoint) < UpstreamClient.shared.configuration.maxConnectionsPerUpstream,
            Date() < deadline
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(
            UpstreamClient.shared.openConnectionCount(to: endpoint), UpstreamClient.shared.configuration.maxConnectionsPerUpstream)
        let ping = try RawHTTPClient(port: server.port)
        var times: [Double] = []
        for _ in 0..<21 {
            let start = Date()
            try ping.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try ping.readResponse()
            times.append(Date().timeIntervalSince(start) * 1000)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "pong")
        }
        let median = times.sorted()[times.count / 2]
        XCTAssertLessThan(median, 10, "median /ping time while 50 proxied requests hang: \(median) ms")
        // None of the hanging ones got an answer meanwhile.
        XCTAssertEqual(server.journal.requests(path: "/hang").count, 0)
        hanging.removeAll()
    }

    func testAClientThatDisconnectsCancelsTheUpstreamCall() throws {
        let silent = try ScriptedTCPServer(backlog: 16)
        defer { silent.stop() }
        let live = try LiveStubs(#"[{"request": {"uri": "/hang"}, "response": {"proxy": "http://127.0.0.1:\#(silent.port)/hang"}}]"#)
        let endpoint = UpstreamEndpoint(host: "127.0.0.1", port: silent.port)
        var client: RawHTTPClient? = try RawHTTPClient(port: live.server.port)
        try client?.send("GET /hang HTTP/1.1\r\nHost: a\r\n\r\n")
        func waitFor(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if UpstreamClient.shared.openConnectionCount(to: endpoint) == count { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        XCTAssertTrue(waitFor(1), "the upstream call is under way")
        client = nil // closes the socket
        XCTAssertTrue(waitFor(0), "the upstream connection is closed once the client is gone")
    }

    func testLoadTimeErrorsForMalformedProxies() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "a.json",
            #"[{"request": {"uri": "/a"}, "response": {"proxy": {"url": "http://x.test/", "from": "/a", "to": "http://x.test/"}}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("a.json").contains { $0.path == "[0].response.proxy" && $0.message.contains("not both") },
            "\(fixture.diagnostics("a.json"))")
        try fixture.write("b.json", #"[{"request": {"uri": "/a"}, "response": {"proxy": {"from": "/a"}}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("b.json").contains { $0.message.contains("\"from\" needs \"to\"") }, "\(fixture.diagnostics("b.json"))")
        try fixture.write("c.json", #"[{"proxy": {"url": "http://x.test/"}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("c.json").contains { $0.path == "[0].proxy.url" && $0.message.contains("session-level proxy") },
            "\(fixture.diagnostics("c.json"))")
        try fixture.write("d.json", "[{\"request\": {\"uri\": \"/a\"},\n \"response\": {\"proxy\": \"ftp://x\"}}]")
        let d = fixture.diagnostics("d.json")
        XCTAssertEqual(d.first?.path, "[0].response.proxy")
        XCTAssertEqual(d.first?.position?.line, 2)
        try fixture.write(
            "e.json",
            #"[{"request": {"uri": "/a"}, "response": {"proxy": {"url": "http://x.test/", "failover": {"file": "f.json", "status": ["x"]}}}}]"#
        )
        XCTAssertTrue(
            fixture.diagnostics("e.json").contains { $0.path == "[0].response.proxy.failover.status[0]" },
            "\(fixture.diagnostics("e.json"))")
    }
}
