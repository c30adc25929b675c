import Foundation
import XCTest

/// SpecKit under Swift Testing, seen from outside: the fixture feature run by this binary with
/// `--testing-library swift-testing` in a subprocess.
final class SwiftTestingRunTests: XCTestCase {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: FixtureProcess.Result?

    private func fixtureRun() throws -> FixtureProcess.Result {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let cached = Self.cached { return cached }
        let result = try FixtureProcess.run(
            ["--testing-library", "swift-testing", "--filter", "FixtureSwiftTesting"])
        Self.cached = result
        return result
    }

    func testEveryScenarioAndOutlineRowIsATestCaseNamedByItsTitle() throws {
        let result = try fixtureRun()
        for title in [
            "a passing scenario @fixture", "an expectation fails at its line @fixture @smoke",
            "row 1 runs @fixture", "row 2 runs @fixture",
        ] {
            XCTAssertTrue(result.output.contains("→ \(title)"), "no test case for \(title):\n\(result.output)")
        }
        XCTAssertTrue(result.output.contains("TRACE: RAN row 1"), result.output)
        XCTAssertTrue(result.output.contains("TRACE: RAN row 2"), result.output)
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN"), result.output)
    }

    func testFailuresAreSwiftTestingIssuesAtTheSpecsLine() throws {
        let result = try fixtureRun()
        XCTAssertNotEqual(result.exitCode, 0)
        let file = "FixturePapercutsFeature.swift"
        for (mark, message) in [
            ("st-expect", "[Then the total is 41] expected to equal <41>, got <40>"),
            ("st-observer", "[Then two were expected] expected 2 values, got 1: <[1]>"),
            ("st-decode", "[Then the JSON decodes] could not decode Dictionary<String, Int>: type mismatch (Int) at a"),
            ("st-eventually", "[Then the total reaches 7] expected to eventually equal <7>, got <40> (timed out after 200 ms)"),
        ] {
            let line = try FixtureProcess.line(of: mark, in: file)
            let issue = result.lines.first { $0.contains("\(file):\(line)") && $0.contains("recorded an issue") }
            XCTAssertNotNil(issue, "no issue at \(file):\(line) in:\n\(result.output)")
            XCTAssertTrue(result.output.contains(message), "missing \(message) in:\n\(result.output)")
        }
    }

    /// A plain test's failure used to be charged to the scenario running at that moment (the
    /// process-wide current scenario), which then skipped its remaining steps: the fixture's async
    /// `toEventually` Issue went missing whenever the plain test failed just as that scenario began.
    func testAPlainTestFailingBesideAScenarioLeavesTheScenarioItsOwnSteps() throws {
        let result = try FixtureProcess.run(
            ["--testing-library", "swift-testing", "--filter", "FixtureCrossTalk"],
            environment: ["SPECKIT_ST_CROSSTALK": "1"])
        let file = "FixtureCrossTalk.swift"
        XCTAssertNotEqual(result.exitCode, 0, result.output)
        // The two tests did overlap: the plain test failed while the scenario waited in its beforeEach.
        XCTAssertTrue(result.output.contains("TRACE: plain test failed while the scenario ran"), result.output)
        XCTAssertTrue(result.output.contains("TRACE: RAN cross-talk step"), result.output)
        let scenarioLine = try FixtureProcess.line(of: "st-crosstalk", in: file)
        let scenarioIssue = result.lines.first { $0.contains("\(file):\(scenarioLine):") && $0.contains("recorded an issue") }
        XCTAssertNotNil(scenarioIssue, "no issue at \(file):\(scenarioLine) in:\n\(result.output)")
        XCTAssertTrue(
            result.output.contains("[Then its own step runs] expected to eventually equal <2>, got <1>"), result.output)
        let plainLine = try FixtureProcess.line(of: "st-crosstalk-plain", in: file)
        let plainIssue = result.lines.first {
            $0.contains("failsWhileAScenarioRuns") && $0.contains("\(file):\(plainLine):") && $0.contains("recorded an issue")
        }
        XCTAssertNotNil(plainIssue, result.output)
        // Delivered as the plain test's own, without a step or hook of the scenario in front.
        XCTAssertTrue(result.lines.contains("↳ expected to equal <\"other\">, got <\"plain\">"), result.output)
        XCTAssertTrue(result.livingDoc.contains("a scenario beside a failing plain test"), result.livingDoc)
        XCTAssertFalse(result.livingDoc.contains("got <\"plain\">"), result.livingDoc)
    }

