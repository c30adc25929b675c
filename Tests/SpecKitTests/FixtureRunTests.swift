import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs the deliberately failing, pending and misdeclared fixture specs in a
/// subprocess of this very test binary and asserts what a developer sees: the
/// test list, selection, console messages and the written report.
final class FixtureRunTests: XCTestCase {
    private static let cache = NSLock()
    nonisolated(unsafe) private static var runs: [String: FixtureProcess.Result] = [:]

    /// One run per fixture class, shared by the tests that inspect it.
    private func run(_ fixtureClass: String) throws -> FixtureProcess.Result {
        Self.cache.lock()
        defer { Self.cache.unlock() }
        if let cached = Self.runs[fixtureClass] { return cached }
        let result = try FixtureProcess.run(["SpecKitTests.\(fixtureClass)"])
        Self.runs[fixtureClass] = result
        return result
    }

    private func listedTests(_ environment: [String: String] = [:], fixtures: Bool = true) throws -> [String] {
        let result = try FixtureProcess.run(["--list-tests"], environment: environment, fixtures: fixtures)
        XCTAssertEqual(result.exitCode, 0, result.output)
        return result.lines.filter { $0.hasPrefix("SpecKit") }
    }

    // MARK: Listing, naming and selection

    func testEveryScenarioAndOutlineRowIsListedAsItsOwnTest() throws {
        let names = try listedTests().filter { $0.hasPrefix("SpecKitTests.FixtureNamingFeature/") }
        XCTAssertEqual(
            names,
            [
                "SpecKitTests.FixtureNamingFeature/same title @fixture",
                "SpecKitTests.FixtureNamingFeature/same title (2) @fixture",
                "SpecKitTests.FixtureNamingFeature/login; with valid credentials - fast- yes @fixture",
                "SpecKitTests.FixtureNamingFeature/a title on two lines @fixture",
                "SpecKitTests.FixtureNamingFeature/very long title very long title very long title very long title very long title… @fixture @long-tag",
                "SpecKitTests.FixtureNamingFeature/a@b·co is accepted @fixture",
                "SpecKitTests.FixtureNamingFeature/nope is rejected @fixture",
                "SpecKitTests.FixtureNamingFeature/doubling (example 1) @fixture",
                "SpecKitTests.FixtureNamingFeature/doubling (example 2) @fixture",
                "SpecKitTests.FixtureNamingFeature/<missing> placeholder @fixture",
                "SpecKitTests.FixtureNamingFeature/Given a step in the wrong place (misplaced step) @fixture",
            ])
    }

    func testEveryListedNameIsSelectableShortAndUnique() throws {
        let names = try listedTests().filter { $0.hasPrefix("SpecKitTests.Fixture") }
        XCTAssertGreaterThan(names.count, 30)
        XCTAssertEqual(Set(names).count, names.count, "names must be unique")
        for name in names {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            XCTAssertEqual(parts.count, 2, "exactly one / separates class and test: \(name)")
            let test = String(parts[1])
            XCTAssertFalse(test.contains(","), "commas cannot be selected: \(name)")
            XCTAssertFalse(test.contains("."), "dots split listings: \(name)")
            XCTAssertLessThan(test.count, 100, "names stay under 100 characters: \(name)")
        }
    }

    func testFixturesContributeNothingToTheNormalRun() throws {
        let names = try listedTests(fixtures: false).filter { $0.contains(".Fixture") && $0.contains("Feature/") }
        XCTAssertEqual(names, ["SpecKitTests.FixtureFailuresFeature/testOrdinaryMethodStillRuns"])
    }

    func testSelectingOneScenarioByNameRunsOnlyIt() throws {
        let result = try FixtureProcess.run(["SpecKitTests.FixtureTagsFeature/smoke only @fixture @smoke"])
        XCTAssertEqual(result.exitCode, 0, result.output)
        XCTAssertTrue(result.output.contains("Executed 1 test, with 0 failures"), result.output)
        XCTAssertTrue(result.output.contains("Test Case 'FixtureTagsFeature.smoke only @fixture @smoke' passed"))
    }

