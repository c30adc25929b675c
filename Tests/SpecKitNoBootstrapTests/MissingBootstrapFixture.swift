import Foundation
import SpecKit

// This target deliberately has NO `@_exported import SpecKit` bootstrap file:
// it proves that a spec target without it fails loudly instead of passing.
// In the normal run the anchor returns at once (one passing `testFeature`);
// SpecKit's tests run it with SPECKIT_FIXTURES=1 and assert the failure.
final class MissingBootstrapFixture: FeatureSpec {
    override func testFeature() {
        guard ProcessInfo.processInfo.environment["SPECKIT_FIXTURES"] == "1" else { return }
        Feature("Forgotten bootstrap") {
            Scenario("is never expanded") {
                Then("it would pass") { expect(true).to(beTrue()) }
            }
        }
    }
}
