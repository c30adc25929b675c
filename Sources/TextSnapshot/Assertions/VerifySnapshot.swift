import Foundation
import TestRunObservation

/// Checks `value` against its reference snapshot and returns the failure as a value (nil = passed).
/// This is the whole recorder without XCTest, so custom helpers (and TextSnapshot's own tests) can
/// inspect what happened; ``assertSnapshot(of:as:named:record:snapshotDirectory:file:testName:line:)`` reports it.
///
/// ```swift
/// if let failure = verifySnapshot(of: "hello", as: .lines, named: "greeting", record: .never) {
///     print(failure.kind, failure.summary)
/// }
/// ```
///
/// - Parameters:
///   - name: the file's identifier (`<testName>.<name>.<ext>`); nil numbers the test's snapshots 1, 2, …
///   - record: overrides the record mode (refused on CI unless `TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI=1`).
///   - snapshotDirectory: the folder holding this snapshot file, replacing `…/__Snapshots__/<TestFile>`.
public func verifySnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as strategy: Snapshotting<Value>,
    named name: String? = nil,
    record: RecordMode? = nil,
    snapshotDirectory: String? = nil,
    file: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line
) -> SnapshotFailure? {
    SnapshotRecorder(settings: .current).verify(
        of: value, as: strategy, named: name, record: record, snapshotDirectory: snapshotDirectory,
        file: "\(file)", testName: testName, line: line)
}

/// The recorder behind ``verifySnapshot(of:as:named:record:snapshotDirectory:file:testName:line:)``.
struct SnapshotRecorder {
    let settings: SnapshotSettings

    /// Checks the snapshot and tells ``SnapshotEvents``' listener (SpecKit's report) what happened.
    func verify<Value>(
        of value: () throws -> Value, as strategy: Snapshotting<Value>, named name: String?,
        record: RecordMode?, snapshotDirectory: String?, file: String, testName: String, line: UInt,
        screen: SnapshotEvent.Screen? = nil
    ) -> SnapshotFailure? {
        var trace = SnapshotTrace()
        let failure = check(
            of: value, as: strategy, named: name, record: record, snapshotDirectory: snapshotDirectory,
            file: file, testName: testName, line: line, trace: &trace)
        if SnapshotEvents.isListening, let event = trace.event(failure: failure, screen: screen, file: file, line: line) {
            SnapshotEvents.report(event)
        }
        return failure
    }

