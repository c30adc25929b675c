import Foundation
import RehearsalSettings
import XCTest

/// Settings reach SpecKit and TextSnapshot from every place a runner can put them.
final class RehearsalSettingsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearsal-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Tests/Specs"), withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.0\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func settings(_ environment: [String: String], anchor: String? = nil) -> RehearsalSettings {
        RehearsalSettings(
            environment: environment, anchor: anchor ?? folder.appendingPathComponent("Tests/Specs/LoginSpec.swift").path,
            currentDirectory: "/")
    }

    private func write(_ json: String, to relative: String) throws {
        try Data(json.utf8).write(to: folder.appendingPathComponent(relative))
    }

    func testThePlainNameWinsOverTheXcodebuildPrefixes() {
        let resolved = settings(["BDD_TAGS": "smoke", "TEST_RUNNER_BDD_TAGS": "slow", "SIMCTL_CHILD_BDD_TAGS": "x"])
        XCTAssertEqual(resolved.values["BDD_TAGS"], .init(value: "smoke", source: "environment"))
        XCTAssertEqual(resolved.environment["BDD_TAGS"], "smoke")
    }

    func testTestRunnerThenSimctlChildPrefixesAreRead() {
        let runner = settings(["TEST_RUNNER_TEXT_SNAPSHOT_RECORD": "failed", "SIMCTL_CHILD_TEXT_SNAPSHOT_RECORD": "all"])
        XCTAssertEqual(runner.values["TEXT_SNAPSHOT_RECORD"], .init(value: "failed", source: "TEST_RUNNER_TEXT_SNAPSHOT_RECORD"))
        XCTAssertEqual(runner.environment["TEXT_SNAPSHOT_RECORD"], "failed")
        let simulator = settings(["SIMCTL_CHILD_BDD_TAGS": "smoke"])
        XCTAssertEqual(simulator.environment["BDD_TAGS"], "smoke")
        XCTAssertEqual(simulator.values["BDD_TAGS"]?.source, "SIMCTL_CHILD_BDD_TAGS")
    }

    func testRehearsalJSONAtThePackageRootFillsWhatTheEnvironmentLeavesOut() throws {
        try write(
            #"{"record": "failed", "tags": "smoke,~slow", "eventuallyTimeout": 2.5, "strict": true, "reportDirectory": "reports/qa"}"#,
            to: "rehearsal.json")
        let resolved = settings(["BDD_TAGS": "fast"])
        XCTAssertEqual(resolved.configFile, folder.appendingPathComponent("rehearsal.json").path)
        XCTAssertEqual(resolved.environment["BDD_TAGS"], "fast", "the environment wins over the file")
        XCTAssertEqual(resolved.environment["TEXT_SNAPSHOT_RECORD"], "failed")
        XCTAssertEqual(resolved.environment["BDD_EVENTUALLY_TIMEOUT"], "2.5")
        XCTAssertEqual(resolved.environment["TEXT_SNAPSHOT_STRICT"], "true")
        XCTAssertEqual(
            resolved.environment["BDD_REPORT_DIR"], folder.appendingPathComponent("reports/qa").path,
            "folders are relative to the file, not the working directory")
        XCTAssertEqual(resolved.values["TEXT_SNAPSHOT_RECORD"]?.source, "rehearsal.json (\(resolved.configFile!))")
        XCTAssertEqual(resolved.packageRoot, folder.path)
    }

    func testATestTargetsOwnFileIsFoundBeforeThePackages() throws {
        try write(#"{"record": "failed"}"#, to: "rehearsal.json")
        try write(#"{"TEXT_SNAPSHOT_RECORD": "all"}"#, to: "Tests/Specs/rehearsal.json")
        XCTAssertEqual(settings([:]).environment["TEXT_SNAPSHOT_RECORD"], "all")
    }

    func testTheSearchStopsAtThePackageRootAndFallsBackToTheWorkingDirectory() throws {
        let outside = folder.deletingLastPathComponent().appendingPathComponent("rehearsal.json")
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside.path), "test precondition")
        XCTAssertNil(settings([:]).configFile)
        try write(#"{"tags": "cwd"}"#, to: "rehearsal.json")
        let fromWorkingDirectory = RehearsalSettings(environment: [:], anchor: nil, currentDirectory: folder.path)
        XCTAssertEqual(fromWorkingDirectory.environment["BDD_TAGS"], "cwd")
    }

    func testREHEARSAL_CONFIGNamesTheFile() throws {
        try write(#"{"tags": "named"}"#, to: "Tests/other.json")
        let resolved = settings(["TEST_RUNNER_REHEARSAL_CONFIG": folder.appendingPathComponent("Tests/other.json").path])
        XCTAssertEqual(resolved.environment["BDD_TAGS"], "named")
    }

    func testABrokenOrUnknownFileEntryIsAWarningNeverAFailure() throws {
        try write(#"{"recrod": "all", "tags": ["a"], "prune": false}"#, to: "rehearsal.json")
        let resolved = settings([:])
        XCTAssertEqual(resolved.environment["TEXT_SNAPSHOT_PRUNE"], "false")
        XCTAssertNil(resolved.values["TEXT_SNAPSHOT_RECORD"])
        let file = folder.appendingPathComponent("rehearsal.json").path
        XCTAssertEqual(
            resolved.warnings,
            [
                "\(file): unknown key \"recrod\"; did you mean \"record\"? (ignored)",
                "\(file): \"tags\" must be a string, a number or a boolean (ignored)",
            ])
        try write(#"{"record": "all""#, to: "rehearsal.json")
        let broken = settings([:])
        XCTAssertEqual(broken.warnings.count, 1)
        XCTAssertTrue(broken.warnings[0].hasPrefix("\(file): not valid JSON"), broken.warnings[0])
        XCTAssertTrue(broken.summary.contains("warning: \(file): not valid JSON"), broken.summary)
    }

    func testCIIsDetectedFromProviderVariablesPlainOrPrefixed() {
        XCTAssertEqual(settings(["GITHUB_ACTIONS": "true"]).environment["CI"], "true")
        XCTAssertEqual(settings(["GITHUB_ACTIONS": "true"]).values["CI"]?.source, "detected GITHUB_ACTIONS")
        XCTAssertEqual(settings(["TEST_RUNNER_CI_XCODE_CLOUD": "TRUE"]).environment["CI"], "true")
        XCTAssertEqual(
            settings(["TEST_RUNNER_CI": "false", "GITHUB_ACTIONS": "true"]).environment["CI"], "false",
            "an explicit CI wins over detection")
        XCTAssertNil(settings(["HOME": "/root"]).environment["CI"])
    }

    func testTheSummaryListsOnlyWhatIsSetWithItsSource() {
        XCTAssertEqual(settings(["HOME": "/root"]).summary, "")
        let summary = settings(["TEST_RUNNER_BDD_TAGS": "smoke"]).summary
        XCTAssertEqual(summary, "Rehearsal settings in effect:\n  BDD_TAGS=smoke  (TEST_RUNNER_BDD_TAGS)")
    }
}
