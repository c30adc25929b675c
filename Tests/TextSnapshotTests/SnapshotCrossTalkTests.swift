import Foundation
import SpecKit
import Testing
import TextSnapshot
import XCTest

/// Swift Testing runs a plain `@Test` beside the one running SpecKit scenario. A snapshot taken in
/// the plain test is named after that test, not after the scenario (whose name used to be
/// process-wide), and its re-run command selects the plain test; the scenario's own snapshot still
/// carries the scenario's name. The fixture below runs in a subprocess with
/// `TEXT_SNAPSHOT_ST_CROSSTALK=1`; flags make the two tests overlap on every run.
final class SnapshotCrossTalkTests: XCTestCase {
    func testAPlainTestsSnapshotBesideAScenarioIsNamedAfterThePlainTest() throws {
        #if os(Linux)
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--testing-library", "swift-testing", "--filter", "SnapshotCrossTalkFixture"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("BDD_") }
        environment["BDD_REPORT_DIR"] = "off"
        environment["TEXT_SNAPSHOT_ST_CROSSTALK"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        let traces = output.components(separatedBy: "\n").compactMap { line in
            line.range(of: "TRACE: ").map { String(line[$0.upperBound...]) }
        }
        XCTAssertTrue(traces.contains("plain snapshot taken while the scenario ran"), output)
        XCTAssertTrue(traces.contains("plain snapshot file: takesASnapshotBesideAScenario.plain.txt"), output)
        XCTAssertTrue(traces.contains("plain snapshot re-runs the plain test: true"), output)
        XCTAssertTrue(traces.contains("scenario snapshot file: a-scenario-beside-a-plain-snapshot.scenario.txt"), output)
        XCTAssertEqual(process.terminationStatus, 0, output)
        #else
        throw XCTSkip("runs the Linux test binary as a subprocess")
        #endif
    }
}

/// One-shot flags the two fixture tests meet on; waiting polls, bounded by a generous timeout.
final class SnapshotCrossTalkFlag: @unchecked Sendable {
    static let scenarioWaiting = SnapshotCrossTalkFlag()
    static let plainSnapshotTaken = SnapshotCrossTalkFlag()

    private let lock = NSLock()
    private var raised = false

    func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    /// True when raised within `seconds`.
    func wait(seconds: Double = 30) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !isRaised {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return true
    }
}

enum SnapshotCrossTalk {
    static let enabled = ProcessInfo.processInfo.environment["TEXT_SNAPSHOT_ST_CROSSTALK"] == "1"

    static func trace(_ text: String) { print("TRACE: \(text)") }

    /// Records `value` in a fresh sandbox and traces the file it went to.
    static func record(_ value: String, named name: String, testName: String = #function) -> SnapshotFailure? {
        guard let sandbox = try? Sandbox() else { return nil }
        defer { sandbox.remove() }
        return sandbox.run { verifySnapshot(of: value, as: .lines, named: name, testName: testName) }
    }
}

@MainActor
struct SnapshotCrossTalkFixtureFeature: SwiftTestingFeature {
    static func feature() {
        guard SnapshotCrossTalk.enabled else { return }
        Feature("Snapshot cross talk") {
            Scenario("a scenario beside a plain snapshot") {
                await Then("its snapshot carries its own name") {
                    SnapshotCrossTalkFlag.scenarioWaiting.raise()
                    _ = await SnapshotCrossTalkFlag.plainSnapshotTaken.wait()
                    let failure = SnapshotCrossTalk.record("scenario", named: "scenario")
                    let file = failure.map { ($0.referencePath as NSString).lastPathComponent } ?? "none"
                    SnapshotCrossTalk.trace("scenario snapshot file: \(file)")
                }
            }
        }
    }

    @Test(arguments: await SnapshotCrossTalkFixtureFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@Suite struct SnapshotCrossTalkFixturePlainTests {
    @Test func takesASnapshotBesideAScenario() async {
        guard SnapshotCrossTalk.enabled else { return }
        if await SnapshotCrossTalkFlag.scenarioWaiting.wait() {
            SnapshotCrossTalk.trace("plain snapshot taken while the scenario ran")
        }
        let failure = SnapshotCrossTalk.record("plain", named: "plain")
        SnapshotCrossTalkFlag.plainSnapshotTaken.raise()
        let file = failure.map { ($0.referencePath as NSString).lastPathComponent } ?? "none"
        SnapshotCrossTalk.trace("plain snapshot file: \(file)")
        let message = failure?.message ?? ""
        SnapshotCrossTalk.trace("plain snapshot re-runs the plain test: \(!message.contains("BDD_SCENARIO"))")
    }
}
