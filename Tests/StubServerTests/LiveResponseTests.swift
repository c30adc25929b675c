import Foundation
import XCTest

@testable import StubServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `sse`, `dribble` and `fault` over real sockets.
final class LiveResponseTests: XCTestCase {
    // MARK: Server-sent events

    func testInlineEventsAreFramedAsTheReferenceOneChunkEachThenTheConnectionCloses() throws {
        let live = try LiveStubs(
            """
            [{"request": {"uri": "/events"}, "response": {"sse": [
              {"event": "tick", "data": "a", "id": "1", "retry": 500, "delay": 30},
              {"data": "plain"},
              {"data": ["line 1", "line 2"], "event": "multi"}
            ]}}]
            """)
        let client = try RawHTTPClient(port: live.server.port)
        try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/event-stream")
        XCTAssertEqual(response.header("Cache-Control"), "no-cache")
        XCTAssertEqual(response.header("X-Accel-Buffering"), "no")
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertNil(response.header("Content-Length"))
        XCTAssertEqual(
            response.chunks.map { String(decoding: $0, as: UTF8.self) },
            [
                "id: 1\nevent: tick\nretry: 500\ndata: a\n\n",
                "data: plain\n\n",
                "event: multi\ndata: line 1\ndata: line 2\n\n",
            ])
        XCTAssertEqual(client.closeKind(timeout: 10), false, "the connection closes after the last event")
        let entry = try XCTUnwrap(live.server.journal.requests(path: "/events").first)
        XCTAssertEqual(entry.status, 200)
        XCTAssertEqual(entry.stub?.index, 0)
    }

