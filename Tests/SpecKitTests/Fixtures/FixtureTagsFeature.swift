import Foundation

/// Tagged scenarios for `BDD_TAGS` selection.
final class FixtureTagsFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Feature("Tagged", tags: "fixture") {
            Scenario("smoke only", tags: "smoke") {}
            Scenario("smoke and slow", tags: "smoke", "slow") {}
            Scenario("slow only", tags: "slow") {}
            Rule("Inherited", tags: "rule-tag") {
                Scenario("inherits tags", tags: "@smoke") {}
            }
            Scenario("untagged") {}
        }
    }
}
