import Foundation
import TestRunObservation
import TextSnapshot
import XCTest

final class OrphanTests: XCTestCase {
    func testFilesNoTestTouchedAreListedAcrossTestFileFolders() throws {
        let sandbox = try makeSandbox()
        _ = sandbox.run { verifySnapshot(of: "kept", as: .lines, named: "kept") }
        try sandbox.write("old\n", to: "OrphanTests/testRenamedLongAgo.1.txt")
        try sandbox.write("old\n", to: "DeletedTests/testGone.1.txt") // a test file that no longer exists
        try sandbox.write("", to: "OrphanTests/.keep") // hidden files are not snapshots
        XCTAssertEqual(
            sandbox.ledger.orphans(),
            [
                sandbox.root + "/DeletedTests/testGone.1.txt",
                sandbox.root + "/OrphanTests/testRenamedLongAgo.1.txt",
            ])
        XCTAssertEqual(sandbox.ledger.touchedRoots, [sandbox.root])
    }

    /// XCTest's process cannot see what Swift Testing's process touched: snapshots of a test
    /// file that imports Testing are not reported (or pruned) as unused by it.
    func testFoldersOfSwiftTestingFilesAreLeftOutOfTheAudit() throws {
        let sandbox = try makeSandbox()
        _ = sandbox.run { verifySnapshot(of: "kept", as: .lines, named: "kept") }
        try sandbox.write("x\n", to: "ForecastFeature/The-error-screen.lang_de_device_pad.txt")
        try sandbox.write("x\n", to: "PlainTests/old.1.txt")
        try "import SpecKit\nimport Testing\n".write(
            to: sandbox.directory.appendingPathComponent("ForecastFeature.swift"), atomically: true, encoding: .utf8)
        try "import XCTest\n// import Testing is only mentioned here\n".write(
            to: sandbox.directory.appendingPathComponent("PlainTests.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(sandbox.ledger.orphans(), [sandbox.root + "/PlainTests/old.1.txt"])
    }

    func testReportPruneAndStrict() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("x\n", to: "A/test.1.txt")
        let orphan = sandbox.root + "/A/test.1.txt"

        let warn = OrphanPolicy.apply(orphans: [orphan], environment: [:], runWasClean: true)
        XCTAssertTrue(warn.report.hasPrefix("warning: 1 snapshot file not touched by any test in this full run:\n  \(orphan)"), warn.report)
        XCTAssertFalse(warn.shouldFail)
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan))

        let strict = OrphanPolicy.apply(orphans: [orphan], environment: ["TEXT_SNAPSHOT_STRICT": "1"], runWasClean: true)
        XCTAssertTrue(strict.shouldFail)
        XCTAssertTrue(strict.report.hasPrefix("error: "))

        let unsafePrune = OrphanPolicy.apply(orphans: [orphan], environment: ["TEXT_SNAPSHOT_PRUNE": "1"], runWasClean: false)
        XCTAssertEqual(unsafePrune.pruned, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan), "a run with failures or skips never prunes")

        let prune = OrphanPolicy.apply(orphans: [orphan], environment: ["TEXT_SNAPSHOT_PRUNE": "1"], runWasClean: true)
        XCTAssertEqual(prune.pruned, [orphan])
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan))
        XCTAssertEqual(OrphanPolicy.apply(orphans: [], environment: ["TEXT_SNAPSHOT_STRICT": "1"], runWasClean: true).shouldFail, false)
    }

    func testOnlyUnfilteredRunsAreFullRuns() {
        XCTAssertTrue(OrphanPolicy.isFullRun(arguments: ["/b/RehearsalPackageTests.xctest"], environment: [:]))
        XCTAssertTrue(OrphanPolicy.isFullRun(arguments: ["/b/x.xctest", "--testing-library", "xctest"], environment: [:]))
        XCTAssertFalse(OrphanPolicy.isFullRun(arguments: ["/b/x.xctest", "TextSnapshotTests.OrphanTests/testReport"], environment: [:]))
        XCTAssertFalse(OrphanPolicy.isFullRun(arguments: ["/b/x.xctest"], environment: ["BDD_TAGS": "smoke"]))
    }

    func testTheRootSuiteDecidesWhenItWasSeenAndMacOSArgumentsAreRead() {
        // An Xcode diamond run passes no test name in the arguments; its root suite says "Selected tests".
        XCTAssertFalse(OrphanPolicy.isFullRun(arguments: ["/b/x.xctest"], environment: [:], rootSuiteName: "Selected tests"))
        XCTAssertTrue(OrphanPolicy.isFullRun(arguments: ["/b/x.xctest", "Some.Test"], environment: [:], rootSuiteName: "All tests"))
        XCTAssertFalse(OrphanPolicy.isFullRun(arguments: ["/b/x.xctest"], environment: ["BDD_TAGS": "a"], rootSuiteName: "All tests"))
        // macOS `swift test`: `xctest [-XCTest <tests>] <bundle>`.
        XCTAssertTrue(OrphanPolicy.isFullRun(arguments: ["xctest", "/b/Pkg.xctest"], environment: [:]))
        XCTAssertTrue(OrphanPolicy.isFullRun(arguments: ["xctest", "-XCTest", "All", "/b/Pkg.xctest"], environment: [:]))
        XCTAssertFalse(OrphanPolicy.isFullRun(arguments: ["xctest", "-XCTest", "Pkg.A/testB", "/b/Pkg.xctest"], environment: [:]))
    }

    func testThisRunsRootSuiteWasObserved() {
        // SpecKit in this binary starts watching before the run, so the root suite is known.
        XCTAssertNotNil(RunningTest.rootSuiteName)
    }

    /// The committed golden snapshots of this target and of `Specs/` share one test binary; their roots
    /// are separate, so a file in one is never judged against the other's tests.
    func testRootsOfDifferentTargetsAreAuditedSeparately() throws {
        let sandbox = try makeSandbox()
        let specsRoot = sandbox.directory.appendingPathComponent("Specs/__Snapshots__").path
        let testsRoot = sandbox.directory.appendingPathComponent("Tests/TextSnapshotTests/__Snapshots__").path
        let ledger = SnapshotLedger()
        _ = withSnapshotSettings({
            $0.environment = [:]; $0.ledger = ledger
        }) {
            (
                verifySnapshot(of: "s", as: .lines, named: "a", snapshotDirectory: specsRoot + "/LoginSpec", testName: "testLogin()"),
                verifySnapshot(of: "s", as: .lines, named: "a", snapshotDirectory: testsRoot + "/GoldenTests", testName: "testGolden()")
            )
        }
        XCTAssertEqual(ledger.orphans(), [])
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: specsRoot + "/LoginSpec/testOld.a.txt"))
        XCTAssertEqual(ledger.orphans(), [specsRoot + "/LoginSpec/testOld.a.txt"])
    }
}
