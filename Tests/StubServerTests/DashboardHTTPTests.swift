import Foundation
import XCTest

@testable import StubServer

/// The dashboard under `/__admin/ui` over real HTTP: its page and assets, the live feed of
/// server-sent events, the state it draws, and who may see them.
final class DashboardHTTPTests: XCTestCase {
    private let config = """
        [
          {"description": "octocat", "request": {"method": "GET", "uri": "/users/octocat/repos", "queries": {"type": "owner"}}, "response": {"text": "mine"}},
          {"request": {"method": "GET", "uri": "/users/nobody/repos"}, "response": {"text": "[]"}},
          {"request": {"method": "POST", "uri": "/cart"}, "response": {"text": "ok"}, "scenario": {"name": "checkout", "requires": "Started", "next": "Filled"}}
        ]
        """

    func testThePageAndItsAssetsAreServedFromTheServerWithAStrictPolicy() throws {
        let live = try LiveStubs(config)
        let page = try live.send("GET", "/__admin/ui")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains(#"<script src="/__admin/ui/dashboard.js" defer></script>"#), page.text)
        XCTAssertTrue(page.header("Content-Security-Policy")?.contains("default-src 'none'; script-src 'self'") == true)
        XCTAssertFalse(page.text.contains("http://") || page.text.contains("https://"), "nothing is fetched from elsewhere")
        let script = try live.send("GET", "/__admin/ui/dashboard.js")
        XCTAssertEqual(script.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertTrue(script.text.contains("new EventSource("))
        XCTAssertFalse(script.text.contains("innerHTML"), "request values are set as text, never parsed as HTML")
        XCTAssertEqual(try live.send("GET", "/__admin/ui/dashboard.css").header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertEqual(try live.send("GET", "/__admin/ui/nothing.js").status, 404)
        XCTAssertNil(live.server.journal.last, "dashboard calls are admin calls: not journaled")
    }

    /// The feed replays what happened before it was opened, then pushes each request as it is
    /// answered — the miss with its three near misses — with no request from the page between.
    func testTheFeedPushesEachRequestAsItIsAnswered() throws {
        let live = try LiveStubs(config)
        _ = try live.send("GET", "/users/nobody/repos")
        let feed = try RawHTTPClient(port: live.server.port, timeout: 5)
        try feed.send("GET /__admin/ui/events HTTP/1.1\r\nHost: 127.0.0.1:\(live.server.port)\r\nAccept: text/event-stream\r\n\r\n")
        let head = try feed.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream; charset=utf-8")
        var received = ""
        func read(until needle: String) throws {
            let deadline = Date().addingTimeInterval(5)
            while !received.contains(needle), Date() < deadline, let chunk = try feed.readChunk() {
                received += String(decoding: chunk, as: UTF8.self)
            }
        }
        try read(until: "/users/nobody/repos")
        XCTAssertTrue(received.contains("event: request\nid: 1\ndata: {"), received)

        _ = try live.send("GET", "/users/octocat/repos")
        try read(until: #""uri":"/users/octocat/repos""#)
        let line = try XCTUnwrap(received.split(separator: "\n").last { $0.hasPrefix("data: ") && $0.contains("octocat") })
        let event = try JSONValue(parsing: Array(line.dropFirst("data: ".count).utf8))
        XCTAssertEqual(event["status"], 400)
        XCTAssertEqual(
            event["nearMisses"]?.arrayValue?.map { $0["stub"]?.stringValue ?? "" }, ["stubs.json#0", "stubs.json#1", "stubs.json#2"])

        try live.server.setScenario("checkout", state: "Filled")
        try read(until: "event: scenarios")
        XCTAssertTrue(received.contains("event: scenarios"), received)
    }

    func testTheStateListsStubsByFileWithHitsScenariosAndABrokenReload() throws {
        let live = try LiveStubs(config)
        _ = try live.send("GET", "/users/nobody/repos")
        _ = try live.send("GET", "/users/nobody/repos")
        _ = try live.send("POST", "/cart")
        var state = try JSONValue(parsing: try live.send("GET", "/__admin/ui/state").body)
        let file = try XCTUnwrap(state["files"]?.arrayValue?.first)
        XCTAssertEqual(file["file"], "stubs.json")
        XCTAssertEqual(file["stubs"]?.arrayValue?.map { $0["hits"]?.intValue ?? -1 }, [0, 2, 1])
        XCTAssertEqual(file["stubs"]?.arrayValue?.first?["description"], "octocat")
        XCTAssertEqual(file["stubs"]?.arrayValue?.first?["request"]?["uri"], "/users/octocat/repos")
        XCTAssertEqual(state["scenarios"], [["name": "checkout", "state": "Filled"]])
        XCTAssertEqual(state["reload"], .null)

        _ = try live.fixture.write("stubs.json", #"[{"request": {"metod": "GET"}, "response": {"text": "x"}}]"#)
        XCTAssertThrowsError(try live.server.reload())
        state = try JSONValue(parsing: try live.send("GET", "/__admin/ui/state").body)
        XCTAssertEqual(state["reload"]?["ok"], false)
        XCTAssertTrue(
            state["reload"]?["problems"]?.arrayValue?.first?.stringValue?.contains(".request.metod: unknown key") == true, "\(state)")
        XCTAssertEqual(try live.send("GET", "/users/nobody/repos").status, 200, "the last good configuration keeps serving")

        _ = try live.fixture.write("stubs.json", config)
        XCTAssertEqual(try live.send("POST", "/__admin/reset").status, 204)
        XCTAssertEqual(try JSONValue(parsing: try live.send("GET", "/__admin/ui/state").body)["reload"]?["ok"], true)
        state = try JSONValue(parsing: try live.send("GET", "/__admin/ui/state").body)
        XCTAssertEqual(state["files"]?.arrayValue?.first?["stubs"]?.arrayValue?.map { $0["hits"]?.intValue ?? -1 }, [0, 0, 0])
    }

    /// With a token the page loads (it holds no data); its feed and state need the token, the
    /// feed also as `?token=` (EventSource cannot send headers).
    func testWithATokenOnlyThePageLoadsWithoutIt() throws {
        let fixture = try ConfigFixture()
        _ = try fixture.write("stubs.json", config)
        var options = StubServer.Options()
        options.admin = .token("s3cret")
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        func get(_ target: String, _ headers: String = "") throws -> RawHTTPResponse {
            let client = try RawHTTPClient(port: server.port, timeout: 5)
            try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
            return try client.readHead()
        }
        XCTAssertEqual(try get("/__admin/ui").status, 200)
        XCTAssertEqual(try get("/__admin/ui/dashboard.js").status, 200)
        XCTAssertEqual(try get("/__admin/ui/state").status, 401)
        XCTAssertEqual(try get("/__admin/ui/state?token=s3cret").status, 401, "only the feed takes the token in its URL")
        XCTAssertEqual(try get("/__admin/ui/state", "Authorization: Bearer s3cret\r\n").status, 200)
        XCTAssertEqual(try get("/__admin/ui/events").status, 401)
        XCTAssertEqual(try get("/__admin/ui/events?token=wrong").status, 401)
        XCTAssertEqual(try get("/__admin/ui/events?token=s3cret").status, 200)
    }

    func testBoundWiderWithoutATokenThereIsNoDashboard() throws {
        var options = StubServer.Options(host: "0.0.0.0")
        options.eventLoopCount = 1
        let server = try StubServer(stubs: [StubDefinition(request: .get("/x"), response: .text("x"))], options: options)
        try server.start()
        defer { server.stop() }
        let page = try RawHTTPClient.get(port: server.port, "/__admin/ui")
        XCTAssertEqual(page.status, 400, "routed like any path: a near miss, not the dashboard")
    }
}
