import Foundation
import TextScreen

/// The forecast screen's view model: type a city, get its forecast or a message.
///
/// ```swift
/// let vm = ForecastViewModel(api: WeatherAPI(baseURL: url), strings: WeatherStrings.localizer(for: .de))
/// vm.observeState { state in render(state) }
/// await vm.search("Berlin")
/// ```
@MainActor
public final class ForecastViewModel {
    /// Everything the screen shows.
    public struct State: Sendable, Equatable {
        public var city: String = ""
        public var isLoading = false
        public var headline: String?
        public var details: [String] = []
        public var advice: String?
        public var errorMessage: String?

        public init(
            city: String = "", isLoading: Bool = false, headline: String? = nil, details: [String] = [],
            advice: String? = nil, errorMessage: String? = nil
        ) {
            self.city = city
            self.isLoading = isLoading
            self.headline = headline
            self.details = details
            self.advice = advice
            self.errorMessage = errorMessage
        }
    }

    public private(set) var state = State() {
        didSet { for observer in observers { observer(state) } }
    }

    private let api: WeatherAPI
    public let strings: Localizer
    private var observers: [@Sendable (State) -> Void] = []

    public init(api: WeatherAPI, strings: Localizer) {
        self.api = api
        self.strings = strings
    }

    /// Calls `observer` with every new state (plugs into `TestObserver.observer`).
    public func observeState(_ observer: @escaping @Sendable (State) -> Void) {
        observers.append(observer)
    }

    /// Loads the forecast of `city`.
    public func search(_ city: String) async {
        let trimmed = city.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            state = State(errorMessage: strings("error.empty_city"))
            return
        }
        state = State(city: trimmed, isLoading: true)
        do {
            let forecast = try await api.forecast(for: trimmed)
            state = State(
                city: forecast.city,
                headline: strings("sky.\(forecast.sky.rawValue)"),
                details: [
                    strings("temperature.range", forecast.high, forecast.low),
                    strings("rain.chance", forecast.rainChance),
                ],
                advice: forecast.rainChance >= 50 ? strings("advice.umbrella") : nil)
        } catch WeatherError.unknownCity {
            state = State(city: trimmed, errorMessage: strings("error.unknown_city", trimmed))
        } catch {
            state = State(city: trimmed, errorMessage: strings("error.server"))
        }
    }
}
