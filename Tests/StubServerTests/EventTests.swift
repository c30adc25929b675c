import Foundation
import XCTest

@testable import StubServer

/// `on.complete` events against an embedded sink.
final class EventTests: XCTestCase {
    private func sink(latency: Duration = .zero) throws -> StubServer {
        let server = try StubServer(stubs: [StubDefinition(request: nil, response: ResponseDefinition.text("ok").latency(latency))])
        try server.start()
        return server
    }

    func testSynchronousPostReachesTheSinkBeforeTheClientHasItsAnswer() throws {
        let sink = try sink(latency: .milliseconds(100))
        defer { sink.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/order"}, "response": {"text": "ordered"},
              "on": {"complete": {"post": {"url": {"template": "http://127.0.0.1:\#(sink.port)/hook/${req.queries['id']}"}, "content": {"template": "order ${req.content}"}, "headers": {"X-Event": "complete"}}}}}]
            """#)
        let response = try live.send("POST", "/order?id=7", body: "book")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "ordered")
        // Synchronous: the sink answered (and journaled) before the client got its answer.
        let event = try XCTUnwrap(sink.journal.last)
        XCTAssertEqual(event.method, "POST")
        XCTAssertEqual(event.request.target, "/hook/7")
        XCTAssertEqual(String(decoding: event.request.body, as: UTF8.self), "order book")
        XCTAssertEqual(event.request.headers["X-Event"], "complete")
        XCTAssertGreaterThanOrEqual(live.server.journal.last?.duration ?? .zero, .milliseconds(100))
    }

    func testGetAndJSONEvents() throws {
        let sink = try sink()
        defer { sink.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:\#(sink.port)/seen?x=1"}}}},
             {"request": {"uri": "/b"}, "response": {"text": "b"}, "on": {"complete": {"post": {"url": "http://127.0.0.1:\#(sink.port)/json", "json": {"event": "b"}}}}}]
            """#)
        _ = try live.send("GET", "/a")
        XCTAssertEqual(sink.journal.last?.request.target, "/seen?x=1")
        XCTAssertEqual(sink.journal.last?.method, "GET")
        _ = try live.send("GET", "/b")
        XCTAssertEqual(sink.journal.last.map { String(decoding: $0.request.body, as: UTF8.self) }, #"{"event":"b"}"#)
        XCTAssertEqual(sink.journal.last?.request.headers["Content-Type"], "application/json; charset=utf-8")
    }

    func testAsyncEventsDoNotHoldTheAnswer() throws {
        let sink = try sink(latency: .seconds(2))
        defer { sink.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/now"}, "response": {"text": "now"}, "on": {"complete": {"async": "true", "get": {"url": "http://127.0.0.1:\#(sink.port)/now"}}}},
             {"request": {"uri": "/later"}, "response": {"text": "later"}, "on": {"complete": {"async": true, "latency": 200, "get": {"url": "http://127.0.0.1:\#(sink.port)/later"}}}}]
            """#)
        let start = Date()
        _ = try live.send("GET", "/now")
        _ = try live.send("GET", "/later")
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.5, "async events never delay the answer")
        let deadline = Date().addingTimeInterval(20)
        while sink.journal.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(Set(sink.journal.entries.map(\.path)), ["/now", "/later"])
    }

    func testNeverFiredWhenTheSessionDoesNotMatch() throws {
        let sink = try sink()
        defer { sink.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/a", "method": "post"}, "response": {"text": "a"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:\#(sink.port)/a"}}}}]
            """#)
        XCTAssertEqual(try live.send("GET", "/a").status, 400)
        XCTAssertEqual(try live.send("POST", "/b").status, 400)
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(sink.journal.count, 0)
    }

    func testAnUnreachableSinkNeverFailsTheAnswer() throws {
        let port = try ScriptedTCPServer.closedPort()
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/a"}, "response": {"text": "still fine"}, "on": {"complete": {"post": {"url": "http://127.0.0.1:\#(port)/x", "content": "c"}}}}]
            """#)
        let response = try live.send("GET", "/a")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "still fine")
    }

    func testASilentSinkHoldsASynchronousAnswerOnlyForTheEventTimeout() throws {
        let silent = try ScriptedTCPServer()
        defer { silent.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/a"}, "response": {"text": "late but fine"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:\#(silent.port)/x"}}}}]
            """#)
        let start = Date()
        let response = try live.send("GET", "/a")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "late but fine")
        XCTAssertLessThan(Date().timeIntervalSince(start), 15, "bounded by the event's 5 s read timeout, not the client's 30 s")
    }

    func testEventAfterAProxiedAnswer() throws {
        let sink = try sink()
        defer { sink.stop() }
        let backend = try StubServer(stubs: [StubDefinition(request: .get("/up"), response: .text("upstream"))])
        try backend.start()
        defer { backend.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/up"}, "response": {"proxy": "http://127.0.0.1:\#(backend.port)/up"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:\#(sink.port)/after-proxy"}}}}]
            """#)
        XCTAssertEqual(String(decoding: try live.send("GET", "/up").body, as: UTF8.self), "upstream")
        XCTAssertEqual(sink.journal.last?.path, "/after-proxy")
    }

    func testLoadTimeErrors() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "a.json",
            #"[{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"complete": {"latency": 100, "get": {"url": "http://x.test/"}}}}]"#
        )
        XCTAssertTrue(
            fixture.diagnostics("a.json").contains { $0.path == "[0].on.complete.latency" && $0.message.contains("async") },
            "\(fixture.diagnostics("a.json"))")
        try fixture.write(
            "b.json",
            #"[{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"complete": {"get": {"url": "http://x.test/", "content": "no body on get"}}}}]"#
        )
        XCTAssertTrue(
            fixture.diagnostics("b.json").contains { $0.path == "[0].on.complete.get.content" }, "\(fixture.diagnostics("b.json"))")
        try fixture.write("c.json", #"[{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"complete": {}}}]"#)
        XCTAssertTrue(
            fixture.diagnostics("c.json").contains { $0.path == "[0].on.complete" && $0.message.contains("\"get\" or \"post\"") },
            "\(fixture.diagnostics("c.json"))")
        try fixture.write("d.json", #"[{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"finish": {}}}]"#)
        XCTAssertTrue(fixture.diagnostics("d.json").contains { $0.path == "[0].on.finish" }, "\(fixture.diagnostics("d.json"))")
        try fixture.write(
            "e.json",
            #"[{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"complete": {"post": {"url": "http://x.test/", "content": "a", "json": {}}}}}]"#
        )
        XCTAssertTrue(
            fixture.diagnostics("e.json").contains { $0.path == "[0].on.complete.post" && $0.message.contains("not both") },
            "\(fixture.diagnostics("e.json"))")
    }
}
