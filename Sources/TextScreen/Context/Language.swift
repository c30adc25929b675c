import Foundation

/// A language screens are snapshotted in: an identifier (used in snapshot file names and to find
/// `<identifier>.lproj` tables), a fixed locale, a layout direction and CLDR plural rules.
///
/// An open value type: TextScreen ships presets for Kickstarter's five languages plus Arabic
/// (``allCases``, whose snapshot names never change) and some 30 more; make your own for anything else.
///
/// ```swift
/// Language.ar.direction                 // .rightToLeft
/// Language.de.locale.identifier         // "de_DE"
/// Language.ar.pluralCategory(for: 3)    // .few
/// Language.pt.pluralCategory(for: 0)    // .one   (Brazilian Portuguese)
/// let swissGerman = Language("de-CH", locale: "de_CH", displayName: "Swiss German")
/// let persian = Language("fa")          // right-to-left and Persian plurals, from the code
/// ```
public struct Language: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The identifier in snapshot names (`lang_pt_…`), headers and `.lproj` lookup: `"pt"`, `"de-CH"`.
    public let rawValue: String
    /// The fixed locale's identifier (never `Locale.current`): `"pt_BR"`.
    public let localeIdentifier: String
    /// Reading direction.
    public let direction: LayoutDirection
    /// The language's name in English.
    public let displayName: String
    /// How counts pick plural forms.
    public let pluralRules: PluralRules

    /// A language from its identifier. The locale defaults to the identifier; the direction to
    /// right-to-left for Arabic, Hebrew, Persian, Urdu, Pashto, Yiddish, Dhivehi, Sorani, Sindhi and
    /// Uyghur; the plural rules to the language's CLDR rules (English's when unknown).
    public init(
        _ identifier: String, locale: String? = nil, direction: LayoutDirection? = nil,
        displayName: String? = nil, pluralRules: PluralRules? = nil
    ) {
        let localeIdentifier = locale ?? identifier.replacingOccurrences(of: "-", with: "_")
        self.rawValue = identifier
        self.localeIdentifier = localeIdentifier
        self.direction = direction ?? Language.defaultDirection(forLocale: localeIdentifier)
        self.displayName = displayName ?? identifier
        self.pluralRules = pluralRules ?? PluralRules(languageCode: localeIdentifier)
    }

    /// A preset by identifier (`"pt"`, `"ar"`); nil for identifiers without a preset.
    public init?(rawValue: String) {
        guard let preset = Language.presets.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = preset
    }

    /// A preset from a code such as `"ja"`, `"de-DE"`, `"es_ES"` or `"pt-PT"` (region-specific
    /// presets first, then the language's preset); nil when there is none.
    public init?(languageString: String) {
        let normalized = languageString.replacingOccurrences(of: "_", with: "-")
        if let exact = Language.presets.first(where: { $0.rawValue.lowercased() == normalized.lowercased() }) {
            self = exact
            return
        }
        let code = normalized.lowercased().split(separator: "-").first.map { String($0) } ?? ""
        guard let preset = Language.presets.first(where: { $0.rawValue == code }) else { return nil }
        self = preset
    }

    /// The fixed locale used for this language in snapshots (never `Locale.current`).
    public var locale: Locale { Locale(identifier: localeIdentifier) }

    /// The CLDR plural category of an integer count in this language.
    public func pluralCategory(for count: Int) -> PluralCategory {
        pluralRules.category(for: count)
    }

    public var description: String { rawValue }

    static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"]

    /// Right-to-left when the locale's language is written right to left.
    public static func defaultDirection(forLocale identifier: String) -> LayoutDirection {
        let code = LocaleSubtags.language(of: identifier)
        return rightToLeftLanguages.contains(code) ? .rightToLeft : .leftToRight
    }
}

// MARK: - Presets

