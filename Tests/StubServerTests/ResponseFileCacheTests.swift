import Foundation
import XCTest

@testable import StubServer

/// Files are cached by their identity (device, inode, size, times), never by their name alone:
/// every edit shows on the next request and nothing outside the root is ever served, even from
/// the cache and even when a symlink changes between two requests.
final class ResponseFileCacheTests: XCTestCase {
    private var outside: String!
    private var stubs: LiveStubs!
    /// Old enough that the cache keeps the file (younger files are re-read on every request).
    private let settled = Date(timeIntervalSinceNow: -3600)

    override func setUpWithError() throws {
        outside = FileManager.default.temporaryDirectory.path + "/file-cache-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: outside + "/dir", withIntermediateDirectories: true)
        try write(outside + "/secret.txt", "TOP-SECRET!", modified: settled)
        try write(outside + "/dir/page.txt", "TOP-SECRET!", modified: settled)
        stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/data"}, "response": {"file": "public/data.txt"}},
              {"request": {"uri": "/link"}, "response": {"file": "public/link.txt"}},
              {"request": {"uri": "/page"}, "response": {"file": "public/dir/page.txt"}},
              {"request": {"uri": "/greeting"}, "response": {"file": {"template": "public/greeting.txt"}}},
              {"request": {"uri": "/named"}, "response": {"file": {"name": {"template": "public/${req.queries['f']}"}}}}
            ]
            """, files: ["public/dir/page.txt": "inside-page"])
        try write(path("public/data.txt"), "version-1", modified: settled)
        try write(path("public/inside.txt"), "inside-data", modified: settled)
        try write(path("public/dir/page.txt"), "inside-page", modified: settled)
        try write(path("public/greeting.txt"), "hello ${req.queries['name']}", modified: settled)
        try FileManager.default.createSymbolicLink(atPath: path("public/link.txt"), withDestinationPath: "inside.txt")
    }

    override func tearDownWithError() throws {
        stubs = nil
        try? FileManager.default.removeItem(atPath: outside)
    }

    private func path(_ name: String) -> String { stubs.fixture.path(name) }

    private func write(_ path: String, _ text: String, modified: Date? = nil) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
    }

    private func inode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
    }

    /// GETs `target` and returns the body, failing unless the status is 200.
    private func body(_ target: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let response = try stubs.send("GET", target)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return response.text
    }

    private func assertRefused(_ target: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try stubs.send("GET", target)
        XCTAssertEqual(response.status, 400, target, file: file, line: line)
        XCTAssertFalse(response.text.contains("TOP-SECRET"), response.text, file: file, line: line)
    }

    func testAnUnchangedFileIsServedFromTheCache() throws {
        XCTAssertEqual(try body("/data"), "version-1")
        let before = FileCache.shared.currentStatistics.hits
        XCTAssertEqual(try body("/data"), "version-1")
        XCTAssertGreaterThan(FileCache.shared.currentStatistics.hits, before, "the second request reads nothing")
    }

    func testPipelinedRequestsReadTheWatchQueueOncePerLoopTurnNotPerRequest() throws {
        XCTAssertEqual(try body("/data"), "version-1")
        XCTAssertEqual(try body("/data"), "version-1") // trusted: served without an open
        let before = FileCache.shared.currentStatistics.watchDrains
        let client = try RawHTTPClient(port: stubs.server.port)
        // 40 requests in one write: the loop answers them in a turn or a few, not 40 reads.
        try client.send(String(repeating: "GET /data HTTP/1.1\r\nHost: x\r\n\r\n", count: 40))
        for _ in 0..<40 { XCTAssertEqual(try client.readResponse().text, "version-1") }
        let drains = FileCache.shared.currentStatistics.watchDrains - before
        XCTAssertLessThan(drains, 20, "\(drains) reads of the inotify queue for 40 pipelined requests")
        // And an edit still shows on the next request.
        try write(path("public/data.txt"), "version-2", modified: settled)
        XCTAssertEqual(try body("/data"), "version-2")
    }

    func testAFileEditedInPlaceIsServedFresh() throws {
        XCTAssertEqual(try body("/data"), "version-1")
        XCTAssertEqual(try body("/data"), "version-1")
        let inodeBefore = try inode(path("public/data.txt"))
        // Same length, same inode: only the times tell the versions apart.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path("public/data.txt")))
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data("version-2".utf8))
        try handle.close()
        XCTAssertEqual(try inode(path("public/data.txt")), inodeBefore)
        XCTAssertEqual(try body("/data"), "version-2")
        // Edited again and dated back (a checkout restoring an old time): still fresh.
        try write(path("public/data.txt"), "version-3", modified: Date(timeIntervalSinceNow: -7200))
        XCTAssertEqual(try body("/data"), "version-3")
        XCTAssertEqual(try body("/data"), "version-3")
    }

    func testAFileReplacedByAtomicRenameIsServedFresh() throws {
        XCTAssertEqual(try body("/data"), "version-1")
        XCTAssertEqual(try body("/data"), "version-1")
        // Same size and the same modification time as the cached version: only the inode differs.
        try write(path("public/data.txt.tmp"), "version-9", modified: settled)
        XCTAssertEqual(rename(path("public/data.txt.tmp"), path("public/data.txt")), 0)
        XCTAssertEqual(try body("/data"), "version-9")
    }

    func testATemplateFileIsParsedOncePerVersion() throws {
        XCTAssertEqual(try body("/greeting?name=ada"), "hello ada")
        XCTAssertEqual(try body("/greeting?name=bob"), "hello bob", "the cached template renders per request")
        try write(path("public/greeting.txt"), "howdy ${req.queries['name']}", modified: settled)
        XCTAssertEqual(try body("/greeting?name=ada"), "howdy ada")
    }

    func testASymlinkSwappedToOutsideIsNeverServedFromTheCache() throws {
        XCTAssertEqual(try body("/link"), "inside-data", "a symlink inside the root is fine")
        XCTAssertEqual(try body("/link"), "inside-data")
        // Same length and time as the cached file: a cache keyed by name alone would serve it.
        try FileManager.default.removeItem(atPath: path("public/link.txt"))
        try FileManager.default.createSymbolicLink(atPath: path("public/link.txt"), withDestinationPath: outside + "/secret.txt")
        try assertRefused("/link")
        try FileManager.default.removeItem(atPath: path("public/link.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: path("public/link.txt"), withDestinationPath: "../../" + URL(fileURLWithPath: outside).lastPathComponent + "/secret.txt"
        )
        try assertRefused("/link")
        try FileManager.default.removeItem(atPath: path("public/link.txt"))
        try FileManager.default.createSymbolicLink(atPath: path("public/link.txt"), withDestinationPath: "inside.txt")
        XCTAssertEqual(try body("/link"), "inside-data", "and back inside it is served again")
    }

    func testAFileOrDirectoryReplacedByASymlinkToOutsideIsRefused() throws {
        XCTAssertEqual(try body("/data"), "version-1")
        XCTAssertEqual(try body("/data"), "version-1")
        try FileManager.default.removeItem(atPath: path("public/data.txt"))
        try FileManager.default.createSymbolicLink(atPath: path("public/data.txt"), withDestinationPath: outside + "/secret.txt")
        try assertRefused("/data")

        XCTAssertEqual(try body("/page"), "inside-page")
        XCTAssertEqual(try body("/page"), "inside-page")
        try FileManager.default.moveItem(atPath: path("public/dir"), toPath: path("public/dir-old"))
        try FileManager.default.createSymbolicLink(atPath: path("public/dir"), withDestinationPath: outside + "/dir")
        try assertRefused("/page")
    }

    func testNamesBuiltFromTheRequestGoThroughTheSameChecks() throws {
        XCTAssertEqual(try body("/named?f=link.txt"), "inside-data")
        XCTAssertEqual(try body("/named?f=dir/../data.txt"), "version-1")
        try assertRefused("/named?f=../../\(URL(fileURLWithPath: outside).lastPathComponent)/secret.txt")
    }

    func testSymlinksAreResolvedByHandAndMustStayInside() throws {
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: path("public/absolute.txt"), withDestinationPath: path("public/inside.txt"))
        XCTAssertEqual(try body("/named?f=absolute.txt"), "inside-data", "an absolute link into the root is fine")
        try manager.createSymbolicLink(atPath: path("public/pages"), withDestinationPath: "dir")
        XCTAssertEqual(try body("/named?f=pages/page.txt"), "inside-page", "a linked directory inside the root is fine")
        try manager.createSymbolicLink(atPath: path("public/up"), withDestinationPath: "..")
        XCTAssertEqual(try body("/named?f=up/public/inside.txt"), "inside-data", "a link to the root itself stays inside")
        try manager.createSymbolicLink(atPath: path("public/loop-a"), withDestinationPath: "loop-b")
        try manager.createSymbolicLink(atPath: path("public/loop-b"), withDestinationPath: "loop-a")
        let loop = try stubs.send("GET", "/named?f=loop-a")
        XCTAssertEqual(loop.status, 400)
        XCTAssertTrue(loop.text.contains("more than 40 symlinks"), loop.text)
        try manager.createSymbolicLink(atPath: path("public/escape"), withDestinationPath: "../..")
        try assertRefused("/named?f=escape/\(URL(fileURLWithPath: outside).lastPathComponent)/secret.txt")
        let missing = try stubs.send("GET", "/named?f=nope.txt")
        XCTAssertEqual(missing.status, 400)
        XCTAssertTrue(missing.text.contains("no file"), missing.text)
    }

    func testTheCacheStaysWithinItsByteBudget() throws {
        let cache = FileCache(byteLimit: 4096)
        for index in 0..<8 {
            try write(path("public/big-\(index).txt"), String(repeating: "x", count: 1000), modified: settled)
            guard case .success(let file) = cache.read("public/big-\(index).txt", root: stubs.fixture.root) else {
                return XCTFail("not read")
            }
            XCTAssertEqual(file.bytes.count, 1000)
        }
        let statistics = cache.currentStatistics
        XCTAssertLessThanOrEqual(statistics.storedBytes, 4096)
        XCTAssertGreaterThan(statistics.entries, 0)
        XCTAssertLessThan(statistics.entries, 8, "the oldest files were dropped")
    }

    func testFilesBeingWrittenNowAreNotKept() throws {
        let cache = FileCache()
        try write(path("public/fresh.txt"), "fresh")
        _ = cache.read("public/fresh.txt", root: stubs.fixture.root)
        XCTAssertEqual(cache.currentStatistics.entries, 0, "a file modified within the timestamp granularity could change unseen")
        try write(path("public/fresh.txt"), "fresh", modified: settled)
        _ = cache.read("public/fresh.txt", root: stubs.fixture.root)
        XCTAssertEqual(cache.currentStatistics.entries, 1)
    }
}
