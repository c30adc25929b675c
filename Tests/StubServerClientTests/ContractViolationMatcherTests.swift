import Foundation
import SpecKit
import StubServer
import StubServerClient
import StubServerTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `haveNoContractViolations()` with an embedded `StubServer` and with a `StubServerClient`
/// talking to `stubserver start --openapi`.
final class ContractViolationMatcherTests: XCTestCase {
    private var directory: URL!
    private var process: StubServerProcess?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-matcher-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(
            """
            openapi: 3.1.0
            info: {title: stories, version: "1"}
            paths:
              /stories:
                get:
                  parameters:
                    - {name: page, in: query, schema: {type: integer}}
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: {type: array, items: {type: string}}
            """.utf8
        ).write(to: directory.appendingPathComponent("api.yaml"))
        try Data(
            """
            [{"request": {"method": "GET", "uri": "/stories"}, "response": {"json": ["a", "b"]}}]
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

    private func fetch(_ base: URL, _ target: String) {
        let done = expectation(description: target)
        URLSession.shared.dataTask(with: URL(string: base.absoluteString + target)!) { _, _, _ in done.fulfill() }.resume()
        wait(for: [done], timeout: 30)
    }

    func testAnEmbeddedServerPassesUntilTheAppSendsWhatTheAPIRejects() throws {
        var options = StubServer.Options()
        try options.checkContract(against: directory.appendingPathComponent("api.yaml").path)
        let server = try StubServer(configFile: directory.appendingPathComponent("stubs.json").path, options: options)
        try server.start()
        defer { server.stop() }
        fetch(server.baseURL, "/stories?page=2")
        expect(server).to(haveNoContractViolations())

        fetch(server.baseURL, "/stories?pages=2")
        let result = try haveNoContractViolations().evaluate(server)
        XCTAssertFalse(result.passes(.to))
        XCTAssertEqual(
            result.message(for: .to),
            """
            expected to have no contract violations, got 1
              GET /stories → 200: request query.pages: undeclared query parameter "pages" (GET /stories declares page)
            """)
    }

    func testAClientOfAStubserverStartedWithOpenAPI() async throws {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "stubs.json", "--openapi", "api.yaml"], workingDirectory: directory)
        self.process = process
        let client = StubServerClient(port: try process.waitForPort())
        let base = client.baseURL
        let wrap = ClientHolder(client)
        let outcome = try await Task.detached {
            try blockingGet(base, "/stories")
            let clean = try haveNoContractViolations().evaluate(wrap.client).passes(.to)
            try blockingGet(base, "/nowhere")
            let result = try haveNoContractViolations().evaluate(wrap.client)
            return (clean, result.passes(.to), result.message(for: .to))
        }.value
        XCTAssertTrue(outcome.0)
        XCTAssertFalse(outcome.1)
        XCTAssertEqual(
            outcome.2,
            """
            expected to have no contract violations, got 1
              GET /nowhere → 400: request operation: no operation of api.yaml has the path /nowhere
            """)
    }

    func testAClientOfAServerWithoutOpenAPIGetsAClearError() async throws {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "stubs.json"], workingDirectory: directory)
        self.process = process
        let wrap = ClientHolder(StubServerClient(port: try process.waitForPort()))
        let message = await Task.detached { () -> String in
            do {
                _ = try wrap.client.contractViolations()
                return "no error"
            } catch {
                return "\(error)"
            }
        }.value
        XCTAssertTrue(message.contains("start it with `stubserver start --openapi"), message)
    }
}

/// A blocking GET (the matcher itself blocks, so these tests run it off the main actor).
private func blockingGet(_ base: URL, _ target: String) throws {
    let done = DispatchSemaphore(value: 0)
    URLSession.shared.dataTask(with: URL(string: base.absoluteString + target)!) { _, _, _ in done.signal() }.resume()
    if done.wait(timeout: .now() + 30) == .timedOut { throw URLError(.timedOut) }
}

private final class ClientHolder: @unchecked Sendable {
    let client: StubServerClient
    init(_ client: StubServerClient) { self.client = client }
}
