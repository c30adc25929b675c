import Foundation
import TestRunObservation

/// Collects what TextSnapshot reports through ``SnapshotEvents`` for the scenario running at the
/// time (the caller's, as failures are charged), until the scenario's report is made. Keyed by the
/// scenario's recorder, which lives exactly as long as one run of one scenario.
enum ScenarioSnapshots {
    private struct Collected {
        var records: [SnapshotRecord] = []
        var textBytes = 0
    }

    /// A text longer than this is cut at a line end in the report (the snapshot file holds it
    /// all): a 1 MB `.dump` would otherwise be copied into the fragment and the page. A pad screen
    /// is about 20 KB.
    static let maximumTextBytes = 64 * 1024
    /// Once a scenario's kept texts reach this size, its further snapshots keep no text.
    static let maximumScenarioTextBytes = 4 * 1024 * 1024

    private static let byRecorder = Locked<[ObjectIdentifier: Collected]>([:])

    /// Listens to TextSnapshot; done once, while the test list is built.
    static func installListener() {
        SnapshotEvents.install { event in
            // Without a report (`BDD_REPORT_DIR=off`) nobody would take them.
            guard let run = RunningScenario.ofCaller, !run.isExpired, ReportObserver.shared.store != nil else { return }
            var record = SnapshotRecord(event)
            byRecorder.withLock { all in
                var collected = all[ObjectIdentifier(run.recorder)] ?? Collected()
                record.actual = record.actual.map { clip($0, path: record.path) }
                record.reference = record.reference.map { clip($0, path: record.path) }
                let bytes = (record.actual?.utf8.count ?? 0) + (record.reference?.utf8.count ?? 0)
                if collected.textBytes + bytes > maximumScenarioTextBytes {
                    let note =
                        "(not kept: this scenario's snapshots passed \(maximumScenarioTextBytes / 1024 / 1024) MB of text; see \(record.path))"
                    record.actual = note
                    record.reference = record.reference == nil ? nil : note
                } else {
                    collected.textBytes += bytes
                }
                collected.records.append(record)
                all[ObjectIdentifier(run.recorder)] = collected
            }
        }
    }

    /// The snapshots `recorder`'s scenario asserted, forgotten afterwards; nil when it took none.
    static func take(for recorder: ScenarioRecorder) -> [SnapshotRecord]? {
        byRecorder.withLock { $0.removeValue(forKey: ObjectIdentifier(recorder))?.records }
    }

    /// `text`, or its first lines up to ``maximumTextBytes`` and a line saying it was cut.
    static func clip(_ text: String, path: String) -> String {
        let bytes = text.utf8
        guard bytes.count > maximumTextBytes else { return text }
        let limit = bytes.index(bytes.startIndex, offsetBy: maximumTextBytes)
        let end = bytes[..<limit].lastIndex(of: UInt8(ascii: "\n")).map { bytes.index(after: $0) } ?? limit
        return String(decoding: bytes[..<end], as: UTF8.self)
            + "… (cut at \(maximumTextBytes / 1024) KB of \(bytes.count) bytes; the whole text is in \(path))\n"
    }
}

extension SnapshotRecord {
    init(_ event: SnapshotEvent) {
        let outcome: Outcome =
            switch event.outcome {
            case .matched: .matched
            case .mismatched: .mismatched
            case .recorded: .recorded
            case .missing: .missing
            case .failed: .failed
            }
        self.init(
            name: event.name, identifier: event.identifier, path: event.referencePath, outcome: outcome,
            actual: event.actual, reference: event.reference, summary: event.summary,
            screen: event.screen.map {
                Screen(
                    language: $0.language, rightToLeft: $0.rightToLeft, device: $0.device, orientation: $0.orientation,
                    columns: $0.columns, rows: $0.rows)
            },
            line: event.line)
    }
}
