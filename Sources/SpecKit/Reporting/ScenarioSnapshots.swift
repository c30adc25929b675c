import Foundation
import TestRunObservation

/// Collects what TextSnapshot reports through ``SnapshotEvents`` for the scenario running at the
/// time (the caller's, as failures are charged), until the scenario's report is made. Keyed by the
/// scenario's recorder, which lives exactly as long as one run of one scenario.
enum ScenarioSnapshots {
    private static let byRecorder = Locked<[ObjectIdentifier: [SnapshotRecord]]>([:])

    /// Listens to TextSnapshot; done once, while the test list is built.
    static func installListener() {
        SnapshotEvents.install { event in
            // Without a report (`BDD_REPORT_DIR=off`) nobody would take them.
            guard let run = RunningScenario.ofCaller, !run.isExpired, ReportObserver.shared.store != nil else { return }
            let record = SnapshotRecord(event)
            byRecorder.withLock { $0[ObjectIdentifier(run.recorder), default: []].append(record) }
        }
    }

    /// The snapshots `recorder`'s scenario asserted, forgotten afterwards; nil when it took none.
    static func take(for recorder: ScenarioRecorder) -> [SnapshotRecord]? {
        byRecorder.withLock { $0.removeValue(forKey: ObjectIdentifier(recorder)) }
    }
}

extension SnapshotRecord {
    init(_ event: SnapshotEvent) {
        let outcome: Outcome = switch event.outcome {
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
                Screen(language: $0.language, rightToLeft: $0.rightToLeft, device: $0.device, orientation: $0.orientation,
                       columns: $0.columns, rows: $0.rows)
            },
            line: event.line)
    }
}
