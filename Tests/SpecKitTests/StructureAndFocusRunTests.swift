import Foundation
import XCTest

/// aroundEach, beforeSuite/afterSuite, shared behaviours, step groups, data tables and focus, each
/// run in a subprocess of this test binary (see `FixtureProcess`) so focus and suite hooks never
/// touch the real run.
final class StructureAndFocusRunTests: XCTestCase {
    private static let cache = NSLock()
    nonisolated(unsafe) private static var structureRun: FixtureProcess.Result?

    private func structure() throws -> FixtureProcess.Result {
        Self.cache.lock()
        defer { Self.cache.unlock() }
        if let cached = Self.structureRun { return cached }
        let result = try FixtureProcess.run(["SpecKitTests.FixtureStructureFeature"])
        Self.structureRun = result
        return result
    }

    private func assertFailure(
        _ result: FixtureProcess.Result, test: String, mark: String, file: String, message: String, line: UInt = #line
    ) throws {
        let sourceLine = try FixtureProcess.line(of: mark, in: file)
        let expected = "\(FixtureProcess.path(of: file)):\(sourceLine): error: \(test) : \(message)"
        XCTAssertTrue(result.lines.contains(expected), "missing line:\n\(expected)\nin output:\n\(result.output)", line: line)
    }

    // MARK: aroundEach

    func testAroundEachNestsOuterAroundInnerAndWrapsTheGroupsHooks() throws {
        XCTAssertEqual(
            try structure().traces(ofTest: "wraps in order"),
            [
                "A1-before", "A2-before", "outer-beforeEach", "inner-around-before", "inner-beforeEach",
                "inner-justBeforeEach", "body", "inner-afterEach", "inner-around-after", "outer-afterEach", "A2-after",
                "A1-after",
            ])
    }

    func testAsyncAroundEachAwaitsTheScenarioInsideIt() throws {
        XCTAssertEqual(
            try structure().traces(ofTest: "awaits around the body"),
            [
                "async-outer-before", "async-inner-before", "async-body", "async-afterEach", "async-inner-after",
                "async-outer-after",
            ])
    }

    func testAroundEachMisuseFailsWithTheReason() throws {
        let result = try structure()
        let file = "FixtureStructureFeature.swift"
        try assertFailure(
            result, test: "FixtureStructureFeature.broken arounds - never runs - has a body that never runs @fixture",
            mark: "forgot-run", file: file, message: "[aroundEach] never called run(), so the scenario did not run")
        try assertFailure(
            result,
            test: "FixtureStructureFeature.broken arounds - sync around an async scenario - cannot be wrapped synchronously @fixture",
            mark: "sync-around-async", file: file,
            message: "[aroundEach] this scenario is async (an async body or hook), so its aroundEach must be async too: "
                + "write `aroundEach { run async in … await run() … }`")
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN"), result.output)
    }

    // MARK: beforeSuite / afterSuite

    func testSuiteHooksRunOncePerProcessAroundEveryTest() throws {
        let result = try FixtureProcess.run(
            ["SpecKitTests.FixtureStructureFeature,SpecKitTests.FixtureHooksFeature"],
            environment: ["SPECKIT_SUITE_FIXTURES": "trace"])
        let traces = result.lines.filter { $0.hasPrefix("TRACE: ") }
        XCTAssertEqual(traces.filter { $0 == "TRACE: beforeSuite" }.count, 1, result.output)
        XCTAssertEqual(traces.filter { $0 == "TRACE: afterSuite" }.count, 1, result.output)
        XCTAssertEqual(traces.first, "TRACE: beforeSuite", "before the first scenario's first hook")
        XCTAssertEqual(traces.last, "TRACE: afterSuite", "after the last scenario")
        // Inside the run's last test, a scenario: after it started, before XCTest reports it finished.
        let lastStarted = result.lines.lastIndex { $0.hasPrefix("Test Case '") && $0.contains("' started at ") } ?? 0
        let lastFinished = result.lines.lastIndex { $0.hasPrefix("Test Case '") } ?? 0
        let after = result.lines.firstIndex(of: "TRACE: afterSuite") ?? -1
        XCTAssertGreaterThan(after, lastStarted, "afterSuite runs once every other test finished")
        XCTAssertLessThan(after, lastFinished, "afterSuite runs within the last test")
    }

