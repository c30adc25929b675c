import Foundation
import XCTest

@testable import StubServer

/// The cache trusts settled files (and absent ones) while inotify reports no change on their
/// path, so it can skip the open; every change on the path must still show on the next read.
final class FileCacheWatchTests: XCTestCase {
    private var root: String!
    private let settled = Date(timeIntervalSinceNow: -3600)

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("filecache-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: settled], ofItemAtPath: path)
    }

    private func text(_ cache: FileCache, _ name: String) throws -> String? {
        switch cache.read(try ConfinedFiles.Target(name, root: root)) {
        case .success(let file): return String(decoding: file.bytes, as: UTF8.self)
        case .failure(let failure): return failure.isNotFound ? nil : "failure: \(failure.message)"
        }
    }

    func testTrustedFilesStillShowEveryEditOnTheNextRead() throws {
        let cache = FileCache()
        try write("dir/a.txt", "one")
        for _ in 0..<3 { XCTAssertEqual(try text(cache, "dir/a.txt"), "one") }
        let hits = cache.currentStatistics.hits
        XCTAssertEqual(try text(cache, "dir/a.txt"), "one")
        XCTAssertEqual(cache.currentStatistics.hits, hits + 1)
        // Same size, dated back to the same time: only the watch can tell.
        try write("dir/a.txt", "two")
        XCTAssertEqual(try text(cache, "dir/a.txt"), "two")
        // Replaced by rename, then its directory replaced by another one.
        try write("dir/b.tmp", "six")
        XCTAssertEqual(rename(root + "/dir/b.tmp", root + "/dir/a.txt"), 0)
        XCTAssertEqual(try text(cache, "dir/a.txt"), "six")
        XCTAssertEqual(try text(cache, "dir/a.txt"), "six")
        try FileManager.default.moveItem(atPath: root + "/dir", toPath: root + "/old")
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: true)
        try write("dir/a.txt", "ten")
        XCTAssertEqual(try text(cache, "dir/a.txt"), "ten")
        // A directory on the path swapped for a symlink: refused, never served from memory.
        try FileManager.default.removeItem(atPath: root + "/dir")
        try FileManager.default.createSymbolicLink(atPath: root + "/dir", withDestinationPath: root + "/old")
        XCTAssertNotEqual(try text(cache, "dir/a.txt"), "ten")
    }

    func testAnAbsentFileShowsUpOnTheNextReadOnceCreated() throws {
        let cache = FileCache()
        XCTAssertNil(try text(cache, "new/deep/c.txt"))
        XCTAssertNil(try text(cache, "new/deep/c.txt"))
        try FileManager.default.createDirectory(atPath: root + "/new/deep", withIntermediateDirectories: true)
        try write("new/deep/c.txt", "here")
        XCTAssertEqual(try text(cache, "new/deep/c.txt"), "here")
        XCTAssertNil(try text(cache, "dir/d.txt"))
        XCTAssertNil(try text(cache, "dir/d.txt"))
        try write("dir/d.txt", "late")
        XCTAssertEqual(try text(cache, "dir/d.txt"), "late")
    }
}
