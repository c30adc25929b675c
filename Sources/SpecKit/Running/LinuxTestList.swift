#if !canImport(ObjectiveC)
import XCTest

// SwiftPM's generated Linux test list calls `testCase(Spec.__allTests__Spec)`
// for every class that declares a `test…` method. These overloads are more
// specific than XCTest's for `FeatureSpec` subclasses, so, once a test target
// re-exports SpecKit (`@_exported import SpecKit`), the generated code expands
// each spec into one entry per scenario. Ordinary test methods declared next
// to `testFeature()` are kept.

/// Expands a spec into one XCTest entry per scenario (throwing methods form).
public func testCase<T: FeatureSpec>(_ allTests: [(String, (T) -> () throws -> Void)]) -> XCTestCaseEntry {
    FeatureSpec.linuxEntry(for: T.self, declared: allTests.map { name, method in (name, { try method($0)() }) })
}

/// Expands a spec into one XCTest entry per scenario (plain methods form).
public func testCase<T: FeatureSpec>(_ allTests: [(String, (T) -> () -> Void)]) -> XCTestCaseEntry {
    FeatureSpec.linuxEntry(for: T.self, declared: allTests.map { name, method in (name, { method($0)() }) })
}

extension FeatureSpec {
    static func linuxEntry<T: FeatureSpec>(
        for type: T.Type, declared: [(String, (T) throws -> Void)]
    ) -> XCTestCaseEntry {
        ReportObserver.installIfNeeded()
        let ordinary = declared.filter { $0.0 != "testFeature" }
        let reserved = Set(ordinary.map(\.0))
        let scenarios = onMainActor { UncheckedSendable(T.selectedScenarios(reservedNames: reserved)) }.value
        var tests: [(String, XCTestCaseClosure)] = scenarios.map { scenario in
            (
                scenario.testName,
                { testCase in
                    let spec = UncheckedSendable(testCase as! FeatureSpec)
                    try onMainActor { try ScenarioRunner.run(scenario, in: spec.value) }
                }
            )
        }
        tests += ordinary.map { name, body in
            (name, { testCase in try body(testCase as! T) })
        }
        return (type, tests)
    }
}
#endif
