import Foundation
import SpecKit
import StubServer
import TextSnapshot
import WeatherApp

/// The forecast screen's behaviour, run by XCTest: one test per scenario.
final class ForecastSpec: FeatureSpec {
    override func testFeature() {
        Feature(
            "Forecast", description: "As a traveller I want a city's forecast so that I pack the right clothes.",
            tags: "forecast"
        ) {
            var server: StubServer!
            var vm: ForecastViewModel!
            var states: TestObserver<ForecastViewModel.State>!

            beforeEach {
                (server, vm) = try WeatherStubs.start()
                states = TestObserver()
                vm.observeState(states.observer)
            }
            afterEach { server.stop() }

            Scenario("A rainy city advises an umbrella", tags: "smoke") {
                await When("the traveller searches Berlin") { await vm.search("Berlin") }
                Then("the sky is rainy") { expect(vm.state.headline).to(equal("Rainy")) }
                And("an umbrella is advised") { expect(vm.state.advice).to(equal("Take an umbrella.")) }
                And("the screen showed the loading state first") {
                    expect(states.values.first?.isLoading).to(beTrue())
                }
                And("one request reached the server") {
                    expect(server.journal.requests(matching: .get("/forecast"))).to(haveCount(1))
                }
            }

            Scenario("A sunny city needs no umbrella") {
                await When("the traveller searches Lisbon") { await vm.search("Lisbon") }
                Then("the temperatures are shown") {
                    expect(vm.state.details).to(equal(["High 24°, low 15°", "Chance of rain: 5%"]))
                }
                And("no umbrella is advised") { expect(vm.state.advice).to(beNil()) }
            }

            Rule("Errors are explained") {
                ScenarioOutline(
                    "<city> shows “<message>”",
                    examples: [
                        (city: "Gotham", message: "We do not know a city called “Gotham”."),
                        (city: "Atlantis", message: "The forecast is unavailable right now. Try again later."),
                        (city: "  ", message: "Type a city first."),
                    ]
                ) { row in
                    await When("the traveller searches \(row.city)") { await vm.search(row.city) }
                    Then("the message is shown") { expect(vm.state.errorMessage).to(equal(row.message)) }
                }
            }

            Scenario("A language can be switched for one step") {
                let languages = EnvironmentStack<Language>(.en)
                Then("inside withEnvironment it is German, afterwards English again") {
                    // The body's value is unused: withEnvironment is @discardableResult, and this
                    // target builds with -warnings-as-errors, so a warning here would fail CI.
                    languages.withEnvironment(modifying: { $0 = .de }) {
                        expect(languages.current).to(equal(.de))
                    }
                    expect(languages.current).to(equal(.en))
                }
            }

            Scenario("The forecast decodes from the stub file") {
                Then("berlin.json is a Forecast") {
                    let json = try String(contentsOf: WeatherStubs.folder.appendingPathComponent("berlin.json"), encoding: .utf8)
                    expect(json).to(beDecodable(as: Forecast.self))
                }
            }
        }
    }
}
