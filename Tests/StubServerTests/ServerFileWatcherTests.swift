import Foundation
import XCTest

@testable import StubServer

final class ServerFileWatcherTests: XCTestCase {
    func testReportsWritesReplacementsAndDeletionsOfWatchedFilesOnly() throws {
        let directory = try TemporaryDirectory()
        let watched = try directory.write("watched.json", "1")
        try directory.write("other.json", "1")
        let changes = LineLog()
        let watcher = FileWatcher(files: [watched], debounce: .milliseconds(30)) { changes.append($0.joined(separator: ",")) }
        watcher.start()
        defer { watcher.stop() }

        try directory.write("other.json", "2") // not watched: no report
        try directory.write("watched.json", "2") // replaced by rename
        XCTAssertTrue(waitUntil { changes.all.count >= 1 }, "\(changes.all)")
        XCTAssertEqual(Set(changes.all), [watched])

        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: watched)) // written in place
        handle.seekToEndOfFile()
        handle.write(Data("3".utf8))
        handle.closeFile()
        XCTAssertTrue(waitUntil { changes.all.count >= 2 }, "\(changes.all)")

        try FileManager.default.removeItem(atPath: watched)
        XCTAssertTrue(waitUntil { changes.all.count >= 3 }, "\(changes.all)")
        XCTAssertEqual(Set(changes.all), [watched])
    }

    func testACallbackMayStopItsWatcher() throws {
        let directory = try TemporaryDirectory()
        let watched = try directory.write("watched.json", "1")
        let stopped = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var watcher: FileWatcher?
        watcher = FileWatcher(files: [watched], debounce: .milliseconds(10)) { _ in
            watcher?.stop()
            stopped.signal()
        }
        watcher?.start()
        try directory.write("watched.json", "2")
        XCTAssertEqual(stopped.wait(timeout: .now() + 30), .success, "stop() from the callback must not deadlock")
    }

    private func waitUntil(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }
}
