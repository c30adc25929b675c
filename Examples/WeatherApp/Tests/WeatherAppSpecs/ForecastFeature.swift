import Foundation
import SpecKit
import StubServer
import Testing
import TextSnapshot
import WeatherApp

extension Tag {
    @Tag static var forecast: Self
}

/// The same app, specified under Swift Testing: every scenario and outline row is one argument
/// of the parameterized test below, shown by its title.
@MainActor
struct ForecastFeature: SwiftTestingFeature {
    static func feature() {
        Feature("Forecast in German", tags: "swift-testing") {
            var server: StubServer!
            var vm: ForecastViewModel!

            beforeEach { (server, vm) = try WeatherStubs.start(language: .de) }
            afterEach { server.stop() }

            ScenarioOutline(
                "<city> is <sky>",
                examples: [
                    (city: "Berlin", sky: "Regnerisch"),
                    (city: "Lisbon", sky: "Sonnig"),
                ]
            ) { row in
                await When("the traveller searches \(row.city)") { await vm.search(row.city) }
                Then("the sky reads \(row.sky)") { expect(vm.state.headline).to(equal(row.sky)) }
            }

            Scenario("An unknown city is named in the message", tags: "smoke") {
                await When("the traveller searches Gotham") { await vm.search("Gotham") }
                Then("the message names it") {
                    expect(vm.state.errorMessage).to(equal("Eine Stadt namens „Gotham“ kennen wir nicht."))
                }
            }

            Scenario("The error screen") {
                await When("the server is down for Atlantis") { await vm.search("Atlantis") }
                Then("the screen matches its snapshots") {
                    // Named after this scenario by default: "The error screen.lang_de_device_pad.txt".
                    assertScreenSnapshots(
                        languages: [.en, .de], devices: [.phone4inch, .pad],
                        localizer: WeatherStrings.localizer
                    ) { context in
                        ForecastScreen(state: vm.state, strings: context.strings)
                    }
                }
            }
        }
    }

    @Test(.tags(.forecast), arguments: await ForecastFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}
