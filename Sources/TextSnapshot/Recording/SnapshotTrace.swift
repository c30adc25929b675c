import Foundation
import TestRunObservation

/// What one snapshot check found out on its way, so the report can be told about it afterwards:
/// the file, the text made now and the reference's bytes.
struct SnapshotTrace {
    var name: String?
    var identifier: String?
    var path: String?
    var actual: String?
    var reference: Data?

    /// The event for ``SnapshotEvents``, or nil when the check stopped before it knew its file.
    func event(failure: SnapshotFailure?, screen: SnapshotEvent.Screen?, file: String, line: UInt) -> SnapshotEvent? {
        guard let name, let identifier, let path else { return nil }
        let outcome: SnapshotEvent.Outcome
        switch failure?.kind {
        case nil: outcome = .matched
        case .mismatch: outcome = .mismatched
        case .recorded: outcome = .recorded
        case .missingReference: outcome = .missing
        default: outcome = .failed
        }
        // The reference is kept only when it says something else than the actual text.
        let referenceText = reference.flatMap { data -> String? in
            if let actual, SnapshotRecorder.matches(data, Data(actual.utf8)) { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        return SnapshotEvent(
            name: name, identifier: identifier, referencePath: path, outcome: outcome, actual: actual,
            reference: referenceText, summary: failure?.summary, screen: screen, file: file, line: Int(line))
    }
}
