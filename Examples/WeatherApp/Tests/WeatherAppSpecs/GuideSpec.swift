// Tests/WeatherAppSpecs/GuideSpec.swift — the spec from the README, verbatim (CI checks it).
import Foundation
import SpecKit
import StubServer
import Testing
import WeatherApp

/// `Stubs/settings.json` next to `Tests/`, found from this file, whatever the working directory.
private let stubs = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Stubs/settings.json")

// XCTest: one test per scenario (needs the bootstrap file once per test target).
final class GuideSpec: FeatureSpec {
    override func testFeature() {
        Feature("Searching a city") {
            var server: StubServer!
            var vm: ForecastViewModel!
            beforeEach {
                server = try StubServer(configFile: stubs) // port 0: a free port
                try server.start()
                vm = ForecastViewModel(api: WeatherAPI(baseURL: server.baseURL), strings: WeatherStrings.localizer)
            }
            afterEach { server.stop() }

            Scenario("Berlin needs an umbrella", tags: "smoke") {
                await When("the traveller searches Berlin") { await vm.search("Berlin") }
                Then("an umbrella is advised") { expect(vm.state.advice).to(equal("Take an umbrella.")) }
            }
        }
    }
}

// Swift Testing: the same DSL; each scenario is one argument of the parameterized test.
@MainActor
struct GuideFeature: SwiftTestingFeature {
    static func feature() {
        Feature("Searching a city, under Swift Testing") {
            var server: StubServer!
            var vm: ForecastViewModel!
            beforeEach {
                server = try StubServer(configFile: stubs)
                try server.start()
                vm = ForecastViewModel(api: WeatherAPI(baseURL: server.baseURL), strings: WeatherStrings.localizer)
            }
            afterEach { server.stop() }

            Scenario("Lisbon is sunny") {
                await When("the traveller searches Lisbon") { await vm.search("Lisbon") }
                Then("the sky is sunny") { expect(vm.state.headline).to(equal("Sunny")) }
            }
        }
    }

    @Test(arguments: await GuideFeature.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}
