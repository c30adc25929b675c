import XCTest

@testable import SpecKit

/// `Feature("…")` without a body (issue 23: a long feature compiles faster written flat) declares
/// the same structure as the closure form: collected here with SpecKit's own collector.
final class FeatureWithoutBodyTests: XCTestCase {
    /// Each collected scenario as "feature index: group path / title [tags]" or its problem.
    private func collect(_ declare: @MainActor () -> Void) -> [String] {
        MainActor.assumeIsolated {
            let collector = SpecCollector(specName: "Probe")
            let previous = SpecCollector.active
            SpecCollector.active = collector
            declare()
            SpecCollector.active = previous
            return collector.scenarios.map { scenario in
                if let problem = scenario.problem { return "problem: \(problem)" }
                let path = scenario.group.chain.map { "\($0.kind.rawValue) \($0.title)" }.joined(separator: " / ")
                let hooks = scenario.group.chain.map { String($0.befores.count) }.joined()
                return "\(scenario.group.featureIndex): \(path) / \(scenario.title) \(scenario.tags) hooks \(hooks)"
            }
        }
    }

    func testAFeatureWithoutABodyCollectsWhatTheClosureFormCollects() {
        let flat = collect {
            Feature("Login", description: "As a reader", tags: "login")
            Background {}
            Scenario("starts disabled", tags: "smoke") {}
            Rule("Passwords") {
                Scenario("too short") {}
            }
            it("says hello") {}
        }
        let closure = collect {
            Feature("Login", description: "As a reader", tags: "login") {
                Background {}
                Scenario("starts disabled", tags: "smoke") {}
                Rule("Passwords") {
                    Scenario("too short") {}
                }
                it("says hello") {}
            }
        }
        XCTAssertEqual(flat, closure)
        XCTAssertEqual(
            flat,
            [
                "0: Feature Login / starts disabled [\"login\", \"smoke\"] hooks 1",
                "0: Feature Login / Rule Passwords / too short [\"login\"] hooks 10",
                "0: Feature Login / says hello [\"login\"] hooks 1",
            ])
    }

    func testTheNextFeatureEndsTheOneWithoutABody() {
        XCTAssertEqual(
            collect {
                Feature("First")
                Scenario("one") {}
                Feature("Second")
                Scenario("two") {}
                Feature("Third") {
                    Scenario("three") {}
                }
                Scenario("outside") {}
            },
            [
                "0: Feature First / one [] hooks 0",
                "1: Feature Second / two [] hooks 0",
                "2: Feature Third / three [] hooks 0",
                "problem: Scenario \"outside\" must be declared inside a Feature",
            ])
    }

    func testAFeatureWithoutABodyInsideAGroupIsAProblem() {
        XCTAssertEqual(
            collect {
                Feature("Outer") {
                    Feature("Inner")
                    Scenario("kept in the outer feature") {}
                }
            },
            [
                "problem: Feature \"Inner\" is declared inside \"Outer\"; declare one Feature per testFeature() body "
                    + "and use Rule, describe or context inside it",
                "0: Feature Outer / kept in the outer feature [] hooks 0",
            ])
    }
}