    private func check<Value>(
        of value: () throws -> Value, as strategy: Snapshotting<Value>, named name: String?,
        record: RecordMode?, snapshotDirectory: String?, file: String, testName: String, line: UInt,
        trace: inout SnapshotTrace
    ) -> SnapshotFailure? {
        SnapshotObserver.registerIfNeeded()
        SnapshotSettings.noteSourceFile(file)
        // `#function` inside a SpecKit scenario is the feature's anchor (`testFeature()`), shared
        // by every scenario: name the snapshot after the running scenario instead.
        let testName = RunningTest.scenarioName.map { testName.contains("(") ? $0 : testName } ?? testName
        let environment = settings.resolvedEnvironment
        let policy: RecordPolicy
        do {
            policy = try RecordPolicy.resolve(call: record, scope: settings.record, environment: environment)
        } catch {
            return error
        }

        // Where the file lives.
        let root: String
        let directory: String
        if let snapshotDirectory {
            directory = SnapshotFiles.absolute(snapshotDirectory)
            root = (directory as NSString).deletingLastPathComponent
        } else {
            if let unreachable = SnapshotFiles.unreachableSourceTree(file: file, settings: settings) {
                return SnapshotFailure(kind: .configuration, message: unreachable, refusal: policy.refusal)
            }
            root = SnapshotFiles.root(for: file, settings: settings)
            directory = (root as NSString).appendingPathComponent(SnapshotFiles.testFileName(file))
        }
        let test = SnapshotFiles.sanitize(testName)
        let identifier =
            name.map(SnapshotFiles.sanitize)
            ?? String(settings.ledger.nextCounter(for: (directory as NSString).appendingPathComponent(test)))
        let fileName = "\(test).\(identifier).\(strategy.pathExtension)"
        let path = OrphanAudit.standardized((directory as NSString).appendingPathComponent(fileName))
        trace.name = test
        trace.identifier = identifier
        trace.path = path
        let site = SnapshotLedger.Site(file: file, line: line, testName: testName)
        if let previous = settings.ledger.touch(path, root: root, site: site) {
            return SnapshotFailure(
                kind: .duplicate,
                message: "Snapshot \(quoted(identifier)) is also used by \(previous); give one of them another name with `named:`, "
                    + "e.g. assertSnapshot(of: value, as: .lines, named: \"empty-list\").\n  reference: \(path)",
                referencePath: path, refusal: policy.refusal)
        }

        // The actual text.
        let actual: String
        do {
            actual = SnapshotFiles.normalize(try strategy.snapshot(value()))
        } catch {
            return SnapshotFailure(
                kind: .snapshotError, message: "Could not make snapshot \(quoted(identifier)): \(error)",
                referencePath: path, refusal: policy.refusal)
        }
        let actualData = Data(actual.utf8)
        let reference = FileManager.default.contents(atPath: path)
        trace.actual = actual
        trace.reference = reference
        let rerun = TestFilter.command(testName: testName)
        let prefix = policy.refusal.map { "\($0)\n" } ?? ""

        // Record mode .all: always write, always fail.
        if policy.mode == .all {
            let change: String
            if let reference {
                change = Self.matches(reference, actualData) ? "unchanged" : (compare(reference, actual, strategy)?.summary ?? "changed")
            } else {
                change = "new"
            }
            return write(
                actual, to: path, kind: .recorded, refusal: policy.refusal,
                message: """
                    \(prefix)Record mode .all (\(policy.source)): wrote snapshot \(quoted(identifier)) (\(change)).
                      wrote: \(path)
                      verify: turn record mode off and re-run: \(rerun)
                    """)
        }

        guard let reference else {
            if policy.mode == .never {
                let artifact = saveArtifact(actual, fileName: fileName, testFile: file)
                let why = policy.refusal != nil ? "recording was refused on CI" : "record mode is .never (\(policy.source))"
                return SnapshotFailure(
                    kind: .missingReference,
                    message: """
                        \(prefix)No reference snapshot \(quoted(identifier)); nothing was written because \(why).
                          reference: \(path)
                          actual:    \(artifact ?? "(could not be saved)")
                          record it: TEXT_SNAPSHOT_RECORD=missing \(rerun)
                        """, referencePath: path, artifactPath: artifact, refusal: policy.refusal)
            }
            return write(
                actual, to: path, kind: .recorded, refusal: policy.refusal,
                message: """
                    \(prefix)No reference snapshot \(quoted(identifier)) was found, so it was recorded (record mode .\(policy.mode.rawValue), \(policy.source)).
                      wrote: \(path)
                      Review it, then re-run: \(rerun)
                    """)
        }

        if Self.matches(reference, actualData) {
            guard let refusal = policy.refusal else { return nil }
            return SnapshotFailure(
                kind: .recordRefusedOnCI, message: "\(refusal)\n  reference: \(path) (matches)",
                referencePath: path, refusal: refusal)
        }

        let difference =
            compare(reference, actual, strategy)
            ?? TextDiff.Difference(summary: "the bytes differ (the reference is not valid UTF-8)", diff: "")
        let artifact = saveArtifact(actual, fileName: fileName, testFile: file)
        let details = """
              reference: \(path)
              actual:    \(artifact ?? "(could not be saved)")
              diff:      diff -u \(TestFilter.shellQuoted(path)) \(TestFilter.shellQuoted(artifact ?? "actual"))
            """
        if policy.mode == .failed {
            var failure = write(
                actual, to: path, kind: .recorded, refusal: policy.refusal,
                message: """
                    \(prefix)Snapshot \(quoted(identifier)) did not match its reference and was re-recorded (record mode .failed, \(policy.source)): \(difference.summary)
                    \(details)
                    \(difference.diff)
                    """)
            failure.difference = difference
            failure.artifactPath = artifact
            return failure
        }
        return SnapshotFailure(
            kind: .mismatch,
            message: """
                \(prefix)Snapshot \(quoted(identifier)) does not match reference: \(difference.summary)
                \(details)
                  re-record: TEXT_SNAPSHOT_RECORD=failed \(rerun)
                \(difference.diff)
                """, referencePath: path, artifactPath: artifact, difference: difference, refusal: policy.refusal)
    }

    /// Byte-for-byte equal, or equal but for the final newline the reference lacks: references
    /// recorded by swift-snapshot-testing (`.lines`, `.dump`, …) end without one, and migrating must
    /// not fail every one of them. Such a file is left as it is until it is re-recorded.
    static func matches(_ reference: Data, _ actual: Data) -> Bool {
        if reference == actual { return true }
        return reference.last != UInt8(ascii: "\n") && actual.count == reference.count + 1
            && actual.last == UInt8(ascii: "\n") && actual.starts(with: reference)
    }

    func compare<Value>(_ reference: Data, _ actual: String, _ strategy: Snapshotting<Value>) -> TextDiff.Difference? {
        strategy.diffing.compare(String(decoding: reference, as: UTF8.self), actual)
    }

    func write(_ text: String, to path: String, kind: SnapshotFailure.Kind, refusal: String?, message: String) -> SnapshotFailure {
        do {
            try SnapshotFiles.writeAtomically(text, to: path)
            return SnapshotFailure(kind: kind, message: message, referencePath: path, writtenPaths: [path], refusal: refusal)
        } catch {
            return SnapshotFailure(
                kind: .fileError, message: "Could not write snapshot \(path): \(error)", referencePath: path, refusal: refusal)
        }
    }

    /// Saves the actual text under the artifacts folder (`TEXT_SNAPSHOT_ARTIFACTS`, default
    /// `<temp>/text-snapshots`) as `<TestFile>/<file name>`; returns its path.
    func saveArtifact(_ text: String, fileName: String, testFile: String) -> String? {
        let environment = settings.resolvedEnvironment
        let base =
            settings.artifactsDirectory
            ?? environment["TEXT_SNAPSHOT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("text-snapshots")
        let path = ((SnapshotFiles.absolute(base) as NSString).appendingPathComponent(SnapshotFiles.testFileName(testFile)) as NSString)
            .appendingPathComponent(fileName)
        do {
            try SnapshotFiles.writeAtomically(text, to: path)
            return path
        } catch {
            return nil
        }
    }

    func quoted(_ text: String) -> String { "\"\(text)\"" }
}
