import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why the forecast could not be loaded.
public enum WeatherError: Error, Equatable, Sendable {
    case unknownCity(String)
    case server(status: Int)
    case unreadable(String)
}

/// Fetches forecasts from `GET <base>/forecast?city=<name>`.
public struct WeatherAPI: Sendable {
    public var baseURL: URL
    public var session: URLSession

    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    public func forecast(for city: String) async throws -> Forecast {
        var components = URLComponents(url: baseURL.appendingPathComponent("forecast"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "city", value: city)]
        let (data, response) = try await session.data(from: components.url!)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200: break
        case 404: throw WeatherError.unknownCity(city)
        default: throw WeatherError.server(status: status)
        }
        do {
            return try JSONDecoder().decode(Forecast.self, from: data)
        } catch {
            throw WeatherError.unreadable(String(describing: error))
        }
    }
}
