import Foundation

/// One scenario's outcome: the JSON fragment written per scenario and the
/// unit the living document and JUnit file are merged from.
struct ScenarioReport: Codable, Sendable, Equatable {
    enum Status: String, Codable, Sendable {
        case passed, failed, skipped, pending
    }

    struct Group: Codable, Sendable, Equatable {
        var kind: String
        var title: String
        var narrative: String?
        var tags: [String]
    }

    static let formatVersion = 1

    var formatVersion: Int = ScenarioReport.formatVersion
    var runID: String
    /// Module-qualified class, e.g. `Specs.LoginFeature`.
    var specClass: String
    var feature: Group
    var featureIndex: Int
    /// Rules, describes and contexts between the feature and the scenario.
    var path: [Group]
    var keyword: String
    var title: String
    var testName: String
    var tags: [String]
    var example: [ExampleField]?
    var ordinal: Int
    var status: Status
    /// Why the scenario is pending or was skipped.
    var reason: String?
    var duration: Double
    var steps: [StepResult]
    var failures: [FailureRecord]
    var file: String
    var line: Int
    var finishedAt: Date
    /// The text snapshots the scenario asserted, in order (nil when it took none).
    var snapshots: [SnapshotRecord]? = nil
}

extension ScenarioReport {
    init(
        recorder: ScenarioRecorder, specClass: String, runID: String, xctestSkipped: Bool,
        xctestFailures: Int, duration: Double, finishedAt: Date = Date()
    ) {
        let scenario = recorder.scenario
        let groups = scenario.group.chain.map {
            Group(kind: $0.kind.rawValue, title: $0.title, narrative: $0.narrative, tags: $0.ownTags)
        }
        let failures = recorder.failures
        let status: Status
        var reason: String?
        if let pending = recorder.pendingReason {
            status = .pending
            reason = pending
        } else if xctestSkipped || recorder.skipReason != nil {
            status = .skipped
            reason = recorder.skipReason
        } else if xctestFailures > 0 || !failures.isEmpty {
            status = .failed
        } else {
            status = .passed
        }
        self.init(
            runID: runID, specClass: specClass, feature: groups[0], featureIndex: scenario.group.featureIndex,
            path: Array(groups.dropFirst()), keyword: scenario.keyword, title: scenario.title,
            testName: scenario.testName, tags: scenario.tags, example: scenario.example, ordinal: scenario.ordinal,
            status: status, reason: reason, duration: duration, steps: recorder.steps, failures: failures,
            file: scenario.site.path, line: Int(scenario.site.line), finishedAt: finishedAt)
        snapshots = ScenarioSnapshots.take(for: recorder)
    }
}
