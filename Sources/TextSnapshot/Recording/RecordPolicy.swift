import Foundation
import RehearsalSettings

/// Decides the record mode of one assertion and whether a request to record is refused on CI.
public struct RecordPolicy: Sendable, Equatable {
    /// The mode that applies.
    public var mode: RecordMode
    /// Who chose it: `record: argument`, `withSnapshotRecording`, `TEXT_SNAPSHOT_RECORD`, `default`.
    public var source: String
    /// Whether the environment looks like CI.
    public var isCI: Bool
    /// Set when a record request was refused because of CI; the assertion fails with this message.
    public var refusal: String?

    /// Resolves the mode from the call, the scope and the environment.
    /// Throws a ``SnapshotFailure`` for an unknown `TEXT_SNAPSHOT_RECORD` value.
    public static func resolve(call: RecordMode?, scope: RecordMode?, environment: [String: String]) throws(SnapshotFailure) -> RecordPolicy
    {
        // `CI`, else a CI provider's own variable (Xcode Cloud, GitHub Actions, Jenkins, …), plain or prefixed.
        let ci = RehearsalSettings.lookUp("CI", in: environment)?.value
        let isCI = ci.map(isTruthy) ?? (CIDetection.provider(in: environment) != nil)
        let allowOnCI = isTruthy(environment["TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI"])
        var requested: (RecordMode, String)?
        if let call {
            requested = (call, "record: argument")
        } else if let scope {
            requested = (scope, "withSnapshotRecording")
        } else {
            for name in ["TEXT_SNAPSHOT_RECORD", "SNAPSHOT_TESTING_RECORD"] {
                guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { continue }
                guard let mode = RecordMode(rawValue: raw.lowercased()) else {
                    throw SnapshotFailure(
                        kind: .configuration,
                        message: "\(name)=\(raw) is not a record mode; use one of never, missing, failed, all")
                }
                requested = (mode, name)
                break
            }
        }
        guard let (mode, source) = requested else {
            return RecordPolicy(mode: isCI ? .never : .missing, source: isCI ? "default on CI" : "default", isCI: isCI, refusal: nil)
        }
        if isCI && !allowOnCI && mode != .never {
            let refusal =
                "record mode .\(mode.rawValue) was requested by \(source) but CI is set; refusing to write references "
                + "(set TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI=1 for a recording job)"
            return RecordPolicy(mode: .never, source: source, isCI: true, refusal: refusal)
        }
        return RecordPolicy(mode: mode, source: source, isCI: isCI, refusal: nil)
    }

    /// `1`, `true`, `yes`, `on` (any case) are true; anything else, including unset, is false.
    public static func isTruthy(_ value: String?) -> Bool {
        guard let value = value?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }
}
