import Foundation

/// Focus (`fit`, `fScenario`, `fdescribe`, `fcontext`, `fFeature`): when any selected scenario
/// in the test process is focused, only focused ones run; the others are skipped and left out of
/// the living document. The first scenario to run prints a banner naming the focused ones. On CI
/// (`CI` truthy) focused scenarios fail unless `BDD_ALLOW_FOCUS=1`, so focus is never merged by
/// accident.
@MainActor
enum Focus {
    private static var selected: [ObjectIdentifier: [ScenarioDefinition]] = [:]
    private static var announced = false

    /// Remembers the scenarios a spec class (XCTest) or feature type (Swift Testing) contributes
    /// to this run. Both test libraries list every test before running one, so focus is known
    /// process-wide before the first scenario runs.
    static func note(_ scenarios: [ScenarioDefinition], of specType: Any.Type) {
        selected[ObjectIdentifier(specType)] = scenarios
        activeCache = nil
    }

    /// Computed once per change of `selected`: `decide` runs for every scenario (10,000 in
    /// `make bench-specs`), and scanning all of them each time would be quadratic.
    private static var activeCache: Bool?

    static var focusedScenarios: [ScenarioDefinition] {
        selected.values.joined().filter(\.focused).sorted { ($0.site.path, $0.site.line) < ($1.site.path, $1.site.line) }
    }

    static var isActive: Bool {
        if let activeCache { return activeCache }
        let active = selected.values.contains { $0.contains(where: \.focused) }
        activeCache = active
        return active
    }

    /// What to do with `scenario` in this run.
    enum Decision: Equatable {
        case run
        /// Another scenario is focused: skip this one.
        case skipUnfocused
        /// Focused, but this is CI without `BDD_ALLOW_FOCUS=1`.
        case refuseOnCI(String)
    }

    static func decide(
        _ scenario: ScenarioDefinition, isCI: Bool = SpecSettings.isCI,
        allowFocus: Bool = SpecSettings.allowFocus
    ) -> Decision {
        guard isActive else { return .run }
        announceOnce(isCI: isCI, allowFocus: allowFocus)
        // A declaration problem is never hidden, not even by focus.
        if !scenario.focused { return scenario.problem == nil ? .skipUnfocused : .run }
        if isCI && !allowFocus {
            return .refuseOnCI(
                "focused scenario on CI: `fit`/`fScenario`/`fdescribe`/`fcontext`/`fFeature` is for local debugging; "
                    + "remove the `f` (or set BDD_ALLOW_FOCUS=1 to allow a focused run on CI)")
        }
        return .run
    }

    private static func announceOnce(isCI: Bool, allowFocus: Bool) {
        guard !announced else { return }
        announced = true
        let focused = focusedScenarios
        let total = selected.values.reduce(0) { $0 + $1.count }
        var lines = [
            "",
            "SpecKit: ************************************************************",
            "SpecKit: FOCUSED RUN: only \(focused.count) focused scenario\(focused.count == 1 ? "" : "s") of \(total) run; "
                + "\(total - focused.count) are skipped (fit / fScenario / fdescribe / fcontext / fFeature).",
        ]
        for scenario in focused.prefix(20) {
            lines.append(
                "SpecKit:   focused: \(scenario.testName) (\(DisplayPath.relativeToCurrentDirectory(scenario.site.path)):\(scenario.site.line))"
            )
        }
        if focused.count > 20 { lines.append("SpecKit:   … and \(focused.count - 20) more") }
        if isCI && !allowFocus {
            lines.append("SpecKit: CI is set: focused scenarios FAIL this run (BDD_ALLOW_FOCUS=1 allows them).")
        }
        lines.append("SpecKit: ************************************************************")
        let text = lines.joined(separator: "\n") + "\n"
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
