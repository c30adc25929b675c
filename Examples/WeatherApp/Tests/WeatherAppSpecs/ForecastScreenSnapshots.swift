import SpecKit
import TextSnapshot
import WeatherApp

/// The forecast screen as text in English and German on a small phone and a pad (XCTest).
final class ForecastScreenSnapshots: FeatureSpec {
    override func testFeature() {
        Feature("Forecast screen") {
            Scenario("A rainy forecast") {
                Then("it matches its snapshots") {
                    assertScreenSnapshots(
                        languages: [.en, .de], devices: [.phone4inch, .pad],
                        localizer: WeatherStrings.localizer
                    ) { context in
                        ForecastScreen(state: ForecastScreenSnapshots.rainy(context.strings), strings: context.strings)
                    }
                }
            }
        }
    }

    /// The state a rainy Berlin forecast produces, in the context's language.
    static func rainy(_ strings: Localizer) -> ForecastViewModel.State {
        ForecastViewModel.State(
            city: "Berlin", headline: strings("sky.rainy"),
            details: [strings("temperature.range", 12, 6), strings("rain.chance", 80)],
            advice: strings("advice.umbrella"))
    }
}
