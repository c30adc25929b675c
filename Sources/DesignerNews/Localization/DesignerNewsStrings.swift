import Foundation
import TextScreen

/// The app's `Localizable.strings` tables (en, de, es, fr, ja, ar, pt), loaded once from the module's
/// `Resources/<lang>.lproj/`. Plurals use key suffixes (`story.points.one`, `.other`, and Arabic's
/// `.zero`, `.two`, `.few`, `.many`), which TextScreen's `Localizer` resolves.
///
/// ```swift
/// let strings = DesignerNewsStrings.localizer(for: .de)
/// strings("login.button")                          // "Anmelden"
/// strings.plural("story.points", count: 42)        // "42 Punkte"
/// ```
public enum DesignerNewsStrings {
    /// Every table, English as the development language.
    public static let localizer: Localizer = {
        do {
            return try Localizer(bundle: .module, language: .en, developmentLanguage: "en")
        } catch {
            fatalError("DesignerNews: cannot load its Localizable.strings from the module bundle: \(error)")
        }
    }()

    /// The tables in `language`.
    public static func localizer(for language: Language) -> Localizer {
        localizer.with(language: language)
    }
}
