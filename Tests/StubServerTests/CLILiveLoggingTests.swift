import Foundation
import StubServerTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubserver start` logs streamed, upgraded and faulted exchanges like any other; `-q`
/// silences them too.
final class CLILiveLoggingTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        try directory.write(
            "live.json",
            """
            [
              {"request": {"uri": "/events"}, "response": {"sse": [{"data": "a"}, {"data": "b"}]}},
              {"request": {"uri": "/slow"}, "response": {"text": "abcdef", "dribble": {"chunks": 3, "duration": 50}}},
              {"request": {"uri": "/reset"}, "response": {"fault": "connection_reset"}},
              {"websocket": {"uri": "/ws", "connected": "hi"}}
            ]
            """)
    }

    private func exercise(_ port: Int) throws {
        XCTAssertEqual(try RawHTTPClient.exchange(port: port, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n").chunks.count, 2)
        XCTAssertEqual(try RawHTTPClient.exchange(port: port, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n").text, "abcdef")
        let reset = try RawHTTPClient(port: port)
        try reset.send("GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(reset.closeKind(), true)
        let socket = try WebSocketTestClient(port: port, path: "/ws")
        XCTAssertEqual(try socket.readText(), "hi")
    }

    func testLiveExchangesAreLoggedWithStatusStubAndDuration() throws {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "live.json"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        try exercise(port)
        for prefix in [
            "GET /events 200 live.json#0 ", "GET /slow 200 live.json#1 ", "GET /reset 0 live.json#2 ", "GET /ws 101 live.json#3 ",
        ] {
            XCTAssertNotNil(process.waitForLine { $0.hasPrefix(prefix) }, "no line starting \(prefix): \(process.stdout)")
        }
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testQuietSilencesLiveExchangesToo() throws {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "live.json", "-q"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        try exercise(port)
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
        XCTAssertEqual(process.stdout.filter { $0.contains("GET /") }, [])
    }

    /// The log writer batches: 300 requests one after another on one connection reach stdout in
    /// far fewer writes than lines. Before, every line woke the writer thread and was written on
    /// its own (one futex wake, context switch and `write` per request), which cut a pinned
    /// server's throughput from ~60,000 to ~13,000 requests/s when logging (the default).
    func testRequestLinesReachStdoutInBatchesNotOneWritePerRequest() throws {
        try directory.write("text.json", #"[{"request": {"uri": "/t"}, "response": {"text": "ok"}}]"#)
        let process = try StubServerProcess(["start", "-p", "0", "-c", "text.json"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        let readsBefore = process.stdoutReadCount
        let client = try RawHTTPClient(port: port)
        let count = 300
        for _ in 0..<count {
            try client.send("GET /t HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        XCTAssertNotNil(process.waitForLine { _ in process.stdout.filter { $0.hasPrefix("GET /t 200 ") }.count == count })
        let writes = process.stdoutReadCount - readsBefore
        XCTAssertLessThan(writes, count / 3, "\(writes) writes for \(count) request lines")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }
}
