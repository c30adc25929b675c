import Foundation
import SpecKit
import Testing

// `captureFailures` in a plain Swift Testing test while a scenario runs beside it, and the other way
// round. Each capture holds only its own test's failures: a scenario's failure is never swallowed by
// a plain test's capture, nor a plain test's by a scenario's. Run by `SwiftTestingRunTests` with
// `SPECKIT_ST_CROSSTALK_CAPTURE=1`; the flags make the two overlap on every run.

extension CrossTalkFlag {
    static let plainCapturing = CrossTalkFlag()
    static let scenarioFailed = CrossTalkFlag()
    static let scenarioCapturing = CrossTalkFlag()
    static let plainFailedBesideCapture = CrossTalkFlag()
}

@MainActor
struct FixtureCaptureCrossTalkFeature: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.captureCrossTalkEnabled else { return }
        Feature("Capture cross talk", tags: "fixture") {
            Scenario("a scenario failing beside a plain test's capture") {
                await Then("its failure is its own") {
                    if await CrossTalkFlag.plainCapturing.wait() { Fixtures.trace("scenario fails while the plain test captures") }
                    expect(1).to(equal(2)) // @mark:st-capture-scenario
                    CrossTalkFlag.scenarioFailed.raise()
                }
            }
            Scenario("a scenario capturing beside a failing plain test") {
                await Then("it captures only its own failures") {
                    let captured = await captureFailures {
                        CrossTalkFlag.scenarioCapturing.raise()
                        if await CrossTalkFlag.plainFailedBesideCapture.wait() {
                            Fixtures.trace("plain test failed while the scenario captured")
                        }
                    }
                    Fixtures.trace("scenario captured \(captured)")
                }
            }
        }
    }

    @Test(arguments: await FixtureCaptureCrossTalkFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

@Suite struct FixtureCaptureCrossTalkPlainTests {
    @Test func capturesWhileAScenarioFails() async {
        guard Fixtures.captureCrossTalkEnabled else { return }
        let captured = await captureFailures {
            CrossTalkFlag.plainCapturing.raise()
            _ = await CrossTalkFlag.scenarioFailed.wait()
        }
        Fixtures.trace("plain test captured \(captured)")
    }

    @Test func failsWhileAScenarioCaptures() async {
        guard Fixtures.captureCrossTalkEnabled else { return }
        _ = await CrossTalkFlag.scenarioCapturing.wait()
        expect("plain").to(equal("other")) // @mark:st-capture-plain
        CrossTalkFlag.plainFailedBesideCapture.raise()
    }
}

extension Fixtures {
    /// `SPECKIT_ST_CROSSTALK_CAPTURE=1` declares the capture cross-talk fixture.
    static let captureCrossTalkEnabled = enabled && ProcessInfo.processInfo.environment["SPECKIT_ST_CROSSTALK_CAPTURE"] == "1"
}