    func testObjectFormDelaysEveryEvent() throws {
        let live = try LiveStubs(
            """
            [{"request": {"uri": "/slow"}, "response": {"sse": {"delay": {"duration": 150, "unit": "millisecond"}, "events": [
              {"data": "1"}, {"data": "2"}, {"data": "3"}
            ]}}}]
            """)
        let client = try RawHTTPClient(port: live.server.port)
        let started = Date()
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readHead()
        XCTAssertEqual(try client.readChunk().map { String(decoding: $0, as: UTF8.self) }, "data: 1\n\n")
        XCTAssertEqual(try client.readChunk().map { String(decoding: $0, as: UTF8.self) }, "data: 2\n\n")
        XCTAssertEqual(try client.readChunk().map { String(decoding: $0, as: UTF8.self) }, "data: 3\n\n")
        XCTAssertNil(try client.readChunk())
        // Two waits between three events and one after the last: at least 450 ms in all.
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.44)
    }

    func testFileFormReadsBlocksPerRequest() throws {
        let live = try LiveStubs(
            #"[{"request": {"uri": "/file"}, "response": {"sse": {"file": "events.sse"}, "headers": {"X-Stream": "yes"}}}]"#,
            files: [
                "events.sse": "id: 7\nevent: greeting\ndata: hello\ndata: world\n\n\nretry: 100\ndata: second\ndelay: 20\n"
            ])
        let response = try live.send("GET", "/file")
        XCTAssertEqual(response.header("X-Stream"), "yes")
        XCTAssertEqual(
            response.chunks.map { String(decoding: $0, as: UTF8.self) },
            [
                "id: 7\nevent: greeting\ndata: hello\ndata: world\n\n",
                "retry: 100\ndata: second\n\n",
            ])
        try live.fixture.write("events.sse", "event: changed\n")
        let broken = try live.send("GET", "/file")
        XCTAssertEqual(broken.status, 400)
        XCTAssertTrue(broken.text.contains("an event needs at least one data: line"), broken.text)
    }

    func testHTTP10ClientsGetACloseDelimitedStream() throws {
        let live = try LiveStubs(#"[{"request": {"uri": "/e"}, "response": {"sse": [{"data": "x"}]}}]"#)
        let response = try live.send("GET", "/e", version: "HTTP/1.0")
        XCTAssertEqual(response.text, "data: x\n\n")
        XCTAssertNil(response.header("Transfer-Encoding"))
    }

    func testQuietLoggingStillJournalsStreams() throws {
        // The CLI's -q drops the logger; the journal must still hold streamed exchanges.
        let fixture = try ConfigFixture()
        try fixture.write("s.json", #"[{"request": {"uri": "/e"}, "response": {"sse": [{"data": "x"}]}}]"#)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        let server = try StubServer(configFile: fixture.path("s.json"), options: options)
        try server.start()
        defer { server.stop() }
        _ = try RawHTTPClient.exchange(port: server.port, "GET /e HTTP/1.1\r\nHost: x\r\n\r\n")
        let deadline = Date().addingTimeInterval(10)
        while server.journal.count == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(server.journal.last?.status, 200)
    }

    // MARK: Dribble

    func testDribbleSendsTheBodyInChunksOverTheDurationKeepingContentLength() throws {
        let body = String(repeating: "0123456789", count: 10)
        let live = try LiveStubs(
            #"[{"request": {"uri": "/slow"}, "response": {"text": "\#(body)", "dribble": {"chunks": 4, "duration": 300}}}]"#)
        let client = try RawHTTPClient(port: live.server.port)
        let started = Date()
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(response.header("Content-Length"), "100")
        XCTAssertNil(response.header("Transfer-Encoding"))
        XCTAssertEqual(response.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(response.text, body)
        XCTAssertGreaterThanOrEqual(elapsed, 0.29, "three pauses of 100 ms")
        // Keep-alive survives a dribbled body.
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, body)
    }

    func testDribbleByRateArrivesInPieces() throws {
        let live = try LiveStubs(
            #"[{"request": {"uri": "/rate"}, "response": {"text": "abcdefghijklmnopqrst", "dribble": {"bytes_per_second": 50}}}]"#)
        let client = try RawHTTPClient(port: live.server.port)
        try client.send("GET /rate HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readHead()
        XCTAssertEqual(head.header("Content-Length"), "20")
        // 5 bytes per 100 ms: the first piece comes at once, the rest does not.
        XCTAssertEqual(try client.readBytes(5), Array("abcde".utf8))
        XCTAssertNil(client.closeKind(timeout: 0.02))
        XCTAssertLessThan(client.unread.count, 15)
        XCTAssertEqual(String(decoding: try client.readBytes(15), as: UTF8.self), "fghijklmnopqrst")
    }

    // MARK: Faults

    func testConnectionResetFault() throws {
        let live = try LiveStubs(#"[{"request": {"uri": "/reset"}, "response": {"fault": "connection_reset"}}]"#)
        let client = try RawHTTPClient(port: live.server.port)
        try client.send("GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.closeKind(), true)
        XCTAssertTrue(client.unread.isEmpty)
    }

    func testEmptyResponseFault() throws {
        let live = try LiveStubs(#"[{"request": {"uri": "/empty"}, "response": {"fault": "empty_response", "latency": 50}}]"#)
        let client = try RawHTTPClient(port: live.server.port)
        try client.send("GET /empty HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.closeKind(), false)
        XCTAssertTrue(client.unread.isEmpty)
        let entry = try XCTUnwrap(live.server.journal.requests(path: "/empty").first)
        XCTAssertEqual(entry.status, 0)
        XCTAssertEqual(entry.stub?.index, 0)
    }

    func testMalformedAndRandomDataFaults() throws {
        let live = try LiveStubs(
            """
            [{"request": {"uri": "/malformed"}, "response": {"fault": "malformed_response"}},
             {"request": {"uri": "/random"}, "response": {"fault": "random_data_then_close"}}]
            """)
        let malformed = try RawHTTPClient(port: live.server.port)
        try malformed.send("GET /malformed HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try malformed.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertThrowsError(try malformed.readChunk(), "the chunk must not parse")
        let random = try RawHTTPClient(port: live.server.port)
        try random.send("GET /random HTTP/1.1\r\nHost: x\r\n\r\n")
        let bytes = try random.readUntilClose()
        XCTAssertEqual(bytes.count, 1024)
        // URLSession sees these as failures, not answers.
        let url = live.server.baseURL.appendingPathComponent("random")
        let finished = expectation(description: "request finished")
        nonisolated(unsafe) var failed = false
        URLSession.shared.dataTask(with: url) { _, response, error in
            failed = error != nil || (response as? HTTPURLResponse) == nil
            finished.fulfill()
        }.resume()
        wait(for: [finished], timeout: 30)
        XCTAssertTrue(failed)
    }

    func testFaultInASequenceFailsOnceThenAnswers() throws {
        let live = try LiveStubs(#"[{"request": {"uri": "/flaky"}, "response": {"seq": [{"fault": "connection_reset"}, {"text": "ok"}]}}]"#)
        let first = try RawHTTPClient(port: live.server.port)
        try first.send("GET /flaky HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(first.closeKind(), true)
        XCTAssertEqual(try live.send("GET", "/flaky").text, "ok")
    }

    // MARK: Configuration

    func testMalformedShapesNameFilePathLineAndColumn() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "live.json",
            """
            [
              {"response": {"sse": {"delay": 10}}},
              {"response": {"sse": [{"event": "x"}], "text": "t"}},
              {"response": {"sse": [{"data": "x", "retry": -1, "colour": "red"}]}},
              {"response": {"fault": "conection_reset"}},
              {"response": {"fault": "empty_response", "json": {}}},
              {"response": {"text": "x", "dribble": {"chunks": 0, "duration": 10}}},
              {"response": {"text": "x", "dribble": {"bytes_per_second": 10, "duration": 10}}},
              {"response": {"text": "x", "dribble": {"chunks": 3}, "fault": "empty_response"}}
            ]
            """)
        XCTAssertEqual(
            fixture.diagnostics("live.json").map(\.description),
            [
                #"live.json: [0].response.sse: expected "events" (an array) or "file" (a file of events) (line 2, column 24)"#,
                #"live.json: [1].response.sse: server-sent events are the body; remove "text" (line 3, column 24)"#,
                #"live.json: [1].response.sse[0]: an event needs "data" (line 3, column 25)"#,
                "live.json: [2].response.sse[0].retry: expected a positive number of milliseconds (line 4, column 48)",
                #"live.json: [2].response.sse[0].colour: unknown key; expected one of event, data, id, retry, delay (line 4, column 52)"#,
                #"live.json: [3].response.fault: unknown fault "conection_reset"; did you mean "connection_reset"?; faults: connection_reset, empty_response, malformed_response, random_data_then_close (line 5, column 26)"#,
                "live.json: [4].response.fault: a fault sends no response; remove the body (status, headers and latency may stay) (line 6, column 26)",
                "live.json: [5].response.dribble.chunks: expected at least 1 chunk (line 7, column 52)",
                #"live.json: [6].response.dribble: use either "bytes_per_second" or "chunks" with "duration" (line 8, column 41)"#,
                #"live.json: [7].response: use one of "dribble" and "fault", not several (line 9, column 16)"#,
            ])
    }

    func testValidateAcceptsTheNewKeys() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "ok.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"sse": [{"data": "x", "delay": {"duration": 1, "unit": "second"}}]}},
              {"request": {"uri": "/b"}, "response": {"sse": {"file": "e.sse", "delay": 100}}},
              {"request": {"uri": "/c"}, "response": {"file": "e.sse", "dribble": {"duration": 1000}}},
              {"request": {"uri": "/d"}, "response": {"status": 503, "fault": "random_data_then_close"}},
              {"websocket": {"uri": "/ws", "connected": {"file": "e.sse"}, "sessions": [{"request": "a", "response": {"broadcast": {"content": "b", "group": "g"}, "group": "g"}}]}}
            ]
            """)
        try fixture.write("e.sse", "data: x\n")
        XCTAssertEqual(try fixture.load("ok.json").router.stubCount, 5)
    }
}
