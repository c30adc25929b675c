import Foundation
import StubServerTestSupport
import XCTest

@testable import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A hostile web page can make the browser send requests to 127.0.0.1; none of them may drive
/// the admin API. Each request here is what a browser sends, as raw HTTP.
final class AdminBrowserSafetyTests: XCTestCase {
    private let config = #"[{"request": {"uri": "/hello"}, "response": {"text": "hi"}}]"#
    private let mountEverything = #"{"mount": {"dir": "/", "uri": "/mnt", "cors": true}}"#
    private let harmless = #"{"request": {"uri": "/added"}, "response": {"text": "added"}}"#

    private func send(
        _ live: LiveStubs, _ method: String, _ target: String, host: String? = nil, headers: [(String, String)] = [], body: String = ""
    ) throws -> RawHTTPResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(live.server.port)")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let client = try RawHTTPClient(port: live.server.port)
        try client.send(Array(head.utf8) + Array(body.utf8))
        return try client.readResponse()
    }

    /// The attack of issue 21: a "simple" request (no preflight) mounting `/` with CORS on.
    func testASimpleCrossSitePostFromAPageIsRefused() throws {
        let live = try LiveStubs(config)
        let attack = try send(
            live, "POST", "/__admin/stubs",
            headers: [
                ("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors"),
                ("Content-Type", "text/plain;charset=UTF-8"),
            ], body: mountEverything)
        XCTAssertEqual(attack.status, 403, attack.text)
        XCTAssertTrue(attack.text.contains("other origins"), attack.text)
        XCTAssertEqual(live.server.stubCount, 1, "nothing was added")
        let read = try send(live, "GET", "/mnt/etc/passwd")
        XCTAssertNotEqual(read.status, 200, "no mount answers (unmatched is moco's 400)")
        XCTAssertFalse(read.text.contains("root:"), read.text)
    }

    func testAPlainTextBodyIsRefusedEvenWithoutOrigin() throws {
        let live = try LiveStubs(config)
        let textPlain = try send(live, "POST", "/__admin/stubs", headers: [("Content-Type", "text/plain")], body: harmless)
        XCTAssertEqual(textPlain.status, 415, textPlain.text)
        XCTAssertTrue(textPlain.text.contains("application/json"), textPlain.text)
        let none = try send(live, "POST", "/__admin/stubs", body: harmless)
        XCTAssertEqual(none.status, 415, none.text)
        let form = try send(live, "POST", "/__admin/reset", headers: [("Content-Type", "application/x-www-form-urlencoded")])
        XCTAssertEqual(form.status, 415, form.text)
        XCTAssertEqual(live.server.stubCount, 1)
    }

    func testADNSRebindingHostIsRefused() throws {
        let live = try LiveStubs(config)
        let port = live.server.port
        for host in ["evil.example:\(port)", "evil.example", "localhost.evil.example:\(port)", "a, b"] {
            let rebound = try send(live, "GET", "/__admin/requests", host: host, headers: [("Sec-Fetch-Site", "same-origin")])
            // `a, b` may already be a 400 from the parser; never a 200.
            XCTAssertTrue(rebound.status == 403 || (host == "a, b" && rebound.status == 400), "\(host): \(rebound.status) \(rebound.text)")
        }
        let post = try send(
            live, "POST", "/__admin/stubs", host: "evil.example:\(port)",
            headers: [
                ("Origin", "http://evil.example:\(port)"), ("Content-Type", "application/json"),
            ], body: mountEverything)
        XCTAssertEqual(post.status, 403, post.text)
        for host in ["localhost:\(port)", "LOCALHOST", "127.0.0.1:\(port)", "[::1]:\(port)", "10.1.2.3"] {
            XCTAssertEqual(try send(live, "GET", "/__admin/health", host: host).status, 200, host)
        }
        // Stub routes answer whatever the Host (documented: clients use many names).
        XCTAssertEqual(try send(live, "GET", "/hello", host: "evil.example:\(port)").text, "hi")
    }

    func testAllowedHostNamesReachTheAdminAPI() throws {
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", config)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 1
        options.allowedHosts = ["stubs.test"]
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        func health(_ host: String) throws -> Int {
            try RawHTTPClient.exchange(port: server.port, "GET /__admin/health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                .status
        }
        XCTAssertEqual(try health("stubs.test:\(server.port)"), 200)
        XCTAssertEqual(try health("Stubs.Test."), 200)
        XCTAssertEqual(try health("other.test"), 403)
    }

    func testTheCommandTakesAllowedHostNames() throws {
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", config)
        let process = try StubServerProcess(
            ["start", "-p", "0", "-q", "-c", "stubs.json", "--allowed-host", "stubs.test, api.test"],
            workingDirectory: URL(fileURLWithPath: fixture.root))
        defer { process.send(signal: SIGTERM); _ = process.waitForExit() }
        let port = try process.waitForPort()
        func health(_ host: String) throws -> Int {
            try RawHTTPClient.exchange(port: port, "GET /__admin/health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n").status
        }
        XCTAssertEqual(try health("api.test:\(port)"), 200)
        XCTAssertEqual(try health("evil.example:\(port)"), 403)
        let bad = try StubServerProcess.run(
            ["start", "-c", "stubs.json", "--allowed-host", "a.test:80"], workingDirectory: URL(fileURLWithPath: fixture.root))
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.joined().contains("--allowed-host"), bad.stderr.joined())
    }

    func testCrossSiteFetchMetadataIsRefused() throws {
        let live = try LiveStubs(config)
        for site in ["cross-site", "same-site"] {
            let read = try send(live, "GET", "/__admin/requests", headers: [("Sec-Fetch-Site", site)])
            XCTAssertEqual(read.status, 403, "\(site): \(read.text)")
        }
        let otherPort = try send(
            live, "POST", "/__admin/reset", headers: [("Origin", "http://127.0.0.1:3000"), ("Content-Type", "application/json")])
        XCTAssertEqual(otherPort.status, 403, otherPort.text)
        let null = try send(live, "POST", "/__admin/reset", headers: [("Origin", "null")])
        XCTAssertEqual(null.status, 403, null.text)
    }

    /// The server's own pages (a dashboard under /__admin/) and tools keep working.
    func testSameOriginPagesAndToolsAreServed() throws {
        let live = try LiveStubs(config)
        let port = live.server.port
        let page = try send(
            live, "POST", "/__admin/stubs", host: "localhost:\(port)",
            headers: [
                ("Origin", "http://localhost:\(port)"), ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "cors"),
                ("Content-Type", "application/json"),
            ], body: harmless)
        XCTAssertEqual(page.status, 201, page.text)
        let sse = try send(live, "GET", "/__admin/requests", headers: [("Sec-Fetch-Site", "same-origin"), ("Accept", "text/event-stream")])
        XCTAssertEqual(sse.status, 200, sse.text)
        let tool = try send(
            live, "POST", "/__admin/requests/count", headers: [("Content-Type", "application/json; charset=utf-8")], body: #"{"uri": "/x"}"#
        )
        XCTAssertEqual(tool.status, 200, tool.text)
        XCTAssertEqual(try send(live, "POST", "/__admin/reset").status, 204, "no body, no content type: a tool")
        XCTAssertEqual(
            try send(live, "GET", "/__admin/health", headers: [("Sec-Fetch-Site", "none")]).status, 200, "typed into the address bar")
    }

    func testHostParsing() {
        let guardian = AdminRequestGuard(boundHost: "127.0.0.1", allowedHosts: [], checksHost: true)
        XCTAssertTrue(guardian.isAllowed(host: "[::1]"))
        XCTAssertFalse(guardian.isAllowed(host: "[::1"))
        XCTAssertFalse(guardian.isAllowed(host: "localhost:x"))
        XCTAssertFalse(guardian.isAllowed(host: ""))
        XCTAssertTrue(AdminRequestGuard.isJSON("Application/JSON ; charset=utf-8"))
        XCTAssertFalse(AdminRequestGuard.isJSON("application/json-patch+json"))
    }
}
