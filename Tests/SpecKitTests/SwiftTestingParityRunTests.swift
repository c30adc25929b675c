import Foundation
import XCTest

/// Issue 11's structure under Swift Testing behaves as under XCTest: the XCTest fixtures'
/// declarations run again as Swift Testing features (`FixtureSwiftTestingParity.swift`) in a
/// subprocess, and the same traces, failures, focus rules and living document are expected as in
/// `StructureAndFocusRunTests` and `FixtureRunTests`.
final class SwiftTestingParityRunTests: XCTestCase {
    private static let cache = NSLock()
    nonisolated(unsafe) private static var structureRun: FixtureProcess.Result?

    private static func run(
        _ filter: String, environment: [String: String] = [:]
    ) throws -> FixtureProcess.Result {
        try FixtureProcess.run(
            ["--testing-library", "swift-testing", "--filter", filter],
            environment: environment.merging(["SPECKIT_ST_PARITY": "1"]) { first, _ in first })
    }

    /// Structure and hooks fixtures, with traced suite hooks.
    private func structure() throws -> FixtureProcess.Result {
        Self.cache.lock()
        defer { Self.cache.unlock() }
        if let cached = Self.structureRun { return cached }
        let result = try Self.run("FixtureParityStructure|FixtureParityHooks", environment: ["SPECKIT_SUITE_FIXTURES": "trace"])
        Self.structureRun = result
        return result
    }

    private var traces: [String] {
        get throws { try structure().traceLines("TRACE: ") }
    }

    /// Scenarios run one at a time, so one scenario's traces are contiguous: `count` of them from `first`.
    private func traces(from first: String, count: Int) throws -> [String] {
        let all = try traces
        guard let start = all.firstIndex(of: first) else { return [] }
        return Array(all[start...].prefix(count))
    }

    /// The issue Swift Testing printed at `file:line` of the `// @mark:` comment, with its message.
    private func assertIssue(
        _ result: FixtureProcess.Result, mark: String, file: String, message: String, line: UInt = #line
    ) throws {
        let sourceLine = try FixtureProcess.line(of: mark, in: file)
        let issues = result.issues(at: "\(file):\(sourceLine)")
        XCTAssertTrue(
            issues.contains { $0.contains(message) },
            "no issue at \(file):\(sourceLine) saying\n\(message)\nin output:\n\(result.output)", line: line)
    }

    // MARK: aroundEach and hooks

    func testAroundEachNestsAsUnderXCTest() throws {
        let order = [
            "A1-before", "A2-before", "outer-beforeEach", "inner-around-before", "inner-beforeEach",
            "inner-justBeforeEach", "body", "inner-afterEach", "inner-around-after", "outer-afterEach", "A2-after",
            "A1-after",
        ]
        let output = try structure().output
        XCTAssertEqual(try traces(from: order[0], count: order.count), order, output)
        let asyncOrder = [
            "async-outer-before", "async-inner-before", "async-body", "async-afterEach", "async-inner-after",
            "async-outer-after",
        ]
        XCTAssertEqual(try traces(from: asyncOrder[0], count: asyncOrder.count), asyncOrder, output)
    }

