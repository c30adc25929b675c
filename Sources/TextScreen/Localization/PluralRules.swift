/// CLDR plural rules for integer counts (CLDR 44), by language: which ``PluralCategory`` a count
/// takes and which categories a language uses. Over 30 languages are known; any other language
/// uses the English rule (`one` for exactly 1).
///
/// ```swift
/// PluralRules(languageCode: "ru").category(for: 21)   // .one   (21 книга)
/// PluralRules(languageCode: "ru").category(for: 22)   // .few   (22 книги)
/// PluralRules(languageCode: "ru").category(for: 25)   // .many  (25 книг)
/// PluralRules(languageCode: "ar").categories          // [.zero, .one, .two, .few, .many, .other]
/// PluralRules(languageCode: "pt-PT").category(for: 0) // .other (Brazilian Portuguese says .one)
/// ```
public struct PluralRules: Sendable, Hashable, Codable {
    /// The rule set's key: a language code (`ru`), or `pt_PT` for European Portuguese.
    public let key: String

    /// Rules for a language code or locale identifier (`"pl"`, `"pt-BR"`, `"zh_Hans_CN"`).
    public init(languageCode: String) {
        let parts = LocaleSubtags.of(languageCode)
        let language = parts.first ?? ""
        if language == "pt", parts.dropFirst().contains("pt") {
            key = "pt_PT"
        } else if language == "iw" {
            key = "he"
        } else if language == "no" || language == "nn" {
            key = "nb"
        } else {
            key = PluralRules.known.contains(language) ? language : "en"
        }
    }

    /// Whether TextScreen has this language's own rules (otherwise it uses the English rule).
    public static func isKnown(_ languageCode: String) -> Bool {
        let language = LocaleSubtags.language(of: languageCode)
        return known.contains(language) || ["iw", "no", "nn"].contains(language)
    }

    /// The language codes with rules of their own.
    public static let known: Set<String> = [
        "en", "de", "nl", "sv", "da", "nb", "fi", "el", "hu", "tr", "bg", "et", "ka",
        "fr", "es", "it", "ca", "pt",
        "ru", "uk", "be", "pl", "cs", "sk", "hr", "sr", "bs", "sl", "lt", "lv", "ro",
        "ar", "he", "cy", "ga",
        "hi", "bn", "fa", "zu",
        "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my",
    ]

    /// The category of the integer `count`.
    public func category(for count: Int) -> PluralCategory {
        let n = count.magnitude
        let mod10 = n % 10
        let mod100 = n % 100
        switch key {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my":
            return .other
        case "fr", "pt":
            if n == 0 || n == 1 { return .one }
            return Self.isWholeMillions(n) ? .many : .other
        case "es", "it", "ca", "pt_PT":
            if n == 1 { return .one }
            return Self.isWholeMillions(n) ? .many : .other
        case "hi", "bn", "fa", "zu":
            return n == 0 || n == 1 ? .one : .other
        case "ru", "uk", "be":
            if mod10 == 1 && mod100 != 11 { return .one }
            return Self.endsInTwoToFourButNotTeen(mod10: mod10, mod100: mod100) ? .few : .many
        case "pl":
            if n == 1 { return .one }
            return Self.endsInTwoToFourButNotTeen(mod10: mod10, mod100: mod100) ? .few : .many
        case "cs", "sk":
            if n == 1 { return .one }
            if (2...4).contains(n) { return .few }
            return .other
        case "hr", "sr", "bs":
            if mod10 == 1 && mod100 != 11 { return .one }
            return Self.endsInTwoToFourButNotTeen(mod10: mod10, mod100: mod100) ? .few : .other
        case "sl":
            if mod100 == 1 { return .one }
            if mod100 == 2 { return .two }
            if mod100 == 3 || mod100 == 4 { return .few }
            return .other
        case "lt":
            if mod10 == 1 && !(11...19).contains(mod100) { return .one }
            if (2...9).contains(mod10) && !(11...19).contains(mod100) { return .few }
            return .other
        case "lv":
            if mod10 == 0 || (11...19).contains(mod100) { return .zero }
            if mod10 == 1 && mod100 != 11 { return .one }
            return .other
        case "ro":
            if n == 1 { return .one }
            if n == 0 || (1...19).contains(mod100) { return .few }
            return .other
        case "ar":
            if n == 0 { return .zero }
            if n == 1 { return .one }
            if n == 2 { return .two }
            if (3...10).contains(mod100) { return .few }
            if (11...99).contains(mod100) { return .many }
            return .other
        case "he":
            if n == 1 { return .one }
            if n == 2 { return .two }
            return .other
        case "cy":
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            case 3: return .few
            case 6: return .many
            default: return .other
            }
        case "ga":
            if n == 1 { return .one }
            if n == 2 { return .two }
            if (3...6).contains(n) { return .few }
            if (7...10).contains(n) { return .many }
            return .other
        default: // en, de, nl, sv, da, nb, fi, el, hu, tr, bg, et, ka: one for exactly 1.
            return n == 1 ? .one : .other
        }
    }

    /// CLDR's `many` in the Romance languages: a whole number of millions (`1 000 000 de livres`).
    private static func isWholeMillions(_ n: UInt) -> Bool {
        n != 0 && n % 1_000_000 == 0
    }

    /// CLDR's `few` in the Slavic languages: ends in 2, 3 or 4, but not 12, 13 or 14 (`22 книги`).
    private static func endsInTwoToFourButNotTeen(mod10: UInt, mod100: UInt) -> Bool {
        (2...4).contains(mod10) && !(12...14).contains(mod100)
    }

    /// The categories the language uses, in CLDR order (`zero one two few many other`).
    public var categories: [PluralCategory] {
        switch key {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my": [.other]
        case "fr", "pt", "es", "it", "ca", "pt_PT": [.one, .many, .other]
        case "ru", "uk", "be", "pl": [.one, .few, .many, .other]
        case "cs", "sk": [.one, .few, .many, .other]
        case "hr", "sr", "bs", "lt", "ro": [.one, .few, .other]
        case "sl": [.one, .two, .few, .other]
        case "lv": [.zero, .one, .other]
        case "he": [.one, .two, .other]
        case "ar", "cy": [.zero, .one, .two, .few, .many, .other]
        case "ga": [.one, .two, .few, .many, .other]
        default: [.one, .other]
        }
    }
}
