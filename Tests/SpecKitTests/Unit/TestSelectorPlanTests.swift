import XCTest

@testable import SpecKit

/// The names under which Apple's XCTest runs scenarios (`TestSelectorPlan`, applied by
/// ObjCRuntimeRegistration.swift on Apple platforms). Both of XCTest's discovery paths and SwiftPM's
/// macOS listing see only these names, so the rules are checked here, on Linux, where the plan is the
/// same Swift code.
final class TestSelectorPlanTests: XCTestCase {
    /// Names as TestNaming produces them, plus the worst a title can hold.
    private let awkwardNames = [
        "The button starts disabled @smoke",
        "same title @fixture", "same title (2) @fixture",
        "login; with valid credentials - fast- yes @fixture",
        "a@b·co is accepted @fixture",
        "ünïcode ✓ (fine)", "日本語のシナリオ", "emoji 🎉 party", "❤️",
        "very long title very long title very long title very long title very long title… @fixture @long-tag",
        "a b", "a-b", "a_b", "a__b", "test_a_b",
        "testFeature", "AndReturnError", "x:y", "x,y", "x/y", "[bracket]", "tab\tsep", "zero\u{200B}width",
        "quote's \"x\"", "…", " ", "",
    ]

    /// SwiftPM on macOS names a test by splitting `-[Class method]` (or `…AndReturnError:]`) on
    /// space, `[`, `]` and `:` and taking the third piece (swiftpm-xctest-helper/main.swift).
    private func swiftPMListedMethod(className: String, selector: String) -> String {
        let pieces = "-[\(className) \(selector)]".split(whereSeparator: { " []:".contains($0) }).map(String.init)
        var method = pieces.count > 2 ? pieces[2] : ""
        if method.hasSuffix("AndReturnError") { method.removeLast("AndReturnError".count) }
        return method
    }

    func testEveryMethodNameIsOneXCTestListsAndSwiftPMCanSelect() {
        let plan = TestSelectorPlan(testNames: awkwardNames)
        XCTAssertEqual(plan.methodNames.count, awkwardNames.count)
        for (name, method) in zip(awkwardNames, plan.methodNames) {
            XCTAssertEqual(TestSelectorPlan.violations(of: method), [], "\(name) → \(method)")
            XCTAssertTrue(method.hasPrefix("test_"), method)
        }
    }

    func testTheOldReadableSelectorsBrokeSwiftPMsMacOSListing() {
        // Before, the selector was the scenario name itself: SwiftPM listed `The` for it.
        XCTAssertEqual(
            swiftPMListedMethod(className: "Specs.LoginFeature", selector: "The button starts disabled @smokeAndReturnError:"), "The")
        XCTAssertFalse(TestSelectorPlan.violations(of: "The button starts disabled @smoke").isEmpty)
    }

    func testNamesStayReadable() {
        XCTAssertEqual(TestSelectorPlan.identifier(for: "The button starts disabled @smoke"), "The_button_starts_disabled_smoke")
        XCTAssertEqual(TestSelectorPlan.identifier(for: "ünïcode ✓ (fine)"), "ünïcode_fine")
        XCTAssertEqual(TestSelectorPlan.identifier(for: "a@b·co is accepted"), "a_b·co_is_accepted")
        XCTAssertEqual(TestSelectorPlan.identifier(for: "日本語のシナリオ"), "日本語のシナリオ")
        XCTAssertEqual(TestSelectorPlan.identifier(for: "zero\u{200B}width"), "zero_width")
        XCTAssertEqual(TestSelectorPlan.identifier(for: "…"), "scenario")
    }

    func testMethodNamesAreUniqueAndAvoidTheClassesOwnMethods() {
        let reserved: Set<String> = ["test_a_b", "testLogin", "setUp"]
        let plan = TestSelectorPlan(testNames: ["a b", "a-b", "a_b", "a__b", "testLogin"], reserved: reserved)
        XCTAssertEqual(plan.methodNames, ["test_a_b_2", "test_a_b_3", "test_a_b_4", "test_a_b_5", "test_testLogin"])
        XCTAssertEqual(Set(plan.methodNames).count, plan.methodNames.count)
        XCTAssertTrue(Set(plan.methodNames).isDisjoint(with: reserved))
    }

    func testNamesAreStableAndLaterScenariosNeverRenameEarlierOnes() {
        let plan = TestSelectorPlan(testNames: awkwardNames)
        XCTAssertEqual(TestSelectorPlan(testNames: awkwardNames).methodNames, plan.methodNames)
        for count in 1...awkwardNames.count {
            let prefix = TestSelectorPlan(testNames: Array(awkwardNames.prefix(count)))
            XCTAssertEqual(prefix.methodNames, Array(plan.methodNames.prefix(count)))
        }
    }

    /// Every form in which a filtered run names a test (XCTest's `-[Module.Class method]`, the
    /// selector, Xcode's `method()`, SwiftPM's listed name passed back through `-XCTest Class/method`)
    /// leads to the scenario that method was made for.
    func testEveryNameAFilteredRunUsesMapsBackToItsScenario() {
        let plan = TestSelectorPlan(testNames: awkwardNames)
        for (index, method) in plan.methodNames.enumerated() {
            let selector = RuntimeTestName.selectorName(forMethod: method)
            XCTAssertEqual(plan.index(ofTestNamed: "-[Specs.LoginFeature \(method)]"), index, method)
            XCTAssertEqual(plan.index(ofTestNamed: method), index, method)
            XCTAssertEqual(plan.index(ofTestNamed: selector), index, method)
            XCTAssertEqual(plan.index(ofTestNamed: method + "()"), index, method)
            let listed = swiftPMListedMethod(className: "Specs.LoginFeature", selector: selector)
            XCTAssertEqual(listed, method)
            XCTAssertEqual(plan.index(ofTestNamed: listed), index, method)
        }
        XCTAssertNil(plan.index(ofTestNamed: "The button starts disabled @smoke"))
        XCTAssertNil(plan.index(ofTestNamed: "testFeature"))
    }

    /// The plan over every scenario name the real Linux test list produces for the fixtures.
    func testThePlanHoldsForEveryListedFixtureScenario() throws {
        let result = try FixtureProcess.run(["--list-tests"])
        XCTAssertEqual(result.exitCode, 0, result.output)
        var byClass: [String: [String]] = [:]
        for line in result.lines where line.hasPrefix("SpecKitTests.Fixture") {
            let parts = line.split(separator: "/", maxSplits: 1).map(String.init)
            byClass[parts[0], default: []].append(parts[1])
        }
        XCTAssertGreaterThan(byClass.count, 5)
        for (className, names) in byClass {
            let plan = TestSelectorPlan(testNames: names)
            XCTAssertEqual(Set(plan.methodNames).count, names.count, className)
            for (index, method) in plan.methodNames.enumerated() {
                XCTAssertEqual(TestSelectorPlan.violations(of: method), [], "\(className)/\(names[index]) → \(method)")
                XCTAssertEqual(plan.index(ofTestNamed: "-[\(className) \(method)]"), index)
            }
        }
    }
}
