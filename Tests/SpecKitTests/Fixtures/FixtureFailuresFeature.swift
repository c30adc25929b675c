import Foundation
import XCTest

struct FixtureReceipt: Equatable {
    var id: Int
    var lines: [String]
    var totals: [String: Int]
    var note: String?
}

struct FixtureBasket: Decodable {
    struct Item: Decodable { var id: Int }
    var items: [Item]
}

enum FixturePaymentError: Error {
    case declined(code: Int)
}

/// A helper in plain XCTest style, as a team's own test utilities are written.
func fixtureHelperAssertsTotal(_ total: Int, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(total, 99, "total from helper", file: file, line: line)
}

/// Every scenario here fails, each in a different way.
final class FixtureFailuresFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Feature("Checkout failures", description: "Scenarios that fail on purpose.", tags: "fixture") {
            var total = 0
            Background { total = 40 }

            Scenario("a failing Then skips the remaining steps") {
                Given("a basket worth 40") { total += 0 }
                When("an item worth 2 is added") { total += 2 }
                Then("the login button is enabled") { expect(total == 43).to(equal(true)) } // @mark:then-fails
                And("the receipt is printed") { Fixtures.trace("SHOULD-NOT-RUN receipt") }
                But("no email is sent") { Fixtures.trace("SHOULD-NOT-RUN email") }
            }

            Scenario("a thrown error is reported at its step") {
                When("the payment service declines") { // @mark:throwing-step
                    throw FixturePaymentError.declined(code: 51)
                }
                Then("a receipt is shown") { Fixtures.trace("SHOULD-NOT-RUN receipt after throw") }
            }

            Scenario("a TestObserver assertion counts for its step") {
                let totals = TestObserver<Int>()
                When("two totals are emitted") {
                    totals.observer(1)
                    totals.observer(2)
                }
                Then("exactly one total was emitted") { totals.assertValueCount(1) } // @mark:observer-assert
                And("the last total is 2") { totals.assertLastValue(2) }
            }

            Scenario("toEventually reports the last value when it times out") {
                Then("the total eventually reaches 100") {
                    expect(total).toEventually(equal(100), timeout: 0.2) // @mark:eventually
                }
            }

            Scenario("async toEventually times out too") {
                await Then("the total eventually reaches 7") {
                    await expect(total).toEventually(equal(7), timeout: 0.2) // @mark:async-eventually
                }
            }

            Scenario("sync toEventually in an async scenario explains how to wait") {
                await Given("an async step") { try await Task.sleep(nanoseconds: 1_000) }
                Then("main-queue work eventually lands") {
                    var landed = false
                    DispatchQueue.main.async { landed = true }
                    expect(landed).toEventually(beTrue(), timeout: 0.2) // @mark:sync-in-async
                }
            }

            Scenario("a large value fails with a line diff") {
                Then("the receipt matches") {
                    let expected = FixtureReceipt(
                        id: 7, lines: ["coffee", "bagel", "juice"], totals: ["net": 10, "tax": 2, "gross": 12],
                        note: "thanks")
                    var actual = expected
                    actual.lines[1] = "croissant"
                    actual.totals["tax"] = 3
                    expect(actual).to(equal(expected)) // @mark:large-diff
                }
            }

            Scenario("a decoding failure names the coding path") {
                Given("a basket whose second item has a string id") { // @mark:decode-step
                    _ = try decode(FixtureBasket.self, fromJSON: #"{"items": [{"id": 1}, {"id": "2"}]}"#)
                }
            }

            Scenario("matchJSON lists the differing paths") {
                Then("the payload matches") {
                    expect(#"{"items": [{"id": 1, "name": "A"}], "total": 3}"#) // @mark:match-json
                        .to(matchJSON(#"{"total": 3.0, "items": [{"name": "B", "id": 1}]}"#))
                }
            }

            Scenario("an XCTAssert in a helper counts for its step") {
                Then("the helper's check holds") { fixtureHelperAssertsTotal(total) } // @mark:helper-assert
                And("this step is skipped") { Fixtures.trace("SHOULD-NOT-RUN after helper assert") }
            }

            Scenario("a failure outside any step still fails the scenario") {
                XCTAssertEqual(total, 41, "checked outside a step") // @mark:outside-step
                Then("later steps are skipped") { Fixtures.trace("SHOULD-NOT-RUN after outside failure") }
            }
        }
    }

    /// Kept next to the scenarios by the expansion; passes in both modes.
    func testOrdinaryMethodStillRuns() {
        XCTAssertEqual(name.components(separatedBy: ".").last, "testOrdinaryMethodStillRuns")
    }
}
