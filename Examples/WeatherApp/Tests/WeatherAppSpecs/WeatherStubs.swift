import Foundation
import StubServer
import TextSnapshot
import WeatherApp

/// The package's `Stubs/`, found from this file's path (`#filePath`), so specs find it whatever
/// the working directory is (`swift test` from the package, Xcode, CI).
enum WeatherStubs {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // WeatherAppSpecs/
        .deletingLastPathComponent() // Tests/
        .deletingLastPathComponent() // the package
        .appendingPathComponent("Stubs", isDirectory: true)
    static let settings = folder.appendingPathComponent("settings.json")

    /// A stub server on a free port (port 0) and a view model talking to it.
    @MainActor
    static func start(language: Language = .en) throws -> (StubServer, ForecastViewModel) {
        let server = try StubServer(configFile: settings)
        try server.start()
        let viewModel = ForecastViewModel(
            api: WeatherAPI(baseURL: server.baseURL), strings: WeatherStrings.localizer(for: language))
        return (server, viewModel)
    }
}
