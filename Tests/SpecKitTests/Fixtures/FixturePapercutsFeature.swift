import Foundation
import SpecKit
import Testing

/// Failures outside steps: in a hook's own code they must say which hook they came from.
final class FixturePapercutsFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Feature("Papercuts", tags: "papercut") {
            context("a failing Background") {
                Background { expect(1).to(equal(2)) } // @mark:background-expect
                Scenario("the background's failure is labelled") {
                    Then("this step is skipped") { Fixtures.trace("SHOULD-NOT-RUN after background") }
                }
            }
            context("a failing afterEach") {
                afterEach { expect("left").to(equal("right")) } // @mark:after-expect
                Scenario("the afterEach failure is labelled") {
                    Then("the scenario itself passes") { expect(true).to(beTrue()) }
                }
            }
        }
    }
}

/// The same kinds of failures under Swift Testing, run in a subprocess with
/// `--testing-library swift-testing` by `SwiftTestingRunTests`.
@MainActor
struct FixtureSwiftTestingFeature: SwiftTestingFeature {
    static func feature() {
        guard Fixtures.enabled else { return }
        Feature("Swift Testing fixture", tags: "fixture") {
            var total = 0
            beforeEach { total = 40 }
            Scenario("a passing scenario") {
                Then("the total is 40") { expect(total).to(equal(40)) }
                Fixtures.trace("RAN a passing scenario")
            }
            Scenario("an expectation fails at its line", tags: "smoke") {
                Then("the total is 41") { expect(total).to(equal(41)) } // @mark:st-expect
                And("the next step is skipped") { Fixtures.trace("SHOULD-NOT-RUN st") }
            }
            Scenario("a TestObserver assertion fails") {
                let values = TestObserver<Int>()
                When("one value is sent") { values.send(1) }
                Then("two were expected") { values.assertValueCount(2) } // @mark:st-observer
            }
            Scenario("a decoding failure names the path") {
                Then("the JSON decodes") { // @mark:st-decode (a thrown error lands on its step)
                    _ = try decode([String: Int].self, fromJSON: #"{"a": "x"}"#)
                }
            }
            Scenario("async toEventually times out") {
                await Then("the total reaches 7") {
                    await expect(total).toEventually(equal(7), timeout: 0.2) // @mark:st-eventually
                }
            }
            ScenarioOutline("row <value> runs", examples: [1, 2]) { row in
                Then("row \(row) ran") { Fixtures.trace("RAN row \(row)") }
            }
        }
    }

    @Test(arguments: await FixtureSwiftTestingFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}

/// SpecKit's expectations in a plain Swift Testing test, outside any scenario.
@Suite struct FixtureSwiftTestingPlainTests {
    @Test func plainExpectationsAreIssues() {
        guard Fixtures.enabled else { return }
        expect([1, 2]).to(equal([1, 3])) // @mark:st-plain
        Fixtures.trace("RAN plain test")
    }
}