    func testBDDTagsSelectsScenariosWhileTheListIsBuilt() throws {
        let names = try listedTests(["BDD_TAGS": "smoke,~slow"]).filter { $0.contains("FixtureTagsFeature") }
        XCTAssertEqual(
            names,
            [
                "SpecKitTests.FixtureTagsFeature/smoke only @fixture @smoke",
                "SpecKitTests.FixtureTagsFeature/Inherited - inherits tags @fixture @rule-tag @smoke",
            ])
        let excluded = try listedTests(["BDD_TAGS": "~smoke"]).filter { $0.contains("FixtureTagsFeature") }
        XCTAssertEqual(
            excluded,
            [
                "SpecKitTests.FixtureTagsFeature/slow only @fixture @slow",
                "SpecKitTests.FixtureTagsFeature/untagged @fixture",
            ])
        let run = try FixtureProcess.run(["SpecKitTests.FixtureTagsFeature"], environment: ["BDD_TAGS": "@slow"])
        XCTAssertTrue(run.output.contains("Executed 2 tests, with 0 failures"), run.output)
        XCTAssertTrue(run.livingDoc.contains("BDD_TAGS `slow`"), run.livingDoc)
    }

    func testOrdinaryTestMethodsOfASpecClassStillRun() throws {
        let result = try run("FixtureFailuresFeature")
        XCTAssertTrue(result.output.contains("Test Case 'FixtureFailuresFeature.testOrdinaryMethodStillRuns' passed"))
    }

    // MARK: Failure messages

    private func assertFailure(
        _ result: FixtureProcess.Result, test: String, mark: String, file: String, message: String,
        line: UInt = #line
    ) throws {
        let sourceLine = try FixtureProcess.line(of: mark, in: file)
        let expected = "\(FixtureProcess.path(of: file)):\(sourceLine): error: \(test) : \(message)"
        XCTAssertTrue(
            result.lines.contains(expected), "missing line:\n\(expected)\nin output:\n\(result.output)", line: line)
    }