    func testAFailingBeforeSuiteFailsEveryScenario() throws {
        let result = try FixtureProcess.run(
            ["SpecKitTests.FixtureTagsFeature,SpecKitTests.FixtureStructureFeature"],
            environment: ["SPECKIT_SUITE_FIXTURES": "fail-before"])
        XCTAssertEqual(result.exitCode, 1)
        let line = try FixtureProcess.line(of: "before-suite", in: "FixtureStructureFeature.swift")
        let failures = result.lines.filter {
            $0.contains(": error: FixtureTagsFeature.")
                && $0.contains(
                    #"beforeSuite (Tests/SpecKitTests/Fixtures/FixtureStructureFeature.swift:\#(line - 2)) failed: expected to equal <"ready">, got <"setup">"#
                )
        }
        XCTAssertEqual(failures.count, 5, result.output)
        XCTAssertEqual(result.lines.filter { $0 == "TRACE: beforeSuite" }.count, 1)
    }

    /// Xcode and app-hosted iOS runners judge a run by its test results, not the exit status, so a
    /// failing afterSuite must fail a test: the run's last one, when that is a scenario.
    func testAFailingAfterSuiteFailsTheLastScenarioOfTheRun() throws {
        let result = try FixtureProcess.run(
            ["SpecKitTests.FixtureTagsFeature"], environment: ["SPECKIT_SUITE_FIXTURES": "fail-after"])
        XCTAssertTrue(result.output.contains("Executed 5 tests, with 1 failure"), result.output)
        XCTAssertEqual(result.exitCode, 1, "a failed afterSuite turns a green run red")
        let line = try FixtureProcess.line(of: "after-suite", in: "FixtureStructureFeature.swift")
        let site = FixtureProcess.path(of: "FixtureStructureFeature.swift")
        let lastTest = result.lines.last { $0.hasPrefix("Test Case '") && $0.contains("' started at ") } ?? ""
        XCTAssertTrue(lastTest.contains("untagged"), "the fixture's last scenario runs last:\n\(result.output)")
        let failures = result.lines.filter { $0.contains(": error: FixtureTagsFeature.") }
        XCTAssertEqual(failures.count, 1, result.output)
        XCTAssertTrue(failures.first?.hasPrefix("\(site):\(line - 2): error: FixtureTagsFeature.") ?? false, result.output)
        XCTAssertTrue(failures.first?.contains("untagged") ?? false, "charged to the last scenario:\n\(result.output)")
        XCTAssertTrue(
            failures.first?.hasSuffix(#"afterSuite : expected to equal <"clean">, got <"teardown">"#) ?? false, result.output)
        XCTAssertTrue(
            result.lines.contains { $0.hasPrefix("Test Case '") && $0.contains("untagged") && $0.contains("' failed") },
            result.output)
    }

    /// When the run's last test is a plain XCTest method, afterSuite runs after the bundle finished:
    /// no test is left to fail, so the failure is printed and the exit status is 1.
    func testAFailingAfterSuiteAfterAPlainLastTestIsPrintedAndFailsTheProcess() throws {
        let result = try FixtureProcess.run(
            ["SpecKitTests.FixtureFailuresFeature"], environment: ["SPECKIT_SUITE_FIXTURES": "fail-after"])
        let lastTest = result.lines.last { $0.hasPrefix("Test Case '") } ?? ""
        XCTAssertTrue(lastTest.contains("testOrdinaryMethodStillRuns") && lastTest.contains("passed"), result.output)
        XCTAssertEqual(result.exitCode, 1)
        let line = try FixtureProcess.line(of: "after-suite", in: "FixtureStructureFeature.swift")
        let site = FixtureProcess.path(of: "FixtureStructureFeature.swift")
        XCTAssertTrue(
            result.lines.contains(
                #"\#(site):\#(line - 2): error: afterSuite : expected to equal <"clean">, got <"teardown">"#),
            result.output)
        XCTAssertFalse(result.lines.contains { $0.contains("error: FixtureFailuresFeature.") && $0.contains("afterSuite") })
    }

    // MARK: Shared behaviours and step groups

    func testSharedBehavioursDeclareTheirScenariosWithEachContext() throws {
        let result = try structure()
        XCTAssertEqual(result.traces(ofTest: "something edible - can be eaten"), ["edible: an apple"])
        XCTAssertEqual(result.traces(ofTest: "a fruit - has a name"), ["fruit: a pear"])
        try assertFailure(
            result,
            test: "FixtureStructureFeature.shared behaviours - no such examples - no such examples (unknown shared examples) @fixture",
            mark: "unknown-shared", file: "FixtureStructureFeature.swift",
            message:
                #"itBehavesLike("no such examples"): no sharedExamples named "no such examples" were declared before it (known: "a fruit")"#
        )
    }

    func testStepGroupsRunAsOneStepWithTheirStepsNestedInTheLivingDocument() throws {
        let result = try structure()
        XCTAssertEqual(
            result.traces(ofTest: "Reusing a step group"),
            ["group: login screen", "group: sign in ada@example.com", "after group"])
        let doc = result.livingDoc
        XCTAssertTrue(
            doc.contains(
                """
                - ✓ **Given** a signed-in reader
                """), doc)
        XCTAssertTrue(doc.contains("  - ✓ **When** they sign in as ada@example.com"), doc)
        XCTAssertTrue(doc.contains("- ✗ **Given** a reader whose login fails"), doc)
        XCTAssertTrue(doc.contains("  - ✗ **When** they sign in"), doc)
        XCTAssertTrue(doc.contains("  - ⏭ **Then** they see the stories _(skipped)_"), doc)
        XCTAssertTrue(doc.contains("- ⏭ **Then** nothing else runs _(skipped)_"), doc)
        try assertFailure(
            result, test: "FixtureStructureFeature.A failing step inside a group @fixture", mark: "group-failure",
            file: "FixtureStructureFeature.swift", message: #"[When they sign in] expected to equal <"ok">, got <"denied">"#)
    }

    // MARK: Data tables and doc strings

    func testDataTablesAndDocStringsReachTheStepAndTheLivingDocument() throws {
        let result = try structure()
        XCTAssertEqual(
            result.traces(ofTest: "Data tables and doc strings"),
            ["rows: Ada=ada@example.com, Linus | T=linus@example.com", "doc lines: 3"])
        let doc = result.livingDoc
        XCTAssertTrue(
            doc.contains(
                """
                - ✓ **Given** these readers — <1 ms

                  | name | email |
                  | --- | --- |
                  | Ada | ada@example.com |
                  | Linus \\| T | linus@example.com |

                """) || doc.contains("| Linus \\| T | linus@example.com |"), doc)
        XCTAssertTrue(
            doc.contains(
                """
                  ```
                  {
                    "title": "Launch"
                  }
                  ```
                """), doc)
        XCTAssertTrue(doc.contains("  | total |\n  | --- |\n  | 2 |"), doc)
    }

    func testARaggedDataTableFailsItsStepBeforeTheBodyRuns() throws {
        let result = try structure()
        try assertFailure(
            result, test: "FixtureStructureFeature.A ragged data table @fixture", mark: "ragged",
            file: "FixtureStructureFeature.swift",
            message: "[Given a table with a short row] data table row 2 has 1 cell, the header has 2")
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN ragged"))
    }

    // MARK: Focus

    private let focusClasses = ["SpecKitTests.FixtureFocusFeature,SpecKitTests.FixtureFocusedFeatureFeature"]

    func testWhenAnythingIsFocusedOnlyFocusedScenariosRunAndTheRunSaysSo() throws {
        let result = try FixtureProcess.run(focusClasses, environment: ["SPECKIT_FOCUS_FIXTURES": "1", "CI": ""])
        XCTAssertEqual(result.exitCode, 1, "the misplaced step still fails: focus never hides a declaration problem")
        try assertFailure(
            result, test: "FixtureFocusFeature.Given a step in the wrong place (misplaced step) @fixture", mark: "focus-problem",
            file: "FixtureFocusFeature.swift",
            message: #"Given "a step in the wrong place" is a step: put it inside a Scenario (or a hook), not directly in "Focus""#)
        let ran = result.lines.filter { $0.hasPrefix("TRACE: ran: ") }.map { String($0.dropFirst("TRACE: ran: ".count)) }
        XCTAssertEqual(ran, ["focused it", "inside focused group", "focused scenario", "focused feature"])
        XCTAssertTrue(result.output.contains("Executed 7 tests, with 2 tests skipped and 1 failure"), result.output)
        XCTAssertTrue(result.output.contains("SpecKit: FOCUSED RUN: only 4 focused scenarios of"), result.output)
        XCTAssertTrue(
            result.lines.contains(
                "SpecKit:   focused: a focused it @fixture (Tests/SpecKitTests/Fixtures/FixtureFocusFeature.swift:\(try FixtureProcess.line(of: "focused-it", in: "FixtureFocusFeature.swift")))"
            ),
            result.output)
        XCTAssertTrue(result.output.contains("Test skipped - not focused: other scenarios are focused"), result.output)
        XCTAssertFalse(result.livingDoc.contains("unfocused it"), "unfocused scenarios stay out of the report")
        XCTAssertTrue(result.livingDoc.contains("a focused scenario"), result.livingDoc)
    }

    func testAFocusedSpecFailsTheRunOnCIUnlessAllowed() throws {
        let refused = try FixtureProcess.run(focusClasses, environment: ["SPECKIT_FOCUS_FIXTURES": "1", "CI": "true"])
        XCTAssertEqual(refused.exitCode, 1, refused.output)
        XCTAssertTrue(refused.output.contains("Executed 7 tests, with 2 tests skipped and 5 failures"), refused.output)
        XCTAssertTrue(
            refused.output.contains(
                "focused scenario on CI: `fit`/`fScenario`/`fdescribe`/`fcontext`/`fFeature` is for local debugging; "
                    + "remove the `f` (or set BDD_ALLOW_FOCUS=1 to allow a focused run on CI)"), refused.output)
        XCTAssertTrue(refused.output.contains("SpecKit: CI is set: focused scenarios FAIL this run"), refused.output)
        XCTAssertFalse(refused.output.contains("TRACE: ran:"), "refused scenarios do not run")

        let allowed = try FixtureProcess.run(
            focusClasses, environment: ["SPECKIT_FOCUS_FIXTURES": "1", "CI": "true", "BDD_ALLOW_FOCUS": "1"])
        XCTAssertTrue(allowed.output.contains("Executed 7 tests, with 2 tests skipped and 1 failure"), allowed.output)
        XCTAssertFalse(allowed.output.contains("focused scenario on CI"), allowed.output)
        XCTAssertEqual(allowed.lines.filter { $0.hasPrefix("TRACE: ran: ") }.count, 4)
    }

    func testWithoutFocusNothingIsSkippedOrAnnounced() throws {
        let result = try FixtureProcess.run(["SpecKitTests.FixtureTagsFeature"], environment: ["CI": "true"])
        XCTAssertEqual(result.exitCode, 0, result.output)
        XCTAssertFalse(result.output.contains("FOCUSED RUN"), result.output)
        XCTAssertTrue(result.output.contains("Executed 5 tests, with 0 failures"), result.output)
    }
}
