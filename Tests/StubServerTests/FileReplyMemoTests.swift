import Foundation
import XCTest

@testable import StubServer

/// A `file` stub whose file is trusted (watched and unchanged) answers from its plan's memo,
/// without a cache lookup; the memo must never hide an edit, a new file in moco's working
/// directory, or that file's removal.
final class FileReplyMemoTests: XCTestCase {
    private var fixture: ConfigFixture!
    private var server: StubServer!
    /// Old enough that the cache keeps and trusts the files.
    private let settled = Date(timeIntervalSinceNow: -3600)

    override func setUpWithError() throws {
        fixture = try ConfigFixture()
        // The config lives below the working directory, so `data.txt` has two candidates:
        // `<wd>/data.txt` (moco's place, looked up first) and `<wd>/conf/data.txt`.
        try fixture.write(
            "conf/stubs.json",
            #"[{"request": {"uri": "/data"}, "response": {"file": "data.txt"}}, {"request": {"uri": "/link"}, "response": {"file": "link.txt"}}]"#
        )
        try write("conf/data.txt", "from-config-directory")
        try write("conf/target.txt", "target-version-1")
        try FileManager.default.createSymbolicLink(atPath: fixture.path("conf/link.txt"), withDestinationPath: "target.txt")
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 1
        server = try StubServer(configFile: fixture.path("conf/stubs.json"), options: options)
        try server.start()
    }

    override func tearDownWithError() throws {
        server?.stop()
        server = nil
        fixture = nil
    }

    private func write(_ name: String, _ text: String) throws {
        let path = try fixture.write(name, text)
        try FileManager.default.setAttributes([.modificationDate: settled], ofItemAtPath: path)
    }

    private func body(_ path: String = "/data", file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.text
    }

    func testATrustedFileIsAnsweredFromThePlansMemo() throws {
        XCTAssertEqual(try body(), "from-config-directory")
        XCTAssertEqual(try body(), "from-config-directory")
        let before = FileCache.shared.currentStatistics.recalls
        for _ in 0..<5 { XCTAssertEqual(try body(), "from-config-directory") }
        XCTAssertGreaterThanOrEqual(FileCache.shared.currentStatistics.recalls - before, 5, "a trusted file looked up again")
    }

    func testTheMemoShowsEditsAndTheWorkingDirectoryCandidate() throws {
        for _ in 0..<3 { XCTAssertEqual(try body(), "from-config-directory") }
        try write("conf/data.txt", "edited-in-config")
        XCTAssertEqual(try body(), "edited-in-config")
        XCTAssertEqual(try body(), "edited-in-config")
        // moco's rule: a file in the working directory wins, from the next request on.
        try write("data.txt", "from-working-directory")
        XCTAssertEqual(try body(), "from-working-directory")
        XCTAssertEqual(try body(), "from-working-directory")
        try FileManager.default.removeItem(atPath: fixture.path("data.txt"))
        XCTAssertEqual(try body(), "edited-in-config")
    }

    /// Watches cover a path without symlinks only: the target of a link is not watched, so a
    /// file reached through one must be checked on every request, never recalled.
    func testAFileReachedThroughASymlinkIsNeverRecalled() throws {
        for _ in 0..<3 { XCTAssertEqual(try body("/link"), "target-version-1") }
        // In place, same size, times left to the kernel: no event reaches any watch.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: fixture.path("conf/target.txt")))
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data("target-version-2".utf8))
        try handle.close()
        XCTAssertEqual(try body("/link"), "target-version-2")
    }
}
