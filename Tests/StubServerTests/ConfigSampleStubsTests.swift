import Foundation
import StubServerTestSupport
import XCTest

@testable import StubServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Designer News sample in `Stubs/`, served the way people use it.
final class ConfigSampleStubsTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: ConfigLoaderTests.repositoryRoot)

    func testTheCurlFromTheIssueGetsTheToken() throws {
        let server = try StubServerProcess(["start", "-p", "0", "-c", "Stubs/settings.json"], workingDirectory: Self.repository)
        defer { server.process.terminate() }
        let port = try server.waitForPort()
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = [
            "curl", "-s", "-X", "POST", "127.0.0.1:\(port)/oauth/token", "-d",
            "grant_type=password&username=qa@example.com&password=secret&client_id=…&client_secret=…",
        ]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        guard curl.terminationStatus == 0 else { throw XCTSkip("curl is not installed (exit \(curl.terminationStatus))") }
        let token = try JSONValue(parsing: [UInt8](data))
        XCTAssertEqual(token["token_type"], "bearer")
        XCTAssertEqual(token["access_token"]?.stringValue?.count, 64)
    }

    func testLoginStoriesAndOneStoryOverURLSession() throws {
        var options = StubServer.Options()
        options.workingDirectory = Self.repository.path
        let server = try StubServer(configFile: "Stubs/settings.json", options: options)
        try server.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }

        func exchange(_ request: URLRequest) throws -> (HTTPURLResponse, JSONValue) {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: (Data?, URLResponse?, Error?)
            session.dataTask(with: request) { data, response, error in
                result = (data, response, error)
                done.signal()
            }.resume()
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            if let error = result.2 { throw error }
            let response = try XCTUnwrap(result.1 as? HTTPURLResponse)
            return (response, try JSONValue(parsing: [UInt8](result.0 ?? Data())))
        }
        func login(password: String) -> URLRequest {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("oauth/token"))
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                "grant_type=password&username=qa%40example.com&password=\(password)&client_id=ios&client_secret=s3cr3t".utf8)
            return request
        }

        let (ok, token) = try exchange(login(password: "secret"))
        XCTAssertEqual(ok.statusCode, 200)
        XCTAssertEqual(token["scope"], "user")

        let (denied, error) = try exchange(login(password: "wrong"))
        XCTAssertEqual(denied.statusCode, 401)
        XCTAssertEqual(error["error"], "invalid_grant")

        let (list, stories) = try exchange(URLRequest(url: URL(string: "\(server.baseURL)/api/v1/stories?client_id=ios")!))
        XCTAssertEqual(list.statusCode, 200)
        XCTAssertEqual(list.value(forHTTPHeaderField: "Content-Type"), "application/json")
        let all = try XCTUnwrap(stories["stories"]?.arrayValue)
        XCTAssertEqual(all.count, 10)
        for story in all {
            for key in ["id", "title", "url", "comment_count", "vote_count", "created_at", "user_display_name", "badge"] {
                XCTAssertNotNil(story[key], "every story has \(key)")
            }
            let created = try XCTUnwrap(story["created_at"]?.stringValue)
            XCTAssertNotNil(ISO8601DateFormatter().date(from: created), created)
        }

        let (one, story) = try exchange(URLRequest(url: URL(string: "\(server.baseURL)/api/v1/stories/103?client_id=ios")!))
        XCTAssertEqual(one.statusCode, 200)
        XCTAssertEqual(story["story"]?["id"], 103)
        XCTAssertEqual(story["story"], all[2], "a story's own file agrees with the list")

        let (missing, notFound) = try exchange(URLRequest(url: URL(string: "\(server.baseURL)/api/v1/stories/999?client_id=ios")!))
        XCTAssertEqual(missing.statusCode, 404)
        XCTAssertEqual(notFound["error"], "not_found")
        XCTAssertEqual(server.journal.requests(method: "POST", path: "/oauth/token").count, 2)
    }
}

/// Settings entries (`include`, `context`, `file_root`, `env`, `request`, `response`) over HTTP.
final class ConfigSettingsHTTPTests: XCTestCase {
    func testSettingsEntriesOverHTTP() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "settings.json",
            """
            [
              {"include": "plain.json"},
              {"context": "/billing", "include": "billing.json"},
              {"file_root": "fixtures", "include": "rooted.json"},
              {"request": {"headers": {"X-Api-Key": "k"}}, "response": {"headers": {"X-Stub": "guarded"}}, "include": "guarded.json"},
              {"env": "remote", "include": "remote.json"}
            ]
            """)
        try fixture.write("plain.json", #"[{"request": {"uri": "/plain"}, "response": {"text": "plain"}}]"#)
        try fixture.write("billing.json", #"[{"request": {"uri": "/invoices"}, "response": {"text": "invoices"}}]"#)
        try fixture.write("fixtures/rooted.json", #"[{"request": {"uri": "/rooted"}, "response": {"file": "body.txt"}}]"#)
        try fixture.write("fixtures/body.txt", "from the file root")
        try fixture.write("guarded.json", #"[{"request": {"uri": "/guarded"}, "response": {"text": "guarded"}}]"#)
        try fixture.write("remote.json", #"[{"request": {"uri": "/remote"}, "response": {"text": "remote"}}]"#)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        let server = try StubServer(settingsFile: "settings.json", options: options)
        try server.start()
        defer { server.stop() }
        func get(_ target: String, _ headers: String = "") throws -> RawHTTPResponse {
            try RawHTTPClient.exchange(port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
        }
        XCTAssertEqual(try get("/plain").text, "plain")
        XCTAssertEqual(try get("/billing/invoices").text, "invoices")
        XCTAssertEqual(try get("/invoices").status, 400)
        XCTAssertEqual(try get("/rooted").text, "from the file root")
        XCTAssertEqual(try get("/guarded").status, 400)
        let guarded = try get("/guarded", "X-Api-Key: k\r\n")
        XCTAssertEqual(guarded.text, "guarded")
        XCTAssertEqual(guarded.header("X-Stub"), "guarded")
        XCTAssertEqual(try get("/remote").text, "remote", "without -e every entry loads")

        let remoteOnly = try StubServer(settingsFile: "settings.json", environment: "remote", options: options)
        try remoteOnly.start()
        defer { remoteOnly.stop() }
        XCTAssertEqual(try RawHTTPClient.exchange(port: remoteOnly.port, "GET /remote HTTP/1.1\r\nHost: x\r\n\r\n").text, "remote")
        XCTAssertEqual(try RawHTTPClient.exchange(port: remoteOnly.port, "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").status, 400)
    }

    func testSwiftBuiltStubsOverHTTP() throws {
        let server = try StubServer(stubs: [
            StubDefinition(request: .post("/oauth/token", forms: ["password": "secret"]), response: .json(["access_token": "abc"])),
            .catchAll(.text("nothing here", status: 404)),
        ])
        try server.start()
        defer { server.stop() }
        let token = try RawHTTPClient.exchange(
            port: server.port,
            "POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 15\r\n\r\npassword=secret"
        )
        XCTAssertEqual(token.text, #"{"access_token":"abc"}"#)
        XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
        XCTAssertEqual(server.journal.entries.first?.stub, StubReference(file: "stubs", index: 0))
    }
}