    /// `captureFailures` used one process-wide stack: a plain test's capture swallowed the failure of
    /// the scenario running beside it, and a scenario's capture the failure of a plain test.
    func testACaptureBesideAnotherTestHoldsOnlyItsOwnTestsFailures() throws {
        let result = try FixtureProcess.run(
            ["--testing-library", "swift-testing", "--filter", "FixtureCaptureCrossTalk"],
            environment: ["SPECKIT_ST_CROSSTALK_CAPTURE": "1"])
        let file = "FixtureCaptureCrossTalk.swift"
        XCTAssertNotEqual(result.exitCode, 0, result.output)
        // The tests did overlap, both ways round.
        XCTAssertTrue(result.output.contains("TRACE: scenario fails while the plain test captures"), result.output)
        XCTAssertTrue(result.output.contains("TRACE: plain test failed while the scenario captured"), result.output)
        XCTAssertTrue(result.output.contains("TRACE: plain test captured []"), result.output)
        XCTAssertTrue(result.output.contains("TRACE: scenario captured []"), result.output)
        let scenarioLine = try FixtureProcess.line(of: "st-capture-scenario", in: file)
        let scenarioIssue = result.lines.first { $0.contains("\(file):\(scenarioLine):") && $0.contains("recorded an issue") }
        XCTAssertNotNil(scenarioIssue, "no issue at \(file):\(scenarioLine) in:\n\(result.output)")
        XCTAssertTrue(result.output.contains("[Then its failure is its own] expected to equal <2>, got <1>"), result.output)
        let plainLine = try FixtureProcess.line(of: "st-capture-plain", in: file)
        let plainIssue = result.lines.first {
            $0.contains("failsWhileAScenarioCaptures") && $0.contains("\(file):\(plainLine):") && $0.contains("recorded an issue")
        }
        XCTAssertNotNil(plainIssue, "no issue at \(file):\(plainLine) in:\n\(result.output)")
        XCTAssertTrue(result.livingDoc.contains("expected to equal <2>, got <1>"), result.livingDoc)
        XCTAssertFalse(result.livingDoc.contains("got <\"plain\">"), result.livingDoc)
    }

    func testExpectationsInAPlainSwiftTestingTestAreIssuesToo() throws {
        let result = try fixtureRun()
        let line = try FixtureProcess.line(of: "st-plain", in: "FixturePapercutsFeature.swift")
        XCTAssertTrue(result.output.contains("TRACE: RAN plain test"), result.output)
        let issue = result.lines.first { $0.contains("FixturePapercutsFeature.swift:\(line)") && $0.contains("recorded an issue") }
        XCTAssertNotNil(issue, result.output)
        XCTAssertTrue(result.output.contains("expected to equal <[1, 3]>, got <[1, 2]>"), result.output)
    }

    func testTheLivingDocumentAndJUnitIncludeSwiftTestingScenarios() throws {
        let result = try fixtureRun()
        XCTAssertTrue(result.livingDoc.contains("Swift Testing fixture"), result.livingDoc)
        XCTAssertTrue(result.livingDoc.contains("an expectation fails at its line"), result.livingDoc)
        XCTAssertTrue(result.junit.contains("row 2 runs"), result.junit)
        XCTAssertTrue(result.output.contains("SpecKit: living document "), result.output)
    }

    func testBDDScenarioPicksOneScenarioOfAFeature() throws {
        let result = try FixtureProcess.run(
            ["--testing-library", "swift-testing", "--filter", "FixtureSwiftTestingFeature"],
            environment: ["BDD_SCENARIO": "^row 2 runs"])
        XCTAssertEqual(result.exitCode, 0, result.output)
        XCTAssertTrue(result.output.contains("TRACE: RAN row 2"), result.output)
        XCTAssertFalse(result.output.contains("TRACE: RAN row 1"), result.output)
        XCTAssertFalse(result.output.contains("RAN a passing scenario"), result.output)
    }
}
