import DesignerNews
import Dispatch
import Foundation

/// The outputs view models hand to views: `Signal` for events, `Property` for state.
final class ObservationSpec: FeatureSpec {
    override func testFeature() {
        Feature("Observing view model outputs", description: "As a developer I want outputs that never lose or repeat a value") {
            Rule("A property") {
                Scenario("An observer gets the current value, then every change") {
                    let source = MutableProperty(0)
                    let values = TestObserver<Int>()
                    When("a view observes a property holding 0") { Property(source).observe(values.observer) }
                    And("the value becomes 1, 1 again, then 2") {
                        source.value = 1
                        source.value = 1
                        source.value = 2
                    }
                    Then("it saw 0, 1, 2: an equal value is not sent twice") { values.assertValues([0, 1, 2]) }
                }

                Scenario("Disposing stops the observation") {
                    let source = MutableProperty("a")
                    let values = TestObserver<String>()
                    Given("an observation that is disposed after the first value") {
                        Property(source).observe(values.observer).dispose()
                    }
                    When("the value changes") { source.value = "b" }
                    Then("nothing more arrives") { values.assertValues(["a"]) }
                }
            }

            Rule("A signal") {
                Scenario("Every observer gets every event, in order") {
                    let (signal, send) = Signal<String>.pipe()
                    let first = TestObserver<String>()
                    let second = TestObserver<String>()
                    Given("two observers of a signal") {
                        signal.observe(first.observer)
                        signal.observe(second.observer)
                    }
                    When("it sends two events") {
                        send("opened")
                        send("closed")
                    }
                    Then("both saw both, in order") {
                        first.assertValues(["opened", "closed"])
                        second.assertValues(["opened", "closed"])
                    }
                }

                Scenario("Events from many threads are all delivered") {
                    let (signal, send) = Signal<Int>.pipe()
                    let received = TestObserver<Int>()
                    Given("an observer") { signal.observe(received.observer) }
                    When("8 threads send 1,000 events each while others observe and dispose") {
                        DispatchQueue.concurrentPerform(iterations: 8) { thread in
                            for index in 0..<1_000 {
                                send(thread * 1_000 + index)
                                if index % 100 == 0 { signal.observe { _ in }.dispose() }
                            }
                        }
                    }
                    Then("all 8,000 arrived exactly once") {
                        expect(received.values.count).to(equal(8_000))
                        expect(Set(received.values).count).to(equal(8_000))
                    }
                    And("only the first observer is left") { expect(signal.observerCount).to(equal(1)) }
                }
            }
        }
    }
}
