import Foundation
import SpecReporting

extension ScenarioReport {
    /// The report of the scenario `recorder` watched, tagged with this process's shard (`BDD_SHARD`),
    /// with the text snapshots it asserted.
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
            file: scenario.site.path, line: Int(scenario.site.line), finishedAt: finishedAt,
            shard: SpecSettings.shard?.description)
        snapshots = ScenarioSnapshots.take(for: recorder)
    }
}
