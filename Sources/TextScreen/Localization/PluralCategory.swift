/// CLDR plural categories. `.stringsdict` crashes Foundation on Linux, so TextScreen picks the
/// category itself and looks up `key.<category>` (Kickstarter's key-suffix plurals).
///
/// ```swift
/// PluralCategory.category(for: 1, languageCode: "fr")   // .one  (French: 0 and 1)
/// PluralCategory.category(for: 11, languageCode: "ar")  // .many
/// ```
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other

    /// The category of the integer `count` in a language (CLDR 44 integer rules; see ``PluralRules``
    /// for the languages known; others use the English rule).
    public static func category(for count: Int, languageCode: String) -> PluralCategory {
        PluralRules(languageCode: languageCode).category(for: count)
    }

    /// The categories a language uses, in CLDR order.
    public static func categories(languageCode: String) -> [PluralCategory] {
        PluralRules(languageCode: languageCode).categories
    }
}
