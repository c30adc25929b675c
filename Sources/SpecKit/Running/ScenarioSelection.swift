import Foundation

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
}