    func testHookFailuresAreLabelledIssuesAtTheSpecsLine() throws {
        let result = try structure()
        XCTAssertNotEqual(result.exitCode, 0)
        try assertIssue(
            result, mark: "forgot-run", file: "FixtureStructureFeature.swift",
            message: "[aroundEach] never called run(), so the scenario did not run")
        try assertIssue(
            result, mark: "sync-around-async", file: "FixtureStructureFeature.swift",
            message: "[aroundEach] this scenario is async (an async body or hook), so its aroundEach must be async too")
        try assertIssue(
            result, mark: "throwing-hook", file: "FixtureHooksFeature.swift",
            message: #"[beforeEach] threw error "FixtureSetupError()" (FixtureSetupError)"#)
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN"), result.output)
    }

    func testSuiteHooksRunOncePerProcessAroundEveryScenario() throws {
        let traces = try traces
        let output = try structure().output
        XCTAssertEqual(traces.filter { $0 == "beforeSuite" }.count, 1, output)
        XCTAssertEqual(traces.filter { $0 == "afterSuite" }.count, 1, output)
        XCTAssertEqual(traces.first, "beforeSuite")
        XCTAssertEqual(traces.last, "afterSuite")
    }

    func testAFailingBeforeSuiteFailsEveryScenarioAndAFailingAfterSuiteFailsTheProcess() throws {
        let before = try Self.run("FixtureParityHooks|FixtureParityStructure", environment: ["SPECKIT_SUITE_FIXTURES": "fail-before"])
        XCTAssertEqual(before.exitCode, 1)
        XCTAssertEqual(before.lines.filter { $0.hasSuffix("TRACE: beforeSuite") }.count, 1, before.output)
        let line = try FixtureProcess.line(of: "before-suite", in: "FixtureStructureFeature.swift")
        XCTAssertTrue(
            before.output.contains(
                #"beforeSuite (Tests/SpecKitTests/Fixtures/FixtureStructureFeature.swift:\#(line - 2)) failed: expected to equal <"ready">, got <"setup">"#
            ),
            before.output)
        XCTAssertFalse(before.output.contains("TRACE: body"), "no scenario runs after a failed beforeSuite")

        let after = try Self.run("FixtureParitySuiteHooks", environment: ["SPECKIT_SUITE_FIXTURES": "fail-after"])
        XCTAssertTrue(after.output.contains("TRACE: suite scenario"), after.output)
        XCTAssertEqual(after.exitCode, 1, "a failed afterSuite turns a green run red:\n\(after.output)")
        let afterLine = try FixtureProcess.line(of: "after-suite", in: "FixtureStructureFeature.swift")
        let site = FixtureProcess.path(of: "FixtureStructureFeature.swift")
        XCTAssertTrue(
            after.lines.contains(#"\#(site):\#(afterLine - 2): error: afterSuite : expected to equal <"clean">, got <"teardown">"#),
            after.output)
    }

    // MARK: Data tables, doc strings, step groups

    func testDataTablesDocStringsAndStepGroupsReachTheLivingDocument() throws {
        let result = try structure()
        XCTAssertEqual(
            try traces.filter { $0.hasPrefix("rows: ") || $0.hasPrefix("doc lines: ") },
            ["rows: Ada=ada@example.com, Linus | T=linus@example.com", "doc lines: 3"])
        let doc = result.livingDoc
        XCTAssertTrue(doc.contains("| Linus \\| T | linus@example.com |"), doc)
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
        XCTAssertTrue(doc.contains("  - ✓ **When** they sign in as ada@example.com"), doc)
        XCTAssertTrue(doc.contains("  - ⏭ **Then** they see the stories _(skipped)_"), doc)
        try assertIssue(
            result, mark: "ragged", file: "FixtureStructureFeature.swift",
            message: "[Given a table with a short row] data table row 2 has 1 cell, the header has 2")
    }

    // MARK: Focus

    private func focusRun(_ environment: [String: String]) throws -> FixtureProcess.Result {
        try Self.run(
            "FixtureParityFocus", environment: environment.merging(["SPECKIT_FOCUS_FIXTURES": "1"]) { first, _ in first })
    }

    private func ran(_ result: FixtureProcess.Result) -> Set<String> {
        Set(result.traceLines("TRACE: ran: "))
    }

    func testWhenAnythingIsFocusedOnlyFocusedScenariosRunAndTheRunSaysSo() throws {
        let result = try focusRun(["CI": ""])
        XCTAssertEqual(result.exitCode, 1, "the misplaced step still fails: focus never hides a declaration problem")
        try assertIssue(
            result, mark: "focus-problem", file: "FixtureFocusFeature.swift",
            message: #"Given "a step in the wrong place" is a step: put it inside a Scenario (or a hook), not directly in "Focus""#)
        XCTAssertEqual(ran(result), ["focused it", "inside focused group", "focused scenario", "focused feature"], result.output)
        XCTAssertTrue(result.output.contains("SpecKit: FOCUSED RUN: only 4 focused scenarios of 7 run"), result.output)
        XCTAssertFalse(result.livingDoc.contains("unfocused it"), "unfocused scenarios stay out of the report")
        XCTAssertTrue(result.livingDoc.contains("a focused scenario"), result.livingDoc)
    }

    func testAFocusedSpecFailsTheRunOnCIUnlessAllowed() throws {
        let refused = try focusRun(["CI": "true"])
        XCTAssertEqual(refused.exitCode, 1, refused.output)
        XCTAssertTrue(refused.output.contains("SpecKit: CI is set: focused scenarios FAIL this run"), refused.output)
        try assertIssue(
            refused, mark: "focused-it", file: "FixtureFocusFeature.swift",
            message: "focused scenario on CI: `fit`/`fScenario`/`fdescribe`/`fcontext`/`fFeature` is for local debugging; "
                + "remove the `f` (or set BDD_ALLOW_FOCUS=1 to allow a focused run on CI)")
        XCTAssertEqual(ran(refused), [], "refused scenarios do not run")

        let allowed = try focusRun(["CI": "true", "BDD_ALLOW_FOCUS": "1"])
        XCTAssertFalse(allowed.output.contains("focused scenario on CI"), allowed.output)
        XCTAssertEqual(ran(allowed).count, 4, allowed.output)
    }

    // MARK: Timeouts

    func testATimedOutAsyncScenarioIsAnIssueAndTheRunGoesOn() throws {
        let result = try Self.run("FixtureParityLateTimeout", environment: ["BDD_SCENARIO_TIMEOUT": "0.3"])
        XCTAssertEqual(result.exitCode, 1, result.output)
        XCTAssertTrue(result.output.contains("scenario did not finish within 300 ms (BDD_SCENARIO_TIMEOUT)"), result.output)
        XCTAssertFalse(result.output.contains("expected to equal <2>, got <1>"), "no later step runs:\n\(result.output)")
        XCTAssertTrue(result.output.contains("SpecKit: living document "), result.output)
        XCTAssertTrue(result.livingDoc.contains("the next scenario"), result.livingDoc)
    }
}

extension FixtureProcess.Result {
    /// What follows `marker` on each line that has it (Swift Testing may print on the same line).
    func traceLines(_ marker: String) -> [String] {
        lines.compactMap { line in line.range(of: marker).map { String(line[$0.upperBound...]).trimmed } }
    }

    /// Swift Testing's `recorded an issue … at File.swift:line:column` lines with the message lines
    /// that follow each.
    func issues(at location: String) -> [String] {
        var found: [String] = []
        let lines = lines
        for (index, line) in lines.enumerated() where line.contains("recorded an issue") && line.contains(location + ":") {
            var text = line
            for next in lines[(index + 1)...] {
                if next.contains("recorded an issue") || next.hasPrefix("◇") || next.hasPrefix("✔") || next.hasPrefix("✘")
                    || next.hasPrefix("􀢄")
                {
                    break
                }
                text += "\n" + next
            }
            found.append(text)
        }
        return found
    }
}

extension StringProtocol {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
