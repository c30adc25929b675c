import Foundation
import XCTest

@testable import StubServer

/// Stateful scenarios: `"scenario": {"name", "requires", "next"}`, starting in `Started`.
final class ScenarioTests: XCTestCase {
    /// The docs' example: an upvote changes what the next `GET /stories` returns.
    private let upvote = """
        [
          {"request": {"method": "GET", "uri": "/stories"}, "response": {"json": {"votes": 0}},
           "scenario": {"name": "voting", "requires": "Started"}},
          {"request": {"method": "POST", "uri": "/stories/1/upvote"}, "response": {"status": 201},
           "scenario": {"name": "voting", "requires": "Started", "next": "Upvoted"}},
          {"request": {"method": "GET", "uri": "/stories"}, "response": {"json": {"votes": 1}},
           "scenario": {"name": "voting", "requires": "Upvoted"}},
          {"request": {"method": "DELETE", "uri": "/stories/1/upvote"}, "response": {"status": 204},
           "scenario": {"name": "voting", "requires": "Upvoted", "next": "Started"}}
        ]
        """

    func testAFullStateWalkOverHTTP() throws {
        let live = try LiveStubs(upvote)
        XCTAssertEqual(live.server.scenarios(), [ScenarioState(name: "voting", state: "Started")])
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":0}"#)
        let early = try live.send("DELETE", "/stories/1/upvote")
        XCTAssertEqual(early.status, 400, "only answers once upvoted")
        XCTAssertTrue(early.text.contains(#"✗ scenario "voting": expected state "Upvoted", got state "Started""#), early.text)
        XCTAssertEqual(try live.send("POST", "/stories/1/upvote").status, 201)
        XCTAssertEqual(live.server.scenarios(), [ScenarioState(name: "voting", state: "Upvoted")])
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":1}"#)
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":1}"#, "a stub without next leaves the state")
        XCTAssertEqual(try live.send("POST", "/stories/1/upvote").status, 400, "upvoting twice is not stubbed")
        XCTAssertEqual(try live.send("DELETE", "/stories/1/upvote").status, 204)
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":0}"#, "back to the start")
        try live.server.setScenario("voting", state: "Upvoted")
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":1}"#)
        live.server.resetScenarios()
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":0}"#)
        XCTAssertThrowsError(try live.server.setScenario("nope", state: "X")) { error in
            XCTAssertEqual(error as? StubServerAdminError, .unknownScenario("nope"))
        }
    }

    func testHotReloadKeepsTheStatesOfScenariosThatStillExist() throws {
        let live = try LiveStubs(upvote)
        XCTAssertEqual(try live.send("POST", "/stories/1/upvote").status, 201)
        // Same scenario, a changed body, plus a new scenario: the state carries over.
        try live.fixture.write(
            "stubs.json",
            upvote.replacingOccurrences(of: #""votes": 1"#, with: #""votes": 100"#)
                .replacingOccurrences(
                    of: "[\n",
                    with: #"[{"request": {"uri": "/other"}, "response": {"text": "o"}, "scenario": {"name": "other", "next": "Seen"}},"#
                        + "\n"))
        try live.server.reload()
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":100}"#)
        XCTAssertEqual(live.server.scenarios().map(\.name), ["other", "voting"])
        // The scenario disappears, then comes back: it starts over.
        try live.fixture.write("stubs.json", #"[{"request": {"uri": "/x"}, "response": {"text": "x"}}]"#)
        try live.server.reload()
        XCTAssertEqual(live.server.scenarios(), [])
        try live.fixture.write("stubs.json", upvote)
        try live.server.reload()
        XCTAssertEqual(try live.send("GET", "/stories").text, #"{"votes":0}"#)
    }

    func testAddedStubsShareTheScenarioStatesAndSwiftBuiltStubsTakePart() throws {
        let server = try StubServer(stubs: [
            StubDefinition(request: .get("/cart"), response: .text("empty")).inScenario("cart", requires: StubScenario.started),
            StubDefinition(request: .get("/cart"), response: .text("full")).inScenario("cart", requires: "HasItem"),
        ])
        try server.start()
        defer { server.stop() }
        try server.addStub(StubDefinition(request: .post("/cart"), response: .status(201)).inScenario("cart", next: "HasItem"))
        func send(_ method: String, _ path: String) throws -> RawHTTPResponse {
            try RawHTTPClient.exchange(
                port: server.port, "\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
        XCTAssertEqual(try send("GET", "/cart").text, "empty")
        XCTAssertEqual(try send("POST", "/cart").status, 201)
        XCTAssertEqual(try send("GET", "/cart").text, "full")
        try server.reset()
        XCTAssertEqual(try send("GET", "/cart").text, "empty")
    }

    func testBadScenarioObjectsNameTheirPath() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "s.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"text": "a"}, "scenario": {"requires": "Started"}},
              {"request": {"uri": "/b"}, "response": {"text": "b"}, "scenario": {"name": "x"}},
              {"request": {"uri": "/c"}, "response": {"text": "c"}, "scenario": {"name": "x", "nxt": "y"}}
            ]
            """)
        let messages = fixture.diagnostics("s.json").map(\.description)
        XCTAssertTrue(messages.contains { $0.hasPrefix(#"s.json: [0].scenario: a scenario needs "name""#) }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix(#"s.json: [1].scenario: a scenario needs "requires""#) }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix(#"s.json: [2].scenario.nxt: unknown key; did you mean "next"?"#) }, "\(messages)")
    }
}
