import Foundation
import RehearsalSettings
import TestRunObservation
import XCTest

/// Watches the test run (registered on the first snapshot assertion): resets the automatic snapshot
/// numbers after each test, and after a full run lists snapshot files no test touched
/// (`TEXT_SNAPSHOT_STRICT=1` fails the run, `TEXT_SNAPSHOT_PRUNE=1` deletes them when the run
/// passed without skips). Which test is running is `RunningTest`'s job (TestRunObservation).
final class SnapshotObserver: NSObject, XCTestObservation, @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered = false
    nonisolated(unsafe) private static var runWasClean = true

    static func registerIfNeeded() {
        // Names the running test in re-record commands; SpecKit may have started it earlier.
        RunningTest.startObserving()
        lock.lock()
        defer { lock.unlock() }
        guard !registered else { return }
        registered = true
        let observer = SnapshotObserver()
        if Thread.isMainThread {
            MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(observer) }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(observer) } }
        }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        SnapshotLedger.shared.resetCounters()
        let run = testCase.testRun
        SnapshotObserver.lock.lock()
        if let run, run.hasBeenSkipped || run.totalFailureCount > 0 { SnapshotObserver.runWasClean = false }
        SnapshotObserver.lock.unlock()
    }

    func testBundleDidFinish(_ testBundle: Bundle) {
        let environment = SnapshotSettings.current.resolvedEnvironment
        guard
            OrphanPolicy.isFullRun(
                arguments: CommandLine.arguments, environment: environment,
                rootSuiteName: RunningTest.rootSuiteName)
        else { return }
        SnapshotObserver.lock.lock()
        let clean = SnapshotObserver.runWasClean
        SnapshotObserver.lock.unlock()
        let outcome = OrphanPolicy.apply(orphans: SnapshotLedger.shared.orphans(), environment: environment, runWasClean: clean)
        if !outcome.report.isEmpty {
            FileHandle.standardError.write(Data((outcome.report + "\n").utf8))
        }
        if outcome.shouldFail { exit(1) }
    }
}

/// What to do with orphaned snapshot files after a run, kept apart from XCTest so it can be tested.
public enum OrphanPolicy {
    /// What ``apply(orphans:environment:runWasClean:)`` decided.
    public struct Outcome: Sendable, Equatable {
        /// Text for the log (empty when there were no orphans).
        public var report: String
        /// Files deleted (`TEXT_SNAPSHOT_PRUNE=1` on a clean run).
        public var pruned: [String]
        /// True when `TEXT_SNAPSHOT_STRICT=1` and orphans exist: the run must fail.
        public var shouldFail: Bool
    }

    /// A full run executes every test: no `BDD_TAGS`, and the run's root suite is `All tests` (both
    /// XCTest implementations name it `Selected tests` when a filter, `-only-testing`, a test plan or
    /// Xcode's diamond picked tests). When the root suite was not observed, the arguments decide: a
    /// test name (`swift test --filter` and `--parallel` pass them on Linux) or `-XCTest <tests>` (what
    /// `swift test` passes on macOS) make it partial; the bundle path alone does not.
    public static func isFullRun(arguments: [String], environment: [String: String], rootSuiteName: String? = nil) -> Bool {
        if let tags = environment["BDD_TAGS"], !tags.isEmpty { return false }
        if let rootSuiteName { return rootSuiteName == "All tests" }
        var rest = arguments.dropFirst()[...]
        while let argument = rest.first {
            rest = rest.dropFirst()
            if argument == "--testing-library" || argument == "--attachments-path" { rest = rest.dropFirst(); continue }
            if argument == "-XCTest" {
                let selection = rest.first ?? "All"
                rest = rest.dropFirst()
                if selection != "All" && selection != "Self" { return false }
                continue
            }
            if argument.hasPrefix("-") { continue }
            if argument.hasSuffix(".xctest") || argument.hasSuffix(".xctest/") { continue } // the bundle, on macOS
            return false // a test name: a selection
        }
        return true
    }

    /// Reports `orphans`; prunes them with `TEXT_SNAPSHOT_PRUNE=1` when the run was clean (no failures, no
    /// skips); asks to fail with `TEXT_SNAPSHOT_STRICT=1`.
    public static func apply(orphans: [String], environment: [String: String], runWasClean: Bool) -> Outcome {
        guard !orphans.isEmpty else { return Outcome(report: "", pruned: [], shouldFail: false) }
        let strict = RecordPolicy.isTruthy(environment["TEXT_SNAPSHOT_STRICT"])
        let prune = RecordPolicy.isTruthy(environment["TEXT_SNAPSHOT_PRUNE"])
        var lines = [
            "\(strict ? "error" : "warning"): \(orphans.count) snapshot file\(orphans.count == 1 ? "" : "s") not touched by any test in this full run:"
        ]
        lines += orphans.map { "  \($0)" }
        var pruned: [String] = []
        if prune && runWasClean {
            for path in orphans where (try? FileManager.default.removeItem(atPath: path)) != nil { pruned.append(path) }
            lines.append("TEXT_SNAPSHOT_PRUNE=1: deleted \(pruned.count) of them.")
        } else if prune {
            lines.append("TEXT_SNAPSHOT_PRUNE=1 ignored: the run had failures or skipped tests, so some files may only look unused.")
        } else {
            lines.append(
                "Delete them with TEXT_SNAPSHOT_PRUNE=1 swift test (after a passing full run); TEXT_SNAPSHOT_STRICT=1 makes them fail the run."
            )
        }
        return Outcome(report: lines.joined(separator: "\n"), pruned: pruned, shouldFail: strict && pruned.count < orphans.count)
    }
}
