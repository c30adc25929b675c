import Foundation
import TextSnapshot
import XCTest

/// A private temporary folder plus snapshot settings that ignore the caller's environment, so every
/// recorder test behaves the same with or without `CI=true`.
final class Sandbox: @unchecked Sendable {
    let directory: URL
    /// The ledger of the current pretend test run; ``nextRun()`` starts another.
    private(set) var ledger = SnapshotLedger()

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("text-snapshot-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Forget what the previous pretend run touched, as a new `swift test` process would.
    func nextRun() { ledger = SnapshotLedger() }

    var root: String { directory.appendingPathComponent("__Snapshots__").path }
    var artifacts: String { directory.appendingPathComponent("artifacts").path }

    /// Runs `body` with `environment` as the only environment variables.
    func run<R>(environment: [String: String] = [:], record: RecordMode? = nil, _ body: () throws -> R) rethrows -> R {
        try withSnapshotSettings(
            {
                $0.environment = environment
                $0.snapshotRoot = root
                $0.artifactsDirectory = artifacts
                $0.ledger = ledger
                $0.record = record
            }, operation: body)
    }

    /// Every regular file under the sandbox's snapshot root, relative to it, sorted.
    func snapshotFiles() -> [String] { files(under: root) }
    func artifactFiles() -> [String] { files(under: artifacts) }

    func files(under path: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        var result: [String] = []
        while let next = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(next), isDirectory: &isDirectory)
            if !isDirectory.boolValue { result.append(next) }
        }
        return result.sorted()
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: (root as NSString).appendingPathComponent(relative), encoding: .utf8)
    }

    func write(_ text: String, to relative: String) throws {
        let path = (root as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

extension XCTestCase {
    /// A sandbox deleted when the test ends.
    func makeSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        addTeardownBlock { sandbox.remove() }
        return sandbox
    }
}
