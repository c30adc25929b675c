/// CLDR plural categories. `.stringsdict` crashes Foundation on Linux, so TextScreen picks the
/// category itself and looks up `key.<category>` (Kickstarter's key-suffix plurals).
///
/// ```swift
/// PluralCategory.category(for: 1, languageCode: "fr")   // .one  (French: 0 and 1)
/// PluralCategory.category(for: 11, languageCode: "ar")  // .many
/// ```
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other

    /// The category of the integer `count` in a language (CLDR 44 integer rules for en, de, es, fr,
    /// ja and ar; other languages use the English rule).
    public static func category(for count: Int, languageCode: String) -> PluralCategory {
        let n = count.magnitude
        switch languageCode {
        case "ja", "zh", "ko":
            return .other
        case "fr":
            if n == 0 || n == 1 { return .one }
            if n != 0 && n % 1_000_000 == 0 { return .many }
            return .other
        case "es", "it", "pt":
            if n == 1 { return .one }
            if n != 0 && n % 1_000_000 == 0 { return .many }
            return .other
        case "ar":
            if n == 0 { return .zero }
            if n == 1 { return .one }
            if n == 2 { return .two }
            let mod100 = n % 100
            if (3...10).contains(mod100) { return .few }
            if (11...99).contains(mod100) { return .many }
            return .other
        default: // en, de and most Germanic languages: one for exactly 1.
            return n == 1 ? .one : .other
        }
    }

    /// The categories a language uses, in CLDR order.
    public static func categories(languageCode: String) -> [PluralCategory] {
        switch languageCode {
        case "ja", "zh", "ko": [.other]
        case "fr", "es", "it", "pt": [.one, .many, .other]
        case "ar": [.zero, .one, .two, .few, .many, .other]
        default: [.one, .other]
        }
    }
}
