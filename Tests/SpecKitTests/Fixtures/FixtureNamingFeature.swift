import Foundation

/// Titles that stress test naming, and declaration mistakes that must fail loudly.
final class FixtureNamingFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Feature("Naming", tags: "fixture") {
            Scenario("same title") {}
            Scenario("same title") {}
            Scenario("login, with valid credentials / fast: yes") {}
            Scenario("a title on\ntwo lines") {}
            Scenario(String(repeating: "very long title ", count: 10), tags: "long-tag") {}
            ScenarioOutline(
                "<email> is <verdict>",
                examples: [
                    (email: "a@b.co", verdict: "accepted"),
                    (email: "nope", verdict: "rejected"),
                ]
            ) { row in
                Then("\(row.email) is \(row.verdict)") { expect(row.email).toNot(beEmpty()) }
            }
            ScenarioOutline("doubling", examples: [1, 2]) { n in
                Then("\(n) doubles") { expect(n * 2).to(beGreaterThan(n)) }
            }
            ScenarioOutline("<missing> placeholder", examples: [(present: 1, other: 2)]) { _ in } // @mark:bad-outline
            Given("a step in the wrong place") {} // @mark:misplaced-step
        }
    }
}
