import Foundation

/// One day of the forecast, as the weather API sends it.
public struct Forecast: Codable, Sendable, Equatable {
    public enum Sky: String, Codable, Sendable {
        case sunny, cloudy, rainy
    }

    public var city: String
    public var sky: Sky
    /// Degrees Celsius.
    public var high: Int
    public var low: Int
    /// Chance of rain, 0–100.
    public var rainChance: Int

    public init(city: String, sky: Sky, high: Int, low: Int, rainChance: Int) {
        self.city = city
        self.sky = sky
        self.high = high
        self.low = low
        self.rainChance = rainChance
    }

    enum CodingKeys: String, CodingKey {
        case city, sky, high, low
        case rainChance = "rain_chance"
    }
}
