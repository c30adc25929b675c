/// Display width of text on a terminal-style grid, in columns.
///
/// Swift has no East Asian Width property, so the module carries its own table
/// (`DisplayWidthTable`, generated from Unicode data). Rules, per grapheme cluster:
/// - control, format (ZWSP, RLM, ZWJ, soft hyphen), separators and a cluster that starts with a
///   combining mark take 0 columns;
/// - a cluster with U+FE0E (text presentation) takes 1;
/// - a cluster with U+FE0F after an emoji, emoji-presentation scalars, flags, and East Asian Wide or
///   Fullwidth scalars (CJK, kana, Hangul, fullwidth forms) take 2;
/// - everything else takes 1, including East Asian *Ambiguous* characters (…, —, →, Greek, Cyrillic).
///
/// ```swift
/// DisplayWidth.of("日本語")   // 6
/// DisplayWidth.of("e\u{301}") // 1
/// DisplayWidth.of("👨‍👩‍👧")  // 2
/// ```
public enum DisplayWidth {
    /// Columns taken by a string (the sum over its grapheme clusters).
    public static func of(_ string: some StringProtocol) -> Int {
        var total = 0
        // Fast path: pure printable ASCII is one column per byte.
        var allASCII = true
        for byte in string.utf8 {
            if byte < 0x20 || byte >= 0x7F { allASCII = false; break }
            total += 1
        }
        if allASCII { return total }
        total = 0
        for character in string { total += of(character) }
        return total
    }

    /// Columns taken by one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return width(of: first) }
        var hasTextSelector = false
        var hasEmojiSelector = false
        var widest = 0
        for scalar in scalars {
            switch scalar.value {
            case 0xFE0E: hasTextSelector = true
            case 0xFE0F: hasEmojiSelector = true
            default: widest = max(widest, width(of: scalar))
            }
        }
        if widest == 0 { return 0 }
        if hasTextSelector { return 1 }
        if hasEmojiSelector && first.properties.isEmoji { return 2 }
        return widest
    }

    /// Columns taken by a single scalar seen on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int { width(of: scalar) }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x10000 { return Int(basicPlane[Int(value)]) }
        return computeWidth(of: scalar)
    }

    /// Widths of the Basic Multilingual Plane, computed once: property lookups are the hot spot of layout.
    static let basicPlane: [UInt8] = (0..<0x10000).map { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return 1 } // surrogates never occur in a String
        return UInt8(computeWidth(of: scalar))
    }

    static func computeWidth(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 } // DEL and C1 controls
        // Hangul medial vowels and final consonants join the leading consonant's two columns.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if value >= 0x1100 && isWide(value) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    static func isWide(_ value: UInt32) -> Bool {
        let table = DisplayWidthTable.wide
        var low = 0
        var high = table.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = table[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
