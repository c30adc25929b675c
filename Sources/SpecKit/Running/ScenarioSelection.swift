import Foundation
import SpecReporting

/// Which collected scenarios run in this process, for both test libraries.
enum ScenarioSelection {
    /// `BDD_TAGS` applied, then `BDD_SCENARIO`. Declaration problems are kept whatever
    /// the filter, so they cannot disappear behind it — except an outline row's, which
    /// has the outline's tags and is filtered like any other scenario.
    static func select(_ scenarios: [ScenarioDefinition]) -> [ScenarioDefinition] {
        let filter = SpecSettings.tagFilter
        let pattern = SpecSettings.scenarioPattern
        return scenarios.filter { scenario in
            if scenario.problem != nil && !scenario.isOutlineRow { return true }
            guard filter.accepts(scenario.tags) else { return false }
            guard let pattern else { return true }
            let name = scenario.testName
            return pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
        }
    }

    /// The scenarios of `selected` (one feature's, already filtered by `select`) that belong to this
    /// process's shard (`BDD_SHARD=i/n`); all of them when the run is not sharded. The others are not
    /// registered or listed at all: they are another shard's, not skipped. Called by both test
    /// libraries (Linux list, Apple runtime registration, Swift Testing arguments).
    static func shard(_ selected: [ScenarioDefinition], suite: String, shard: Shard? = SpecSettings.shard)
        -> [ScenarioDefinition]
    {
        guard let shard else { return selected }
        return shard.select(selected, group: suite) { suite + "/" + $0.testName }
    }

    /// `select`, focus noted, then `shard`: what a feature contributes to this process. Focus sees
    /// the whole selection, so a focused scenario in another shard still focuses this one's run.
    @MainActor
    static func scenariosToRun(_ all: [ScenarioDefinition], of feature: Any.Type, suite: String) -> [ScenarioDefinition] {
        let selected = select(all)
        Focus.note(selected, of: feature)
        return shard(selected, suite: suite)
    }
}
