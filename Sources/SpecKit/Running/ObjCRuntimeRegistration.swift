#if canImport(ObjectiveC)
import Foundation
import ObjectiveC
import XCTest

// Apple platforms only; written against the documented runtime API
// (`class_addMethod`, `imp_implementationWithBlock`) and not run on Linux CI.

extension FeatureSpec {
    @MainActor private static var registered: [ObjectIdentifier: [String: ScenarioDefinition]] = [:]

    /// Adds one instance method per selected scenario, once per class.
    @discardableResult
    static func registerScenarioMethods() -> [ScenarioDefinition] {
        onMainActor {
            ReportObserver.installIfNeeded()
            let scenarios = selectedScenarios()
            if registered[ObjectIdentifier(self)] != nil { return scenarios }
            var byName: [String: ScenarioDefinition] = [:]
            for scenario in scenarios {
                byName[scenario.testName] = scenario
                let block: @convention(block) (FeatureSpec) -> Void = { spec in
                    spec.runRegisteredScenario(scenario)
                }
                class_addMethod(
                    self, NSSelectorFromString(scenario.testName), imp_implementationWithBlock(block), "v@:")
            }
            registered[ObjectIdentifier(self)] = byName
            return scenarios
        }
    }

    @MainActor
    static func registeredScenario(named name: String) -> ScenarioDefinition? {
        registered[ObjectIdentifier(self)]?[name]
    }

    func runRegisteredScenario(_ scenario: ScenarioDefinition) {
        let spec = UncheckedSendable(self)
        do {
            try onMainActor { try ScenarioRunner.run(scenario, in: spec.value) }
        } catch {
            // Only `XCTSkip` escapes the runner. A void runtime method cannot
            // throw it, so the living document records the skip and XCTest
            // shows the test as passed.
        }
    }
}

/// Apple XCTest names tests `-[Module.Class method name]`.
enum RuntimeTestName {
    static func method(of testName: String) -> String {
        guard testName.hasPrefix("-["), testName.hasSuffix("]"), let space = testName.firstIndex(of: " ") else {
            return testName
        }
        return String(testName[testName.index(after: space)..<testName.index(before: testName.endIndex)])
    }
}
#endif
