import Foundation
import SpecKit
import Testing

// A plain Swift Testing test that fails while a scenario runs beside it (Swift Testing runs tests in
// parallel; only scenarios queue behind one another). Its failure is its own: the scenario must
// still run its steps and report its own failure at its line. Run by `SwiftTestingRunTests` with
// `SPECKIT_ST_CROSSTALK=1`.

/// One-shot flags the two tests meet on; waiting polls, bounded by a generous timeout.
final class CrossTalkFlag: @unchecked Sendable {
    static let scenarioWaiting = CrossTalkFlag()
    static let plainFailed = CrossTalkFlag()

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

@MainActor
struct FixtureCrossTalkFeature: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.crossTalkEnabled else { return }
        Feature("Cross talk", tags: "fixture") {
            // Holds the scenario between its start and its first step until the plain test failed.
            beforeEach { () async in
                CrossTalkFlag.scenarioWaiting.raise()
                if await CrossTalkFlag.plainFailed.wait() { Fixtures.trace("plain test failed while the scenario ran") }
            }
            Scenario("a scenario beside a failing plain test") {
                await Then("its own step runs") {
                    Fixtures.trace("RAN cross-talk step")
                    await expect(1).toEventually(equal(2), timeout: 0.05) // @mark:st-crosstalk
                }
            }
        }
    }

    @Test(arguments: await FixtureCrossTalkFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@Suite struct FixtureCrossTalkPlainTests {
    @Test func failsWhileAScenarioRuns() async {
        guard Fixtures.crossTalkEnabled else { return }
        _ = await CrossTalkFlag.scenarioWaiting.wait()
        expect("plain").to(equal("other")) // @mark:st-crosstalk-plain
        CrossTalkFlag.plainFailed.raise()
    }
}

extension Fixtures {
    /// `SPECKIT_ST_CROSSTALK=1` declares the cross-talk fixture, whose plain test waits for its scenario.
    static let crossTalkEnabled = enabled && ProcessInfo.processInfo.environment["SPECKIT_ST_CROSSTALK"] == "1"
}
