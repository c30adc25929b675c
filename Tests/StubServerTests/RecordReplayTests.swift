import Foundation
import XCTest

@testable import StubServer

/// `record` and `replay` over real HTTP.
final class RecordReplayTests: XCTestCase {
    private func text(_ response: RawHTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func testRecordsARequestAndReplaysItsContentByDefault() throws {
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/push", "method": "post"}, "response": {"record": "push"}},
             {"request": {"uri": "/push", "method": "get"}, "response": {"replay": "push"}}]
            """#)
        let empty = try live.send("GET", "/push")
        XCTAssertEqual(empty.status, 400)
        XCTAssertTrue(text(empty).contains("nothing recorded"), text(empty))
        let recorded = try live.send("POST", "/push", body: "first")
        XCTAssertEqual(recorded.status, 200)
        XCTAssertEqual(recorded.body, [])
        XCTAssertEqual(recorded.header("Content-Type"), "text/plain; charset=utf-8")
        _ = try live.send("POST", "/push", body: "second")
        let replayed = try live.send("GET", "/push")
        XCTAssertEqual(replayed.status, 200)
        XCTAssertEqual(text(replayed), "second", "the last recording wins")
    }

    func testGroupsAndTemplateIdentifiersKeepRecordingsApart() throws {
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/record"}, "response": {"record": {"group": "devices", "identifier": {"template": "${req.queries['id']}"}}}},
             {"request": {"uri": "/replay"}, "response": {"replay": {"group": "devices", "identifier": {"template": "${req.queries['id']}"}}}},
             {"request": {"uri": "/other"}, "response": {"replay": {"group": "other", "identifier": {"template": "${req.queries['id']}"}}}}]
            """#)
        _ = try live.send("POST", "/record?id=a", body: "alpha")
        _ = try live.send("POST", "/record?id=b", body: "beta")
        XCTAssertEqual(text(try live.send("GET", "/replay?id=a")), "alpha")
        XCTAssertEqual(text(try live.send("GET", "/replay?id=b")), "beta")
        XCTAssertEqual(try live.send("GET", "/replay?id=c").status, 400)
        XCTAssertEqual(try live.send("GET", "/other?id=a").status, 400, "another group")
    }

    func testModifierAsTemplateAndAsResponseReadTheRecordedRequest() throws {
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/record"}, "response": {"record": {"group": "g"}}},
             {"request": {"uri": "/t"}, "response": {"replay": {"group": "g", "modifier": "got ${req.queries['x']}: ${req.content}"}}},
             {"request": {"uri": "/r"}, "response": {"replay": {"group": "g", "modifier": {"json": {"ok": true}, "status": 202, "headers": {"X-Recorded": {"template": "${req.headers['X-Id']}"}}}}}}]
            """#)
        _ = try live.send("POST", "/record?x=1", headers: [("X-Id", "id-7")], body: "hello")
        XCTAssertEqual(text(try live.send("GET", "/t?x=2")), "got 1: hello")
        let response = try live.send("GET", "/r")
        XCTAssertEqual(response.status, 202)
        XCTAssertEqual(text(response), #"{"ok":true}"#)
        XCTAssertEqual(response.header("X-Recorded"), "id-7")
    }

    func testTapeSurvivesARestart() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json",
            #"""
            [{"request": {"uri": "/record"}, "response": {"record": {"group": "g", "identifier": "one", "tape": "tape.json"}}},
             {"request": {"uri": "/replay"}, "response": {"replay": {"group": "g", "identifier": "one", "tape": "tape.json"}}}]
            """#)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        do {
            let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
            try server.start()
            let response = try RawHTTPClient.exchange(
                port: server.port, "POST /record HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\ntaped")
            XCTAssertEqual(response.status, 200)
            (server.routesForTesting.routing as? Router)?.runtime.waitForWrites()
            server.stop()
        }
        let tape = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.path("tape.json")))) as? [[String: Any]])
        XCTAssertEqual(tape.count, 1)
        let restarted = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try restarted.start()
        defer { restarted.stop() }
        let replayed = try RawHTTPClient.exchange(port: restarted.port, "GET /replay HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(replayed.status, 200)
        XCTAssertEqual(String(decoding: replayed.body, as: UTF8.self), "taped")
    }

    func testJournalRecordsReplayedExchanges() throws {
        let live = try LiveStubs(
            #"[{"request": {"uri": "/rec"}, "response": {"record": "k"}}, {"request": {"uri": "/rep"}, "response": {"replay": "k"}}]"#)
        _ = try live.send("POST", "/rec", body: "z")
        _ = try live.send("GET", "/rep")
        let entries = live.server.journal.entries
        XCTAssertEqual(entries.map(\.status), [200, 200])
        XCTAssertEqual(entries.map { $0.stub?.index }, [0, 1])
    }

    func testLoadTimeErrors() throws {
        let fixture = try ConfigFixture()
        try fixture.write("a.json", #"[{"request": {"uri": "/a"}, "response": {"record": {"grup": "g"}}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("a.json").contains { $0.path == "[0].response.record.grup" && $0.message.contains("group") },
            "\(fixture.diagnostics("a.json"))")
        try fixture.write("b.json", #"[{"request": {"uri": "/a"}, "response": {"replay": {"group": "g", "modifier": 3}}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("b.json").contains { $0.path == "[0].response.replay.modifier" }, "\(fixture.diagnostics("b.json"))")
        try fixture.write("c.json", #"[{"request": {"uri": "/a"}, "response": {"record": "g", "text": "x"}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("c.json").contains { $0.path == "[0].response" && $0.message.contains("\"record\" produces the body") },
            "\(fixture.diagnostics("c.json"))")
        try fixture.write(
            "d.json", #"[{"request": {"uri": "/a"}, "response": {"replay": {"group": "g", "identifier": {"template": "${req.queries["}}}}]"#
        )
        XCTAssertTrue(
            fixture.diagnostics("d.json").contains { $0.path.hasPrefix("[0].response.replay.identifier") && $0.position != nil },
            "\(fixture.diagnostics("d.json"))")
    }
}

final class RecordingBoundsTests: XCTestCase {
    func testAGroupKeepsABoundedNumberOfRecordings() {
        let store = RecordingStore()
        for index in 0...RecordingStore.maxPerGroup {
            store.record(HTTPRequest(method: "POST", target: "/r"), group: "g", identifier: "id\(index)", tape: nil)
        }
        let kept = (0...RecordingStore.maxPerGroup).filter { store.recorded(group: "g", identifier: "id\($0)", tape: nil) != nil }.count
        XCTAssertEqual(kept, RecordingStore.maxPerGroup)
        XCTAssertNotNil(store.recorded(group: "g", identifier: "id\(RecordingStore.maxPerGroup)", tape: nil), "the newest is kept")
    }
}
