import Foundation

/// An async scenario that outlives BDD_SCENARIO_TIMEOUT, then would fail in a later step and fails
/// in its afterEach; the next (synchronous) scenario keeps the main run loop turning long enough for
/// the stale task to wake up meanwhile.
final class FixtureLateTimeoutFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Self.declare()
    }

    /// Shared with its Swift Testing twin in `FixtureSwiftTestingParity.swift`.
    static func declare() {
        Feature("Late timeout", tags: "fixture") {
            Rule("slow") {
                afterEach { () async throws in
                    try? await Task.sleep(nanoseconds: 1_000_000)
                    print("TRACE: afterEach ran")
                    expect("cleanup").to(equal("late afterEach failure"))
                }
                Scenario("a slow async scenario") {
                    await When("it waits longer than the timeout") { try? await Task.sleep(nanoseconds: 800_000_000) }
                    Then("a later step fails") { expect(1).to(equal(2)) }
                }
            }
            Scenario("the next scenario") {
                Then("it passes while the stale task wakes up") {
                    let until = Date().addingTimeInterval(1.5)
                    while Date() < until { RunLoop.main.run(until: Date().addingTimeInterval(0.05)) }
                    expect(true).to(beTrue())
                }
            }
        }
    }
}
