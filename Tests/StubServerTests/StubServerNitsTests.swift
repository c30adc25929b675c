import Foundation
import XCTest

@testable import StubServer

/// Small promises of the stub server from the second attack run (issue 21): an upstream's
/// impossible status, slow dribble rates, and temporary files a killed run left behind.
final class StubServerNitsTests: XCTestCase {
    /// A status outside 100–599 is not a status: 502, as for any malformed upstream answer.
    /// Before, `999` was passed on to the client.
    func testUpstreamStatusOutsideTheValidRangeIs502() throws {
        let upstream = try ScriptedTCPServer { _ in Array("HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nhi".utf8) }
        defer { upstream.stop() }
        let live = try LiveStubs(#"[{"request": {"uri": "/odd"}, "response": {"proxy": "http://127.0.0.1:\#(upstream.port)/odd"}}]"#)
        let response = try live.send("GET", "/odd")
        XCTAssertEqual(response.status, 502, String(decoding: response.body, as: UTF8.self))
    }

    /// Many synchronous events behind one silent sink are each held at most the event timeout
    /// (5 s), counted from when the event fired. Before, the calls queued for the sink's 32
    /// connections and the last of 96 answered after three rounds of 5 s. 300 clients, as the
    /// issue's attack: the test process holds each client's socket and the server's end
    /// (in process), about 650 descriptors with the sink's, above macOS's default soft limit
    /// of 256, so the soft limit is raised first.
    func testSynchronousEventsBehindOneSilentSinkAreHeldOnlyForTheEventTimeout() throws {
        let clientCount = 300
        let limit = DescriptorLimit.raise() ?? 0
        try XCTSkipIf(limit < UInt64(2 * clientCount + 128), "the open-file limit \(limit) cannot be raised to hold \(clientCount) clients")
        let silent = try ScriptedTCPServer(backlog: 512)
        defer { silent.stop() }
        let live = try LiveStubs(
            #"""
            [{"request": {"uri": "/a"}, "response": {"text": "answered"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:\#(silent.port)/x"}}}}]
            """#)
        let clients = try (0..<clientCount).map { _ in try RawHTTPClient(port: live.server.port, timeout: 30) }
        let start = Date()
        for client in clients { try client.send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        for client in clients { XCTAssertEqual(String(decoding: try client.readResponse().body, as: UTF8.self), "answered") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 12, "every answer within the 5 s event timeout (plus slack), not rounds of it")
    }

    /// `bytes_per_second` below 10 is honoured: at 2 B/s the second byte comes half a second
    /// after the first. Before, every rate under 10 ran at 10 B/s.
    func testDribbleBelowTenBytesPerSecondIsHonoured() throws {
        let live = try LiveStubs(#"[{"request": {"uri": "/slow"}, "response": {"text": "abcd", "dribble": {"bytes_per_second": 2}}}]"#)
        let client = try RawHTTPClient(port: live.server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readHead().header("Content-Length"), "4")
        XCTAssertEqual(try client.readBytes(1), Array("a".utf8))
        XCTAssertNil(client.closeKind(timeout: 0.3))
        XCTAssertEqual(client.unread.count, 0, "nothing more within 0.3 s at 2 bytes per second")
        XCTAssertEqual(String(decoding: try client.readBytes(3), as: UTF8.self), "bcd")
    }

    /// A tape's temporary file from a run killed mid-write is removed when the tape is loaded;
    /// one a running process owns is kept. Before, they piled up next to the tape.
    func testOrphanedTemporaryFilesOfATapeAreRemovedAtStart() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json", #"[{"request": {"uri": "/r"}, "response": {"record": {"group": "g", "identifier": "one", "tape": "tape.json"}}}]"#
        )
        var dead: Int32 = 4_000_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        let orphan = fixture.path(".tape.json.\(dead).123.tmp")
        let live = fixture.path(".tape.json.\(getpid()).456.tmp")
        let unrelated = fixture.path(".other.json.\(dead).789.tmp")
        for path in [orphan, live, unrelated] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{".utf8))) }
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan), "a dead writer's temporary file is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a running process's temporary file is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: unrelated), "another file's temporary file is not ours")
    }
}
