import Foundation
import TextScreen

/// The app's `Localizable.strings` (English and German), from the module's resources.
public enum WeatherStrings {
    public static let localizer: Localizer = {
        do {
            return try Localizer(bundle: .module, language: .en, developmentLanguage: "en")
        } catch {
            fatalError("WeatherApp: cannot load Localizable.strings: \(error)")
        }
    }()

    public static func localizer(for language: Language) -> Localizer {
        localizer.with(language: language)
    }
}
