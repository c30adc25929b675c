import Foundation

/// The languages screens are snapshotted in: Kickstarter's five plus Arabic for right-to-left.
///
/// ```swift
/// Language.ar.direction            // .rightToLeft
/// Language.de.locale.identifier    // "de_DE"
/// Language.ar.pluralCategory(for: 3) // .few
/// ```
public enum Language: String, CaseIterable, Sendable, Hashable, Codable {
    case en, de, es, fr, ja, ar

    /// Same as `allCases`; Kickstarter's spelling.
    public static var allLanguages: [Language] { allCases }

    /// A language from a code such as `"ja"`, `"de-DE"` or `"es_ES"`.
    public init?(languageString: String) {
        let code = languageString.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        self.init(rawValue: code)
    }

    /// The fixed locale used for this language in snapshots (never `Locale.current`).
    /// `ar` rather than `ar_EG` keeps Latin digits; choose on purpose when you add a region.
    public var locale: Locale {
        switch self {
        case .en: Locale(identifier: "en_US")
        case .de: Locale(identifier: "de_DE")
        case .es: Locale(identifier: "es_ES")
        case .fr: Locale(identifier: "fr_FR")
        case .ja: Locale(identifier: "ja_JP")
        case .ar: Locale(identifier: "ar")
        }
    }

    /// Reading direction.
    public var direction: LayoutDirection { self == .ar ? .rightToLeft : .leftToRight }

    /// The language's name in English.
    public var displayName: String {
        switch self {
        case .en: "English"
        case .de: "German"
        case .es: "Spanish"
        case .fr: "French"
        case .ja: "Japanese"
        case .ar: "Arabic"
        }
    }

    /// The CLDR plural category of an integer count in this language.
    public func pluralCategory(for count: Int) -> PluralCategory {
        PluralCategory.category(for: count, languageCode: rawValue)
    }
}
