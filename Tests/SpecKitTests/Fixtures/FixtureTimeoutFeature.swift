import Foundation

/// `toEventually` without a timeout: the default comes from BDD_EVENTUALLY_TIMEOUT.
final class FixtureTimeoutFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Feature("Default timeout", tags: "fixture") {
            Scenario("waits for the default timeout") {
                Then("a value that never comes") { expect(1).toEventually(equal(2)) } // @mark:default-timeout
            }
        }
    }
}
