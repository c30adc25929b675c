import Foundation
import XCTest

@testable import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// No file can hang or exhaust the server: FIFOs and devices are refused without blocking, and
/// every parsed file is size-checked from `fstat` before it is read (issue 21, points 3 and 4).
final class FileTypeAndSizeSafetyTests: XCTestCase {
    /// A sparse file of `size` bytes: no disk used, but `stat` says `size`.
    private func sparse(_ path: String, size: Int) throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("[".utf8)))
        XCTAssertEqual(truncate(path, off_t(size)), 0, String(cString: strerror(errno)))
    }

    /// Issue 21 point 3: `GET /f?f=fifo.txt` used to block an event loop in `open()` forever.
    func testAFIFONamedByARequestIsRefusedWithoutBlocking() throws {
        let live = try LiveStubs(
            #"[{"request": {"uri": "/f"}, "response": {"file": {"name": {"template": "${req.queries.f}"}}}}]"#, files: ["ok.txt": "fine"])
        XCTAssertEqual(mkfifo(live.fixture.path("fifo.txt"), 0o600), 0)
        // Every event loop gets one, so a blocking open would leave none to answer.
        for _ in 0..<4 {
            let client = try RawHTTPClient(port: live.server.port, timeout: 5)
            try client.send("GET /f?f=fifo.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 400, response.text)
            XCTAssertTrue(response.text.contains("is not a regular file"), response.text)
        }
        let client = try RawHTTPClient(port: live.server.port, timeout: 5)
        try client.send("GET /f?f=ok.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "fine")
    }

    func testFIFOsAreRefusedAsConfigTapeAndSavedExchangeFiles() throws {
        let fixture = try ConfigFixture()
        XCTAssertEqual(mkfifo(fixture.path("fifo.json"), 0o600), 0)
        try fixture.write("include.json", #"[{"include": "fifo.json"}]"#)
        let include = fixture.diagnostics("include.json")
        XCTAssertTrue(include.contains { $0.message.contains("is not a regular file (a FIFO)") }, include.description)
        try fixture.write("tape.json", #"[{"request": {"uri": "/r"}, "response": {"record": {"group": "g", "tape": "fifo.json"}}}]"#)
        let tape = fixture.diagnostics("tape.json")
        XCTAssertEqual(tape.map(\.path), ["[0].response.record.tape"], tape.description)
        try fixture.write(
            "failover.json",
            #"[{"request": {"uri": "/p"}, "response": {"proxy": {"url": "http://127.0.0.1:9/p", "failover": "fifo.json"}}}]"#)
        XCTAssertEqual(fixture.diagnostics("failover.json").map(\.path), ["[0].response.proxy.failover"])
    }

    /// Issue 21 point 4: a 10 GB sparse include reached 21 GB RSS in 24 s.
    func testAHugeIncludeIsRefusedFromItsSizeAlone() throws {
        let fixture = try ConfigFixture()
        try sparse(fixture.path("huge.json"), size: 10 * 1024 * 1024 * 1024)
        try fixture.write("stubs.json", #"[{"include": "huge.json"}]"#)
        let started = Date()
        let problems = fixture.diagnostics("stubs.json")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "not read")
        XCTAssertEqual(problems.count, 1)
        let message = problems.first?.message ?? ""
        XCTAssertTrue(message.contains("huge.json\" is 10 GiB; configuration files are capped at 16 MiB"), message)
    }

    func testAHugeTopLevelConfigIsRefused() throws {
        let fixture = try ConfigFixture()
        try sparse(fixture.path("stubs.json"), size: RegularFile.configCap + 1)
        let problems = fixture.diagnostics("stubs.json")
        XCTAssertTrue(problems.first?.message.contains("configuration files are capped at 16 MiB") == true, problems.description)
    }

    func testHugeTapesAndSavedExchangesAreRefused() throws {
        let fixture = try ConfigFixture()
        try sparse(fixture.path("tape.json"), size: RegularFile.tapeCap + 1)
        try fixture.write("stubs.json", #"[{"request": {"uri": "/r"}, "response": {"replay": {"group": "g", "tape": "tape.json"}}}]"#)
        let tape = fixture.diagnostics("stubs.json")
        XCTAssertEqual(tape.map(\.path), ["[0].response.replay.tape"])
        XCTAssertTrue(tape.first?.message.contains("tape files are capped at 64 MiB") == true, tape.description)
        try sparse(fixture.path("saved.json"), size: RegularFile.savedExchangesCap + 1)
        try fixture.write(
            "proxy.json", #"[{"request": {"uri": "/p"}, "response": {"proxy": {"url": "http://127.0.0.1:9/p", "playback": "saved.json"}}}]"#
        )
        let saved = fixture.diagnostics("proxy.json")
        XCTAssertTrue(saved.first?.message.contains("saved-exchange files are capped at 64 MiB") == true, saved.description)
    }

    func testReadingChecksTypeAndSize() throws {
        let fixture = try ConfigFixture()
        let path = try fixture.write("small.json", "[1, 2]")
        XCTAssertEqual(try RegularFile.read(path, cap: 6, kind: "test"), Array("[1, 2]".utf8))
        XCTAssertThrowsError(try RegularFile.read(path, cap: 5, kind: "test"))
        XCTAssertThrowsError(try RegularFile.read(fixture.root, cap: 5, kind: "test"), "a directory")
        XCTAssertThrowsError(try RegularFile.read("/dev/null", cap: 5, kind: "test"), "a device")
        XCTAssertEqual(RegularFile.byteCount(10 * 1024 * 1024 * 1024), "10 GiB")
        XCTAssertEqual(RegularFile.byteCount(1536), "1.5 KiB")
    }
}