    func testFailingStepMessagesStartWithTheStepAndPointAtTheSpecLine() throws {
        let result = try run("FixtureFailuresFeature")
        XCTAssertEqual(result.exitCode, 1)
        let file = "FixtureFailuresFeature.swift"
        let test = "FixtureFailuresFeature."
        try assertFailure(
            result, test: test + "a failing Then skips the remaining steps @fixture", mark: "then-fails", file: file,
            message: "[Then the login button is enabled] expected to equal <true>, got <false>")
        try assertFailure(
            result, test: test + "a TestObserver assertion counts for its step @fixture", mark: "observer-assert",
            file: file, message: "[Then exactly one total was emitted] expected 1 value, got 2: <[1, 2]>")
        try assertFailure(
            result, test: test + "toEventually reports the last value when it times out @fixture", mark: "eventually",
            file: file,
            message: "[Then the total eventually reaches 100] expected to eventually equal <100>, got <40> (timed out after 200 ms)")
        try assertFailure(
            result, test: test + "async toEventually times out too @fixture", mark: "async-eventually", file: file,
            message: "[Then the total eventually reaches 7] expected to eventually equal <7>, got <40> (timed out after 200 ms)")
        try assertFailure(
            result, test: test + "sync toEventually in an async scenario explains how to wait @fixture",
            mark: "sync-in-async", file: file,
            message: "[Then main-queue work eventually lands] expected to eventually be true, got <false> (timed out after 200 ms)")
        XCTAssertTrue(
            result.lines.contains(
                "(this scenario is async: wait with `await expect(…).toEventually(…)` in an `await` step so main-actor work can run)"),
            result.output)
        try assertFailure(
            result, test: test + "an XCTAssert in a helper counts for its step @fixture", mark: "helper-assert",
            file: file,
            message: #"[Then the helper's check holds] XCTAssertEqual failed: ("40") is not equal to ("99") - total from helper"#)
        try assertFailure(
            result, test: test + "a failure outside any step still fails the scenario @fixture", mark: "outside-step",
            file: file, message: #"XCTAssertEqual failed: ("40") is not equal to ("41") - checked outside a step"#)
    }

    func testThrownErrorsAreReattachedToTheThrowingStepsLine() throws {
        let result = try run("FixtureFailuresFeature")
        try assertFailure(
            result, test: "FixtureFailuresFeature.a thrown error is reported at its step @fixture",
            mark: "throwing-step", file: "FixtureFailuresFeature.swift",
            message: #"[When the payment service declines] threw error "declined(code: 51)" (FixturePaymentError)"#)
        try assertFailure(
            result, test: "FixtureFailuresFeature.a decoding failure names the coding path @fixture",
            mark: "decode-step", file: "FixtureFailuresFeature.swift",
            message: "[Given a basket whose second item has a string id] could not decode FixtureBasket: "
                + "type mismatch (Int) at items[1].id: Expected to decode Int but found a string instead.")
        XCTAssertFalse(result.output.contains("<EXPR>:0"), "no failure may be left at XCTest's unknown location")
    }

    func testALargeValueFailsWithALineDiffNotTwoWallsOfText() throws {
        let result = try run("FixtureFailuresFeature")
        let lines = result.lines
        guard let start = lines.firstIndex(of: "Difference (- expected, + actual):") else {
            return XCTFail("no diff in:\n\(result.output)")
        }
        let diff = Array(lines[start..<min(lines.count, start + 16)])
        XCTAssertTrue(diff.contains(#"-     "bagel""#), diff.joined(separator: "\n"))
        XCTAssertTrue(diff.contains(#"+     "croissant""#), diff.joined(separator: "\n"))
        XCTAssertTrue(diff.contains(#"-     "tax": 2"#), diff.joined(separator: "\n"))
        XCTAssertTrue(diff.contains(#"+     "tax": 3"#), diff.joined(separator: "\n"))
        XCTAssertTrue(diff.contains(#"      "coffee""#), "unchanged lines are context")
    }

    func testMatchJSONNamesTheDifferingPath() throws {
        let result = try run("FixtureFailuresFeature")
        try assertFailure(
            result, test: "FixtureFailuresFeature.matchJSON lists the differing paths @fixture", mark: "match-json",
            file: "FixtureFailuresFeature.swift",
            message: #"[Then the payload matches] expected to match JSON <{"total":3.0,"items":[{"name":"B","id":1}]}>, got 1 difference"#)
        XCTAssertTrue(result.lines.contains(#"$.items[0].name: expected "B", got "A""#), result.output)
    }

    // MARK: Step and scenario outcomes

    func testStepsAfterAFailureAreRecordedAsSkippedAndNotRun() throws {
        let result = try run("FixtureFailuresFeature")
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN"), result.output)
        let doc = result.livingDoc
        XCTAssertTrue(doc.contains("- ✓ **When** an item worth 2 is added"), doc)
        XCTAssertTrue(doc.contains("- ✗ **Then** the login button is enabled"), doc)
        XCTAssertTrue(doc.contains("- ⏭ **And** the receipt is printed _(skipped)_"), doc)
        XCTAssertTrue(doc.contains("- ⏭ **But** no email is sent _(skipped)_"), doc)
        XCTAssertTrue(doc.contains("- ⏭ **And** the last total is 2 _(skipped)_"), doc)
        XCTAssertTrue(doc.contains("- ⏭ **Then** later steps are skipped _(skipped)_"), doc)
        XCTAssertTrue(doc.contains("- ✗ **Then** the helper's check holds"), doc)
        XCTAssertTrue(doc.contains("- ⏭ **And** this step is skipped _(skipped)_"), doc)
    }

    func testPendingScenariosAreListedAndReportedAsSkippedWithTheirReason() throws {
        let result = try run("FixturePendingFeature")
        XCTAssertEqual(result.exitCode, 0, result.output)
        let file = FixtureProcess.path(of: "FixturePendingFeature.swift")
        let line = try FixtureProcess.line(of: "pending-scenario", in: "FixturePendingFeature.swift")
        XCTAssertTrue(
            result.lines.contains(
                "\(file):\(line): FixturePendingFeature.Sharing a basket @fixture : Test skipped - pending: waiting for the share-sheet API"
            ),
            result.output)
        XCTAssertTrue(result.output.contains("Executed 5 tests, with 4 tests skipped and 0 failures"), result.output)
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN"), result.output)

        let doc = result.livingDoc
        XCTAssertTrue(doc.contains("#### 🚧 Scenario: Sharing a basket `@fixture` — pending: waiting for the share-sheet API"), doc)
        XCTAssertTrue(doc.contains("#### 🚧 it: applies a voucher `@fixture` — pending: vouchers ship next sprint"), doc)
        XCTAssertTrue(doc.contains("#### 🚧 it: redeems a card `@fixture` — pending: not in this release"), doc)
        XCTAssertTrue(doc.contains("#### ⏭ Scenario: skips itself at run time `@fixture` — skipped: offline in CI"), doc)
        XCTAssertTrue(doc.contains("✅ 1 passed · ❌ 0 failed · 🚧 3 pending · ⏭ 1 skipped"), doc)

        let junit = result.junit
        XCTAssertTrue(junit.contains(#"<skipped message="pending: waiting for the share-sheet API"/>"#), junit)
        XCTAssertTrue(junit.contains(#"<skipped message="offline in CI"/>"#), junit)
        XCTAssertTrue(junit.contains(#"tests="5" failures="0" errors="0" skipped="4""#), junit)
    }

    func testHooksRunOuterToInnerAndAfterEachInnerToOuter() throws {
        let result = try run("FixtureHooksFeature")
        XCTAssertEqual(
            result.traces(ofTest: "runs hooks in order"),
            [
                "feature-background", "background-step", "feature-beforeEach", "outer-beforeEach", "inner-beforeEach",
                "feature-justBeforeEach", "outer-justBeforeEach", "body", "inner-afterEach", "outer-afterEach",
                "feature-afterEach",
            ])
        XCTAssertEqual(
            Array(result.traces(ofTest: "runs afterEach after a failure").suffix(4)),
            ["body-continues", "inner-afterEach", "outer-afterEach", "feature-afterEach"])
        XCTAssertTrue(result.livingDoc.contains("- ✓ **Given** a fresh basket _(background)_"), result.livingDoc)
    }

    func testAThrowingHookStopsTheScenarioButAfterEachStillRuns() throws {
        let result = try run("FixtureHooksFeature")
        XCTAssertEqual(
            result.traces(ofTest: "never runs its body"),
            ["feature-background", "background-step", "feature-beforeEach", "broken-afterEach", "feature-afterEach"])
        try assertFailure(
            result, test: "FixtureHooksFeature.broken setup - never runs its body @fixture", mark: "throwing-hook",
            file: "FixtureHooksFeature.swift",
            message: #"[beforeEach] threw error "FixtureSetupError()" (FixtureSetupError)"#)
    }

    func testAsyncHooksAndStepsAreAwaitedInOrder() throws {
        let result = try run("FixtureHooksFeature")
        XCTAssertEqual(
            result.traces(ofTest: "awaits them"),
            [
                "feature-background", "background-step", "feature-beforeEach", "async-beforeEach",
                "feature-justBeforeEach", "async-body", "async-afterEach", "feature-afterEach",
            ])
        XCTAssertTrue(result.output.contains("Test Case 'FixtureHooksFeature.async hooks - awaits them @fixture' passed"))
    }

    func testEventuallyTimeoutDefaultsToBDDEventuallyTimeout() throws {
        let file = "FixtureTimeoutFeature.swift"
        let test = "FixtureTimeoutFeature.waits for the default timeout @fixture"
        let configured = try FixtureProcess.run(["SpecKitTests.FixtureTimeoutFeature"], environment: ["BDD_EVENTUALLY_TIMEOUT": "0.3"])
        try assertFailure(
            configured, test: test, mark: "default-timeout", file: file,
            message: "[Then a value that never comes] expected to eventually equal <2>, got <1> (timed out after 300 ms)")

        let invalid = try FixtureProcess.run(["SpecKitTests.FixtureTimeoutFeature"], environment: ["BDD_EVENTUALLY_TIMEOUT": "soon"])
        XCTAssertTrue(
            invalid.output.contains("SpecKit warning: BDD_EVENTUALLY_TIMEOUT=soon is not a positive number of seconds; using 1.0"),
            invalid.output)
        try assertFailure(
            invalid, test: test, mark: "default-timeout", file: file,
            message: "[Then a value that never comes] expected to eventually equal <2>, got <1> (timed out after 1 s)")
    }

    func testATimedOutAsyncScenarioNeverFailsTheNextTest() throws {
        let result = try FixtureProcess.run(
            ["SpecKitTests.FixtureLateTimeoutFeature"], environment: ["BDD_SCENARIO_TIMEOUT": "0.3"])
        let output = result.output
        XCTAssertTrue(output.contains("Test Case 'FixtureLateTimeoutFeature.slow - a slow async scenario @fixture' failed"), output)
        XCTAssertTrue(output.contains("scenario did not finish within 300 ms (BDD_SCENARIO_TIMEOUT)"), output)
        XCTAssertTrue(output.contains("Test Case 'FixtureLateTimeoutFeature.the next scenario @fixture' passed"), output)
        XCTAssertTrue(output.contains("Executed 2 tests, with 1 failure"), output)
        // The stale task skips its remaining steps, still runs its cleanup, and reports that late.
        XCTAssertFalse(output.contains("expected to equal <2>, got <1>"), output)
        XCTAssertTrue(output.contains("late failure in timed-out scenario \"slow - a slow async scenario @fixture\""), output)
        XCTAssertTrue(output.contains("late afterEach failure"), output)
    }

    func testEventuallySeesMainQueueAndMainActorWork() throws {
        let result = try run("FixtureAsyncFeature")
        XCTAssertEqual(result.exitCode, 0, result.output)
        XCTAssertTrue(result.output.contains("Executed 3 tests, with 0 failures"), result.output)
    }

    func testDeclarationMistakesBecomeFailingTests() throws {
        let result = try run("FixtureNamingFeature")
        try assertFailure(
            result, test: "FixtureNamingFeature.<missing> placeholder @fixture", mark: "bad-outline",
            file: "FixtureNamingFeature.swift",
            message: #"ScenarioOutline "<missing> placeholder": example 1 has no field named <missing> (its fields: present, other)"#)
        try assertFailure(
            result, test: "FixtureNamingFeature.Given a step in the wrong place (misplaced step) @fixture",
            mark: "misplaced-step", file: "FixtureNamingFeature.swift",
            message: #"Given "a step in the wrong place" is a step: put it inside a Scenario (or a hook), not directly in "Naming""#)
        XCTAssertTrue(result.output.contains("Executed 11 tests, with 2 failures"), result.output)
    }

    func testASpecTargetWithoutTheBootstrapFileFailsLoudly() throws {
        let names = try listedTests().filter { $0.contains("MissingBootstrapFixture") }
        XCTAssertEqual(names, ["SpecKitNoBootstrapTests.MissingBootstrapFixture/testFeature"])

        let result = try FixtureProcess.run(["SpecKitNoBootstrapTests.MissingBootstrapFixture"])
        XCTAssertEqual(result.exitCode, 1, result.output)
        XCTAssertTrue(
            result.output.contains("MissingBootstrapFixture.testFeature : SpecKit: none of this spec's scenarios ran"), result.output)
        XCTAssertTrue(
            result.output.contains("SpecKitBootstrap.swift containing the single line `@_exported import SpecKit`"), result.output)

        let normal = try FixtureProcess.run(["SpecKitNoBootstrapTests.MissingBootstrapFixture"], fixtures: false)
        XCTAssertEqual(normal.exitCode, 0, "without fixtures the anchor declares nothing and passes")
    }

    // MARK: Reports

    func testLivingDocumentShowsFeaturesScenariosStepsAndFailures() throws {
        let doc = try run("FixtureFailuresFeature").livingDoc
        XCTAssertTrue(doc.hasPrefix("# Living documentation\n"), doc)
        XCTAssertTrue(doc.contains("## Feature: Checkout failures `@fixture`"), doc)
        XCTAssertTrue(doc.contains("> Scenarios that fail on purpose."), doc)
        XCTAssertTrue(doc.contains("✅ 0 passed · ❌ 11 failed · `SpecKitTests.FixtureFailuresFeature`"), doc)
        XCTAssertTrue(doc.contains("#### ❌ Scenario: a failing Then skips the remaining steps `@fixture` — "), doc)
        XCTAssertTrue(doc.contains("  [Then the login button is enabled] expected to equal <true>, got <false>"), doc)
        XCTAssertTrue(
            doc.contains("at Tests/SpecKitTests/Fixtures/FixtureFailuresFeature.swift:") || doc.contains("FixtureFailuresFeature.swift:"),
            doc)
        XCTAssertFalse(doc.contains("testOrdinaryMethodStillRuns"), "plain test methods are not scenarios")

        let outline = try run("FixtureNamingFeature").livingDoc
        XCTAssertTrue(outline.contains("#### ✅ Scenario: a@b.co is accepted `@fixture`"), "the document keeps the real title")
        XCTAssertTrue(outline.contains("_Example: email = a@b.co, verdict = accepted_"), outline)
    }

    func testJUnitReportHasRealFailuresAndIsWellFormed() throws {
        let junit = try run("FixtureFailuresFeature").junit
        XCTAssertTrue(
            junit.contains(#"<testsuite name="SpecKitTests.FixtureFailuresFeature" tests="11" failures="11" errors="0" skipped="0""#), junit
        )
        XCTAssertTrue(
            junit.contains(
                #"<failure message="[Then the login button is enabled] expected to equal &lt;true&gt;, got &lt;false&gt;" type="failure">"#),
            junit)
        XCTAssertTrue(junit.contains(#"name="a failing Then skips the remaining steps @fixture""#), junit)
        XCTAssertTrue(junit.contains("skipped And the receipt is printed"), junit)
        XCTAssertNoThrow(try XMLWellFormedness.check(junit))
    }

    func testParallelProcessesMergeIntoOneReportAndOldRunsDoNotLeak() throws {
        let directory = FixtureProcess.makeReportDirectory()
        let selections = [
            ["SpecKitTests.FixtureTagsFeature"],
            ["SpecKitTests.FixturePendingFeature"],
            ["SpecKitTests.FixtureFailuresFeature/a failing Then skips the remaining steps @fixture"],
            ["SpecKitTests.FixtureNamingFeature/same title @fixture", "SpecKitTests.FixtureNamingFeature/same title (2) @fixture"],
        ]
        // Like `swift test --parallel`: several processes of one run, one report folder, at once.
        let group = DispatchGroup()
        let results = Locked([FixtureProcess.Result]())
        for selection in selections {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                if let result = try? FixtureProcess.run(
                    [selection.joined(separator: ",")], environment: ["BDD_RUN_ID": "parallel-run"],
                    reportDirectory: directory)
                {
                    results.mutate { $0.append(result) }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 300), .success)
        XCTAssertEqual(results.value.count, selections.count)

        let doc = try String(contentsOf: directory.appendingPathComponent("LIVING-DOC.md"), encoding: .utf8)
        XCTAssertTrue(doc.contains("run `parallel-run` · 13 scenarios: ✅ 8 passed · ❌ 1 failed · 🚧 3 pending · ⏭ 1 skipped"), doc)
        for feature in ["Tagged", "Pending work", "Checkout failures", "Naming"] {
            XCTAssertTrue(doc.contains("## Feature: \(feature) `@fixture`"), "\(feature) missing from\n\(doc)")
        }
        let junit = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains(#"<testsuites name="SpecKit" tests="13" failures="1" errors="0" skipped="4""#), junit)
        XCTAssertNoThrow(try XMLWellFormedness.check(junit))

        // A later, filtered run into the same folder updates the scenario it ran and keeps the
        // rest of the report (it used to wipe it, leaving one scenario).
        let later = try FixtureProcess.run(
            ["SpecKitTests.FixtureTagsFeature/untagged @fixture"], environment: ["BDD_RUN_ID": "later-run"],
            reportDirectory: directory)
        XCTAssertTrue(later.livingDoc.contains("run `later-run` · 13 scenarios: ✅ 8 passed · ❌ 1 failed"), later.livingDoc)
        XCTAssertTrue(later.livingDoc.contains("Pending work"), later.livingDoc)
        // …and says where it wrote the report.
        XCTAssertTrue(later.output.contains("SpecKit: living document \(directory.path)/LIVING-DOC.md, JUnit "), later.output)
        let runs = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("fragments").path)
        XCTAssertEqual(runs, ["later-run"])
    }

    func testSwitchingTheReportOffWritesNothing() throws {
        let directory = FixtureProcess.makeReportDirectory()
        let result = try FixtureProcess.run(
            ["SpecKitTests.FixtureTagsFeature"], environment: ["BDD_REPORT_DIR": "off"], reportDirectory: directory)
        XCTAssertEqual(result.exitCode, 0, result.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
}

/// A minimal lock-protected box for collecting results from several threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
    func mutate(_ body: (inout Value) -> Void) { lock.lock(); defer { lock.unlock() }; body(&stored) }
}

/// Parses XML with Foundation's parser and reports the first error.
final class XMLWellFormedness: NSObject, XMLParserDelegate {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ text: String) throws {
        let parser = XMLParser(data: Data(text.utf8))
        if !parser.parse() {
            throw Malformed(description: "line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
    }
}
