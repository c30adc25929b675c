/// Text for the HTML report: every value from a run is escaped here, so a title such as
/// `<script>` shows as text. Controls other than line feed and tab become U+FFFD.
enum HTMLText {
    /// Escapes `& < > " '`, so the result is safe in text and in quoted attribute values.
    static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text) { scalar, out in
            switch scalar {
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let control = value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value)
                out.unicodeScalars.append(control ? "\u{FFFD}" : scalar)
            }
        }
    }

    /// One line of a diff with what the eye cannot see made visible: no-break and other unusual
    /// spaces as `␣`, zero-width and direction marks as `⁞`, tabs as `→`, a carriage return as `␍`,
    /// each in a `<span class="inv">` naming the character; trailing spaces in `<span class="trail">`.
    static func revealingInvisibles(_ line: String) -> String {
        var body = Substring(line)
        var trailing = 0
        while body.last == " " {
            body = body.dropLast()
            trailing += 1
        }
        var out = ""
        for scalar in body.unicodeScalars {
            if let (mark, name) = invisible(scalar) {
                out += "<span class=\"inv\" title=\"\(codePoint(scalar)) \(name)\">\(mark)</span>"
            } else {
                out += escape(String(scalar))
            }
        }
        if trailing > 0 {
            out +=
                "<span class=\"trail\" title=\"\(trailing) trailing space\(trailing == 1 ? "" : "s")\">"
                + String(repeating: "·", count: trailing) + "</span>"
        }
        return out
    }

    /// The visible stand-in and Unicode name of a character that looks like nothing (or like a space).
    static func invisible(_ scalar: Unicode.Scalar) -> (String, String)? {
        switch scalar.value {
        case 0x09: ("→", "CHARACTER TABULATION")
        case 0x0D: ("␍", "CARRIAGE RETURN")
        case 0xA0: ("␣", "NO-BREAK SPACE")
        case 0x202F: ("␣", "NARROW NO-BREAK SPACE")
        case 0x2007: ("␣", "FIGURE SPACE")
        case 0x2000...0x2006, 0x2008...0x200A, 0x205F: ("␣", "SPACE (\(codePoint(scalar)))")
        case 0x3000: ("␣␣", "IDEOGRAPHIC SPACE")
        case 0x00AD: ("⁞", "SOFT HYPHEN")
        case 0x200B: ("⁞", "ZERO WIDTH SPACE")
        case 0x200C: ("⁞", "ZERO WIDTH NON-JOINER")
        case 0x200D: ("⁞", "ZERO WIDTH JOINER")
        case 0x200E: ("⁞", "LEFT-TO-RIGHT MARK")
        case 0x200F: ("⁞", "RIGHT-TO-LEFT MARK")
        case 0x061C: ("⁞", "ARABIC LETTER MARK")
        case 0x2060: ("⁞", "WORD JOINER")
        case 0xFEFF: ("⁞", "ZERO WIDTH NO-BREAK SPACE")
        case 0x202A...0x202E, 0x2066...0x2069: ("⁞", "DIRECTIONAL FORMATTING")
        default: nil
        }
    }

    /// `U+00A0`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
