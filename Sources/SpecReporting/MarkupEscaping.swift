/// The escaping the HTML report and `junit.xml` share: `& < > "` become entities everywhere; the
/// apostrophe, line breaks and control characters are where HTML and XML 1.0 differ, so each
/// renderer says what becomes of every other character.
enum MarkupEscaping {
    /// `text` with `& < > "` escaped and every other character written by `other`; text that needs
    /// nothing (the common case, found by a C-library scan) comes back as it is.
    static func escape(_ text: String, other: (Unicode.Scalar, inout String) -> Void) -> String {
        if !needsEscaping(text) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: other(scalar, &out)
            }
        }
        return out
    }

    /// Whether `text` holds anything an escape changes.
    static func needsEscaping(_ text: String) -> Bool {
        CStringScan.contains(anyOf: specials, in: text)
    }

    /// Markup, control characters, and 0xEF, the UTF-8 lead byte of U+F000…U+FFFF
    /// (where U+FFFE and U+FFFF live), NUL-terminated. The controls are a typed range, as in
    /// `FragmentEncoder.specials`: a mapped `Int` range is a slow expression to type-check.
    private static let specials: [CChar] =
        "&<>\"'".utf8.map { CChar(bitPattern: $0) } + (1 as CChar..<0x20) + [CChar(bitPattern: 0xEF), 0]
}
