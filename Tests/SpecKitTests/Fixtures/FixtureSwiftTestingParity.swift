import Foundation
import Testing

// The XCTest fixtures of issue 11's structure (aroundEach, suite hooks, shared behaviours, step
// groups, data tables, focus) and of scenario timeouts, declared a second time as Swift Testing
// features: `SwiftTestingParityRunTests` runs them with `--testing-library swift-testing` and
// expects what `StructureAndFocusRunTests` and `FixtureRunTests` expect under XCTest.

@MainActor
struct FixtureParityStructure: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.parityEnabled else { return }
        FixtureStructureFeature.declare()
    }

    @Test(arguments: await FixtureParityStructure.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@MainActor
struct FixtureParityHooks: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.parityEnabled else { return }
        FixtureHooksFeature.declare()
    }

    @Test(arguments: await FixtureParityHooks.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@MainActor
struct FixtureParityFocus: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.parityEnabled, Fixtures.focusEnabled else { return }
        FixtureFocusFeature.declare()
    }

    @Test(arguments: await FixtureParityFocus.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@MainActor
struct FixtureParityFocusedFeature: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.parityEnabled, Fixtures.focusEnabled else { return }
        FixtureFocusedFeatureFeature.declare()
    }

    @Test(arguments: await FixtureParityFocusedFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@MainActor
struct FixtureParityLateTimeout: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.parityEnabled else { return }
        FixtureLateTimeoutFeature.declare()
    }

    @Test(arguments: await FixtureParityLateTimeout.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

/// Only the suite hooks and a passing scenario, so a failing `afterSuite` is the run's only failure.
@MainActor
struct FixtureParitySuiteHooks: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.parityEnabled, Fixtures.suiteMode != nil else { return }
        Feature("Suite hooks", tags: "fixture") {
            FixtureStructureFeature.suiteHooks()
            Scenario("passes") { Fixtures.trace("suite scenario") }
        }
    }

    @Test(arguments: await FixtureParitySuiteHooks.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}
