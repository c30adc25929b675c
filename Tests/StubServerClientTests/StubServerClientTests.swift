import Foundation
import SpecKit
// The embedded server the client talks to in some tests (an app linking the client has only the client).
import StubServer
import StubServerClient
import StubServerTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `StubServerClient` against the real `stubserver` binary, started on port 0 as a UI test's
/// scheme would start it.
final class StubServerClientTests: XCTestCase {
    private var directory: URL!
    private var process: StubServerProcess?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(
            """
            [
              {"description": "stories", "request": {"method": "GET", "uri": "/api/v1/stories", "queries": {"client_id": {"exist": "true"}}},
               "response": {"seq": [{"text": "first"}, {"text": "second"}]}},
              {"request": {"method": "GET", "uri": "/cart"}, "response": {"text": "empty"}, "scenario": {"name": "cart", "requires": "Started"}},
              {"request": {"method": "GET", "uri": "/cart"}, "response": {"text": "full"}, "scenario": {"name": "cart", "requires": "HasItem"}}
            ]
            """.utf8
        ).write(to: directory.appendingPathComponent("stubs.json"))
    }

    override func tearDown() {
        if let process, process.process.isRunning {
            process.send(signal: SIGTERM)
            _ = process.waitForExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `stubserver start -p 0` and returns a client for the port it printed.
    private func startServer(_ extra: [String] = [], token: String? = nil) throws -> StubServerClient {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "stubs.json"] + extra, workingDirectory: directory)
        self.process = process
        return StubServerClient(port: try process.waitForPort(), token: token)
    }

    private func get(_ client: StubServerClient, _ path: String, method: String = "GET", body: String? = nil) async throws -> (Int, String)
    {
        var request = URLRequest(url: URL(string: client.baseURL.absoluteString + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error); return }
                continuation.resume(
                    returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self)))
            }.resume()
        }
    }

    func testEveryOperationAgainstARealStubserver() async throws {
        let client = try startServer()
        let value1 = try await client.health()
        XCTAssertEqual(value1, 3)

        let id = try await client.addStub(
            StubDefinition(
                request: .post("/oauth/token", forms: ["username": "qa@example.com"]),
                response: .json(["access_token": "abc123"], status: 200).header("X-Stub", "added"),
                description: "login for the UI test"))
        XCTAssertEqual(id, "admin-1")
        let stubs = try await client.stubs()
        XCTAssertEqual(stubs.map(\.id), ["admin-1", "stubs.json#0", "stubs.json#1", "stubs.json#2"])
        XCTAssertEqual(stubs[0].session["description"], "login for the UI test")

        let (status, body) = try await get(client, "/oauth/token", method: "POST", body: "username=qa%40example.com&password=x")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, #"{"access_token":"abc123"}"#)
        _ = try await get(client, "/api/v1/stories") // no client_id: a near miss

        let value2 = try await client.countRequests(matching: .post("/oauth/token").withFormField("username", "qa@example.com"))
        XCTAssertEqual(value2, 1)
        let found = try await client.findRequests(matching: .post("/oauth/token"))
        XCTAssertEqual(found.first?.stub, "admin-1")
        XCTAssertEqual(found.first?.source, "admin")
        XCTAssertEqual(found.first?.body, "username=qa%40example.com&password=x")
        let unmatched = try await client.requests(unmatchedOnly: true)
        XCTAssertEqual(unmatched.map(\.uri), ["/api/v1/stories"])
        XCTAssertEqual(unmatched.first?.nearMiss?.stub, "stubs.json#0")
        XCTAssertEqual(unmatched.first?.nearMiss?.differences, ["queries.client_id: expected present, got nothing"])
        let value3 = try await client.requests(limit: 1).map(\.uri)
        XCTAssertEqual(value3, ["/api/v1/stories"])

        let value4 = try await client.scenarios()
        XCTAssertEqual(value4, [ScenarioState(name: "cart", state: "Started")])
        try await client.setScenario("cart", state: "HasItem")
        let value5 = try await get(client, "/cart").1
        XCTAssertEqual(value5, "full")
        try await client.resetScenarios()
        let value6 = try await get(client, "/cart").1
        XCTAssertEqual(value6, "empty")

        let value7 = try await get(client, "/api/v1/stories?client_id=a").1
        XCTAssertEqual(value7, "first")
        let value8 = try await get(client, "/api/v1/stories?client_id=a").1
        XCTAssertEqual(value8, "second")
        try await client.removeStub(id: id)
        do {
            try await client.removeStub(id: id)
            XCTFail("an unknown id is an error")
        } catch let error as StubServerClientError {
            XCTAssertEqual(error.status, 404)
        }
        try await client.addStubs([StubDefinition(request: .get("/a"), response: .text("a"))])
        try await client.resetStubs()
        let value9 = try await get(client, "/a").0
        XCTAssertEqual(value9, 400)
        try await client.clearRequests()
        let value10 = try await client.requests()
        XCTAssertEqual(value10, [])

        _ = try await client.addStub(StubDefinition(request: .get("/b"), response: .text("b")))
        try await client.reset()
        let value11 = try await client.requests()
        XCTAssertEqual(value11, [])
        let value12 = try await get(client, "/api/v1/stories?client_id=a").1
        XCTAssertEqual(value12, "first", "seq starts over")
        let value13 = try await client.health()
        XCTAssertEqual(value13, 3, "added stubs dropped")

        try await client.shutdown()
        XCTAssertEqual(process?.waitForExit(), 0)
        XCTAssertTrue(process?.stdout.contains("Server stopped.") == true)
    }

    func testABadStubComesBackWithItsDiagnostics() async throws {
        let client = try startServer()
        do {
            try await client.addStubs(mocoJSON: #"{"request": {"uri": {"matc": "x"}}, "response": {"text": "x"}}"#)
            XCTFail("expected a rejection")
        } catch let error as StubServerClientError {
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(
                error.diagnostics.first?.hasPrefix(#"request body: .request.uri.matc: unknown operator; did you mean "match"?"#), true,
                "\(error)")
        }
    }

    func testATokenGuardedServerRefusesAClientWithoutTheToken() async throws {
        let guarded = try startServer(["--host", "0.0.0.0", "--admin-token", "s3cret"], token: "s3cret")
        let value14 = try await guarded.health()
        XCTAssertEqual(value14, 3)
        let anonymous = StubServerClient(baseURL: guarded.baseURL)
        do {
            _ = try await anonymous.health()
            XCTFail("expected 401")
        } catch let error as StubServerClientError {
            XCTAssertEqual(error.status, 401)
        }
    }

    func testStartSaysWhenTheAdminAPIIsOffAndRefusesContradictoryOptions() throws {
        let wide = try StubServerProcess(["start", "-p", "0", "-c", "stubs.json", "--host", "0.0.0.0"], workingDirectory: directory)
        process = wide
        _ = try wide.waitForPort()
        XCTAssertNotNil(
            wide.waitForLine {
                $0.contains("the admin API (/__admin/) is off because 0.0.0.0 is wider than loopback; give --admin-token TOKEN")
            })
        wide.send(signal: SIGTERM)
        XCTAssertEqual(wide.waitForExit(), 0)
        let both = try StubServerProcess.run(
            ["start", "-p", "0", "-c", "stubs.json", "--no-admin", "--admin-token", "x"], workingDirectory: directory)
        XCTAssertEqual(both.status, 64)
        XCTAssertEqual(both.stderr.first, "stubserver: error: '--no-admin' and '--admin-token' cannot be used together")
        let shadowing = try StubServerProcess.run(
            ["start", "-p", "0", "-c", "admin.json"],
            workingDirectory: {
                try? Data(#"[{"request": {"uri": {"startsWith": "/__admin/stubs"}}, "response": {"text": "x"}}]"#.utf8)
                    .write(to: directory.appendingPathComponent("admin.json"))
                return directory
            }())
        XCTAssertEqual(shadowing.status, 1)
        XCTAssertTrue(
            shadowing.stderr.first?.hasPrefix("stubserver: error: admin.json: [0].request.uri: this uri lies under /__admin/") == true,
            "\(shadowing.stderr)")
    }

    // MARK: haveReceived

    func testHaveReceivedPassesAndFailsWithNearMissesThroughTheClient() async throws {
        let client = try startServer()
        _ = try await get(client, "/api/v1/stories?client_id=designernews-ios")
        _ = try await get(client, "/oauth/token", method: "POST", body: "username=qa%40example.org&password=secret")
        let wrap = ClientBox(client)
        let result = try await Task.detached {
            let result = try haveReceived(.post("/oauth/token").withFormField("username", "qa@example.com"), times: 1).evaluate(wrap.client)
            return (result.passes(.to), result.message(for: .to))
        }.value
        XCTAssertFalse(result.0)
        XCTAssertEqual(
            result.1,
            """
            expected to have received POST /oauth/token with form username=qa@example.com exactly 1 time, got 0 (of 2 requests)
            Closest requests:
              POST /oauth/token → 400
                ✗ forms.username: expected "qa@example.com", got "qa@example.org"
              GET /api/v1/stories?client_id=designernews-ios → 200
                ✗ method: expected "POST", got "GET"
                ✗ uri: expected "/oauth/token", got "/api/v1/stories"
                ✗ forms.username: expected "qa@example.com", got nothing
            """)
        let passing = try await Task.detached {
            (
                try haveReceived(.get("/api/v1/stories").withQuery("client_id"), times: 1).evaluate(wrap.client).passes(.to),
                try haveReceived(.get("/api/v1/me")).evaluate(wrap.client).passes(.toNot)
            )
        }.value
        XCTAssertTrue(passing.0)
        XCTAssertTrue(passing.1)
    }

    func testHaveReceivedWithAnEmbeddedServerInASpecStyleExpectation() throws {
        let server = try StubServer(stubs: [StubDefinition(request: .post("/oauth/token"), response: .text("t"))])
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("oauth/token"))
        request.httpMethod = "POST"
        request.httpBody = Data("grant_type=password".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let done = expectation(description: "answered")
        URLSession.shared.dataTask(with: request) { _, _, _ in done.fulfill() }.resume()
        wait(for: [done], timeout: 30)

        expect(server).to(haveReceived(.post("/oauth/token").withFormField("grant_type", "password"), times: 1))
        expect(server).toNot(haveReceived(.get("/api/v1/stories")))
        let twice = try haveReceived(.post("/oauth/token"), times: 2).evaluate(server)
        XCTAssertEqual(twice.message(for: .to), "expected to have received POST /oauth/token exactly 2 times, got 1 (of 1 request)")
        let none = try haveReceived(.get("/x")).evaluate(try StubServer(stubs: []))
        XCTAssertEqual(none.message(for: .to), "expected to have received GET /x, got 0 (of 0 requests)\nThe server received no requests.")
    }

    // MARK: CLI

    func testRequestsAndResetCommands() async throws {
        let client = try startServer()
        _ = try await get(client, "/cart")
        _ = try await get(client, "/nothing")
        let port = String(client.baseURL.port!)
        let listed = try StubServerProcess.run(["requests", "-p", port])
        XCTAssertEqual(listed.status, 0, "\(listed.stderr)")
        XCTAssertEqual(listed.stdout.count, 2)
        XCTAssertTrue(listed.stdout[0].hasPrefix("GET /cart 200 stubs.json#1 "), "\(listed.stdout)")
        let unmatched = try StubServerProcess.run(["requests", "-p", port, "--unmatched"])
        XCTAssertEqual(unmatched.stdout.count, 1)
        XCTAssertTrue(unmatched.stdout[0].hasPrefix("GET /nothing 400 no match (closest: "), "\(unmatched.stdout)")
        let reset = try StubServerProcess.run(["reset", "-p", port])
        XCTAssertEqual(reset.status, 0)
        let value15 = try await client.requests()
        XCTAssertEqual(value15, [])

        // Issue 26, point 11: `-p` defaults to 12306 as for `start` (no longer a usage error). This
        // machine may or may not run a server there: either it answers, or the error names 12306.
        let defaulted = try StubServerProcess.run(["requests", "--limit", "0"])
        XCTAssertTrue(defaulted.status == 0 || defaulted.stderr.joined().contains("127.0.0.1:12306"), "\(defaulted)")
        XCTAssertNotEqual(defaulted.status, 64)
        XCTAssertEqual(try StubServerProcess.run(["reset", "-p", "nope"]).status, 64)
        XCTAssertEqual(try StubServerProcess.run(["requests", "--help"]).status, 0)
        XCTAssertEqual(
            try StubServerProcess.run(["reset", "--help"]).stdout.first,
            "OVERVIEW: Reset a running server: journal cleared, seq/cycle and scenarios back to the")
        try await client.shutdown()
        XCTAssertEqual(process?.waitForExit(), 0)
        let refused = try StubServerProcess.run(["reset", "-p", port])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.first?.hasPrefix("stubserver: error: POST ") == true, "\(refused.stderr)")
        // Issue 26, point 10: no server running says so and how to start one, not "upstream unreachable".
        XCTAssertTrue(
            refused.stderr.first?.contains(
                "no stubserver is answering on 127.0.0.1:\(port) (connection refused). Start one first: `stubserver start -p \(port) -c Stubs/settings.json`"
            )
                == true, "\(refused.stderr)")
        XCTAssertFalse(refused.stderr.joined().contains("upstream"), "\(refused.stderr)")
        do {
            _ = try await client.health()
            XCTFail("a stopped server answered")
        } catch let error as StubServerClientError {
            XCTAssertNil(error.status)
            XCTAssertTrue(
                error.message.hasPrefix("GET http://127.0.0.1:\(port)/__admin/health: no stubserver is answering on 127.0.0.1:\(port)"),
                error.message)
        }
    }

    /// Issue 26, point 11: moco's task name `http` starts a server as `start` does; an unknown
    /// subcommand suggests the closest one.
    func testMocosTaskNameHTTPStartsAServer() async throws {
        let process = try StubServerProcess(["http", "-p", "0", "-c", "stubs.json"], workingDirectory: directory)
        self.process = process
        let client = StubServerClient(port: try process.waitForPort())
        let stubs = try await client.health()
        XCTAssertEqual(stubs, 3)
        let typo = try StubServerProcess.run(["strt"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.stderr.first, "stubserver: error: unknown subcommand 'strt'; did you mean 'start'?")
    }
}

/// Hands the client to a detached task (the matcher blocks while the server answers).
private struct ClientBox: @unchecked Sendable {
    let client: StubServerClient
    init(_ client: StubServerClient) { self.client = client }
}