extension Language {
    // The original six keep their identifiers and locales, so existing snapshot names never change.
    // `ar` rather than `ar_EG` keeps Latin digits; choose on purpose when you add a region.
    public static let en = Language("en", locale: "en_US", displayName: "English")
    public static let de = Language("de", locale: "de_DE", displayName: "German")
    public static let es = Language("es", locale: "es_ES", displayName: "Spanish")
    public static let fr = Language("fr", locale: "fr_FR", displayName: "French")
    public static let ja = Language("ja", locale: "ja_JP", displayName: "Japanese")
    public static let ar = Language("ar", locale: "ar", displayName: "Arabic")

    /// Portuguese as spoken in Brazil (`pt.lproj`; 0 and 1 take `one`).
    public static let pt = Language("pt", locale: "pt_BR", displayName: "Portuguese")
    /// European Portuguese (`pt-PT.lproj`; only 1 takes `one`).
    public static let ptPT = Language("pt-PT", locale: "pt_PT", displayName: "Portuguese (Portugal)")
    public static let it = Language("it", locale: "it_IT", displayName: "Italian")
    public static let nl = Language("nl", locale: "nl_NL", displayName: "Dutch")
    public static let sv = Language("sv", locale: "sv_SE", displayName: "Swedish")
    public static let da = Language("da", locale: "da_DK", displayName: "Danish")
    public static let nb = Language("nb", locale: "nb_NO", displayName: "Norwegian Bokmål")
    public static let fi = Language("fi", locale: "fi_FI", displayName: "Finnish")
    public static let ru = Language("ru", locale: "ru_RU", displayName: "Russian")
    public static let uk = Language("uk", locale: "uk_UA", displayName: "Ukrainian")
    public static let pl = Language("pl", locale: "pl_PL", displayName: "Polish")
    public static let cs = Language("cs", locale: "cs_CZ", displayName: "Czech")
    public static let sk = Language("sk", locale: "sk_SK", displayName: "Slovak")
    public static let hr = Language("hr", locale: "hr_HR", displayName: "Croatian")
    public static let ro = Language("ro", locale: "ro_RO", displayName: "Romanian")
    public static let hu = Language("hu", locale: "hu_HU", displayName: "Hungarian")
    public static let el = Language("el", locale: "el_GR", displayName: "Greek")
    public static let tr = Language("tr", locale: "tr_TR", displayName: "Turkish")
    public static let he = Language("he", locale: "he_IL", displayName: "Hebrew")
    public static let hi = Language("hi", locale: "hi_IN", displayName: "Hindi")
    /// Simplified Chinese (`zh-Hans.lproj`).
    public static let zhHans = Language("zh-Hans", locale: "zh_Hans_CN", displayName: "Chinese (Simplified)")
    /// Traditional Chinese (`zh-Hant.lproj`).
    public static let zhHant = Language("zh-Hant", locale: "zh_Hant_TW", displayName: "Chinese (Traditional)")
    public static let ko = Language("ko", locale: "ko_KR", displayName: "Korean")
    public static let th = Language("th", locale: "th_TH", displayName: "Thai")
    public static let vi = Language("vi", locale: "vi_VN", displayName: "Vietnamese")
    public static let id = Language("id", locale: "id_ID", displayName: "Indonesian")
    public static let ca = Language("ca", locale: "ca_ES", displayName: "Catalan")

    /// Kickstarter's five languages plus Arabic: the default matrix, whose snapshot names never change.
    public static let allCases: [Language] = [.en, .de, .es, .fr, .ja, .ar]

    /// Same as ``allCases``; Kickstarter's spelling.
    public static var allLanguages: [Language] { allCases }

    /// Every preset, the original six first.
    public static let presets: [Language] =
        allCases + [
            .pt, .ptPT, .it, .nl, .sv, .da, .nb, .fi, .ru, .uk, .pl, .cs, .sk, .hr, .ro, .hu, .el, .tr, .he, .hi,
            .zhHans, .zhHant, .ko, .th, .vi, .id, .ca,
        ]
}
