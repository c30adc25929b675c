import Foundation
import RehearsalSettings

/// Scoped configuration of the recorder (a task-local): record mode, folders, the environment
/// variables to read, and the ledger of touched snapshots. Defaults read the process environment.
///
/// ```swift
/// // Record everything a block of tests touches:
/// withSnapshotRecording(.all) { assertSnapshot(of: screen, as: .lines) }
///
/// // Run with a pretend environment and private folders (how TextSnapshot tests itself):
/// withSnapshotSettings({ $0.environment = ["CI": "true"]; $0.snapshotRoot = tmp }) { … }
/// ```
public struct SnapshotSettings: Sendable {
    /// A record mode set for a scope (second in precedence after a call's `record:`).
    public var record: RecordMode?
    /// Environment variables to read instead of the process's (`CI`, `TEXT_SNAPSHOT_*`).
    public var environment: [String: String]?
    /// Replaces `<test file's folder>/__Snapshots__` (the root holding one folder per test file).
    public var snapshotRoot: String?
    /// Where mismatching and unrecorded actual snapshots are written.
    public var artifactsDirectory: String?
    /// Records which snapshot files were touched (for orphan detection and duplicate checks).
    public var ledger: SnapshotLedger

    public init(
        record: RecordMode? = nil, environment: [String: String]? = nil, snapshotRoot: String? = nil,
        artifactsDirectory: String? = nil, ledger: SnapshotLedger = .shared
    ) {
        self.record = record
        self.environment = environment
        self.snapshotRoot = snapshotRoot
        self.artifactsDirectory = artifactsDirectory
        self.ledger = ledger
    }

    /// The settings in force for the current task.
    public static var current: SnapshotSettings { $taskCurrent.get() }

    @TaskLocal static var taskCurrent = SnapshotSettings()

    /// The environment variables in force: the override, else the process's with every setting read
    /// from all its sources (`TEST_RUNNER_`/`SIMCTL_CHILD_` prefixes, `rehearsal.json`, CI detection).
    public var resolvedEnvironment: [String: String] { environment ?? RehearsalSettings.current().environment }

    /// Starts the `rehearsal.json` search next to a test file, if no setting was read yet.
    static func noteSourceFile(_ path: String) {
        _ = RehearsalSettings.current(anchor: path)
    }
}

/// Runs `operation` with `mode` as the record mode for every snapshot assertion inside it that does
/// not pass its own `record:`. Override `invokeTest()` to cover a whole test class:
///
/// ```swift
/// override func invokeTest() { withSnapshotRecording(.failed) { super.invokeTest() } }
/// ```
public func withSnapshotRecording<R>(_ mode: RecordMode, operation: () throws -> R) rethrows -> R {
    try withSnapshotSettings({ $0.record = mode }, operation: operation)
}

/// The `async` form of ``withSnapshotRecording(_:operation:)``.
public func withSnapshotRecording<R>(_ mode: RecordMode, operation: () async throws -> R) async rethrows -> R {
    var settings = SnapshotSettings.current
    settings.record = mode
    return try await SnapshotSettings.$taskCurrent.withValue(settings, operation: operation)
}

/// Runs `operation` with modified ``SnapshotSettings``.
public func withSnapshotSettings<R>(_ update: (inout SnapshotSettings) -> Void, operation: () throws -> R) rethrows -> R {
    var settings = SnapshotSettings.current
    update(&settings)
    return try SnapshotSettings.$taskCurrent.withValue(settings, operation: operation)
}

/// swift-snapshot-testing's spelling of a record-mode scope: every snapshot assertion inside
/// `operation` that does not pass its own `record:` uses `record` (`nil` leaves the mode as it is).
/// The modes mean what Point-Free's do: `.missing` writes only missing references, `.failed` also
/// overwrites mismatching ones, `.all` rewrites every one, `.never` writes nothing; any write fails
/// the test, and CI refuses to record unless `TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI=1`.
///
/// ```swift
/// override func invokeTest() {
///     withSnapshotTesting(record: .failed) { super.invokeTest() }
/// }
/// ```
public func withSnapshotTesting<R>(record: RecordMode? = nil, operation: () throws -> R) rethrows -> R {
    guard let record else { return try operation() }
    return try withSnapshotRecording(record, operation: operation)
}

/// The `async` form of ``withSnapshotTesting(record:operation:)``.
public func withSnapshotTesting<R>(record: RecordMode? = nil, operation: () async throws -> R) async rethrows -> R {
    guard let record else { return try await operation() }
    return try await withSnapshotRecording(record, operation: operation)
}
