import Foundation
import XCTest

@testable import StubServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The embeddable server with real configurations: files, Swift-built stubs, reload, watching.
final class ServerConfigTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func options() -> StubServer.Options {
        var options = StubServer.Options()
        options.workingDirectory = directory.path
        return options
    }

    private func get(_ server: StubServer, _ path: String) throws -> RawHTTPResponse {
        try RawHTTPClient.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
    }

    func testConfigFileServerAnswersAndJournalsTheStubReference() throws {
        try directory.write(
            "stubs.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"text": "alpha"}},
              {"request": {"method": "post", "uri": "/b"}, "response": {"status": 201, "text": "beta"}}
            ]
            """)
        let server = try StubServer(configFile: "stubs.json", options: options())
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(try get(server, "/a").text, "alpha")
        let created = try RawHTTPClient.exchange(port: server.port, "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(created.statusLine, "HTTP/1.1 201 Created")
        XCTAssertEqual(try get(server, "/zzz").status, 400)

        XCTAssertEqual(server.journal.entries.map { $0.stub?.index }, [0, 1, nil])
        XCTAssertEqual(server.journal.entries.first?.stub?.file, "stubs.json")
        XCTAssertEqual(server.journal.count(matching: .post("/b")), 1)
        XCTAssertEqual(server.journal.unmatched.map(\.path), ["/zzz"])
        XCTAssertEqual(server.watchedFiles, [directory.url.appendingPathComponent("stubs.json").path])
    }

    func testConfigErrorsAreThrownWithEveryDiagnostic() throws {
        try directory.write(
            "bad.json", #"[{"request": {"uri": "/a", "methd": "get"}, "response": {"text": "a"}}, {"response": {"stauts": 200}}]"#)
        XCTAssertThrowsError(try StubServer(configFile: "bad.json", options: options())) { error in
            let diagnostics = (error as? ConfigError)?.diagnostics ?? []
            XCTAssertEqual(diagnostics.map(\.path), ["[0].request.methd", "[1].response.stauts"])
        }
    }

    func testStubsBuiltInSwiftServeOverURLSession() throws {
        let server = try StubServer(stubs: [
            StubDefinition(
                request: .post("/oauth/token", forms: ["username": "qa@example.com"]),
                response: .json(["access_token": "abc123"])),
            StubDefinition(
                request: .get("/api/v1/stories"), response: .text("[]", headers: [ResponseHeader("Content-Type", "application/json")])),
            .catchAll(.json(["error": "not_found"], status: 404)),
        ])
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("oauth/token"))
        request.httpMethod = "POST"
        request.httpBody = Data("grant_type=password&username=qa%40example.com".utf8)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let done = expectation(description: "token")
        nonisolated(unsafe) var body = ""
        nonisolated(unsafe) var status = 0
        session.dataTask(with: request) { data, response, _ in
            body = String(decoding: data ?? Data(), as: UTF8.self)
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, #"{"access_token":"abc123"}"#)
        XCTAssertEqual(server.journal.count(matching: .post("/oauth/token").withFormField("username", "qa@example.com")), 1)
        XCTAssertEqual(server.journal.last?.stub, StubReference(file: "stubs", index: 0))
        let missing = try get(server, "/nowhere")
        XCTAssertEqual(missing.status, 404, "the catch-all answers what nothing else matches")
        XCTAssertEqual(missing.text, #"{"error":"not_found"}"#)
    }

    func testReloadSwapsRoutesAndKeepsTheLastGoodConfigurationOnError() throws {
        let file = try directory.write("stubs.json", #"[{"request": {"uri": "/v"}, "response": {"text": "one"}}]"#)
        let server = try StubServer(configFile: file, options: options())
        try server.start()
        defer { server.stop() }
        let port = server.port
        XCTAssertEqual(try get(server, "/v").text, "one")

        try directory.write("stubs.json", #"[{"request": {"uri": "/v"}, "response": {"text": "two"}}]"#)
        try server.reload()
        XCTAssertEqual(try get(server, "/v").text, "two")
        XCTAssertEqual(server.port, port, "the listener is kept")

        try directory.write("stubs.json", #"[{"request": {"uri": "/v"}, "response": {"text": "#)
        XCTAssertThrowsError(try server.reload()) { error in
            XCTAssertFalse((error as? ConfigError)?.diagnostics.isEmpty ?? true, "\(error)")
        }
        XCTAssertEqual(try get(server, "/v").text, "two", "a broken configuration keeps the last good one serving")
    }

    func testWatchingReloadsOnChangeAndReportsBrokenEdits() throws {
        let file = try directory.write("stubs.json", #"[{"request": {"uri": "/v"}, "response": {"text": "one"}}]"#)
        let server = try StubServer(configFile: file, options: options())
        try server.start()
        defer { server.stop() }
        let events = LineLog()
        server.watchConfiguration { events.append("\($0)") }

        try directory.write("stubs.json", #"[{"request": {"uri": "/v"}, "response": {"text": "two"}}]"#)
        XCTAssertTrue(waitUntil { events.all.contains { $0.hasSuffix("configuration reloaded") } }, "\(events.all)")
        XCTAssertEqual(try get(server, "/v").text, "two")

        try directory.write("stubs.json", #"[{"request": {"uri": "/v"}, "respnse": {"text": "three"}}]"#)
        XCTAssertTrue(waitUntil { events.all.contains { $0.contains("still serving the last good one") } }, "\(events.all)")
        XCTAssertTrue(events.all.contains { $0.contains("[0].respnse") }, "\(events.all)")
        XCTAssertEqual(try get(server, "/v").text, "two")
    }

    func testLatencyIsATimerAndDoesNotHoldOtherRequests() throws {
        try directory.write(
            "stubs.json",
            """
            [
              {"request": {"uri": "/slow"}, "response": {"text": "slow", "latency": {"duration": 3, "unit": "second"}}},
              {"request": {"uri": "/fast"}, "response": {"text": "fast"}}
            ]
            """)
        var options = options()
        options.eventLoopCount = 1
        let server = try StubServer(configFile: "stubs.json", options: options)
        try server.start()
        defer { server.stop() }
        let slow = try RawHTTPClient(port: server.port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<3 { XCTAssertEqual(try get(server, "/fast").text, "fast") }
        XCTAssertEqual(server.journal.requests(path: "/slow").count, 0, "the slow reply is still pending")
        XCTAssertEqual(try slow.readResponse().text, "slow")
        XCTAssertEqual(server.journal.requests(path: "/slow").count, 1)
    }

    func testStartAndStopRepeatedlyOnFreshServers() throws {
        try directory.write("stubs.json", #"[{"request": {"uri": "/"}, "response": {"text": "ok"}}]"#)
        for _ in 0..<20 {
            let server = try StubServer(configFile: "stubs.json", options: options())
            try server.start()
            XCTAssertEqual(try get(server, "/").text, "ok")
            server.stop()
        }
    }

    /// Prints the cost of a fresh server per scenario (XCTest's measure reports it; nothing is
    /// asserted about time). Each iteration loads a configuration, starts, serves one request, stops.
    func testStartServeStopCostIsMeasured() throws {
        try directory.write("stubs.json", #"[{"request": {"uri": "/"}, "response": {"text": "ok"}}]"#)
        let options = options()
        measure {
            do {
                let server = try StubServer(configFile: "stubs.json", options: options)
                try server.start()
                XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").text, "ok")
                server.stop()
            } catch {
                XCTFail("\(error)")
            }
        }
    }

    private func waitUntil(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}
