import Foundation

/// The `?` line printed under a changed `-`/`+` pair: a caret at the first differing display column,
/// then what differs in words.
///
/// A plainly visible change is quoted, word by word, so the eye finds it at once:
/// ```text
/// -│             ( Anmelden )             │
/// +│            ( Einloggen )             │
/// ?             ^ col 14: "Anmelden" → "Einloggen"
/// ```
/// When the change involves something the eye cannot see or tell apart — whitespace other than a
/// plain space, a whitespace-only change, format characters (ZWJ, RLM), combining marks, controls
/// (CR), look-alikes (Cyrillic `а` for Latin `a`, `’` for `'`) — the scalars are named instead,
/// with canonical equivalence (NFC vs NFD), trailing whitespace, a CRLF line end or a missing
/// final newline called out:
/// ```text
/// -│ Ends Nov 14, 2023 at 10:13 PM │
/// +│ Ends Nov 14, 2023 at 10:13 PM │
/// ?                             ^ col 30: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE
/// ```
public struct DiffHint: Sendable, Equatable {
    /// 1-based display column of the first difference.
    public let column: Int
    /// What differs, e.g. `col 14: "Anmelden" → "Einloggen"` or
    /// `col 30: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE`.
    public let explanation: String
    /// The whole hint line, `?` + caret + explanation.
    public var line: String { "?" + String(repeating: " ", count: column - 1) + "^ " + explanation }

    /// Quoted text on either side of `→` is clipped to this many display columns.
    public static let quoteLimit = 32

    /// Compares the reference line `old` with the actual line `new` (both without their LF).
    public init(old: String, oldHasNewline: Bool = true, new: String, newHasNewline: Bool = true) {
        let a = Array(old.unicodeScalars)
        let b = Array(new.unicodeScalars)
        let (prefix, suffix) = LineDiff.commonEnds(a, b)

        let column = DiffHint.column(of: prefix, in: old.utf8.count <= new.utf8.count ? new : old)
        var notes: [String] = []
        if a == b {
            notes.append(oldHasNewline ? "no newline at the end of the actual text" : "no newline at the end of the reference")
        } else {
            let removed = a[prefix..<(a.count - suffix)]
            let added = b[prefix..<(b.count - suffix)]
            if let quoted = DiffHint.plainChange(old: old, new: new, removed: removed, added: added) {
                notes.append(quoted)
            } else {
                notes.append("\(DiffHint.describe(removed)) vs \(DiffHint.describe(added))")
                if old == new { notes.append("canonically equivalent (NFC vs NFD): same text, different normalization") }
                if a.last == "\r" && b.last != "\r" { notes.append("CRLF line ending in the reference") }
                if b.last == "\r" && a.last != "\r" { notes.append("CRLF line ending in the actual text") }
                if old != new && DiffHint.trimmingTrailingWhitespace(a) == DiffHint.trimmingTrailingWhitespace(b) && a.last != "\r"
                    && b.last != "\r"
                {
                    notes.append("trailing whitespace")
                }
            }
            if oldHasNewline != newHasNewline {
                notes.append(oldHasNewline ? "no newline at the end of the actual text" : "no newline at the end of the reference")
            }
        }
        self.column = column
        self.explanation = "col \(column): " + notes.joined(separator: "; ")
    }

    /// The display column (1-based) of the grapheme cluster holding scalar number `scalarOffset`.
    static func column(of scalarOffset: Int, in text: String) -> Int {
        var width = 0
        var scalars = 0
        for character in text {
            let count = character.unicodeScalars.count
            if scalars + count > scalarOffset { break }
            scalars += count
            width += DisplayWidth.of(character)
        }
        return width + 1
    }

    static func describe(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        if scalars.isEmpty { return "nothing" }
        let shown = scalars.prefix(3).map(ScalarNames.describe).joined(separator: " ")
        return scalars.count > 3 ? shown + " …(+\(scalars.count - 3) more)" : shown
    }

    static func trimmingTrailingWhitespace(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var end = scalars.count
        while end > 0 && scalars[end - 1].properties.isWhitespace { end -= 1 }
        return Array(scalars[..<end])
    }

    // MARK: Plainly visible changes

    /// `"Anmelden" → "Einloggen"` when the change is plainly visible, else nil (name the scalars).
    /// `removed`/`added` are the scalars between the lines' common prefix and suffix.
    static func plainChange(old: String, new: String, removed: ArraySlice<Unicode.Scalar>, added: ArraySlice<Unicode.Scalar>) -> String? {
        guard old != new, // canonically equivalent: only the scalars tell them apart
            !removed.contains(where: isHardToSee), !added.contains(where: isHardToSee),
            !lookAlike(removed, added)
        else { return nil }
        // Compare word by word, so a shifted, centred label reads as the words that changed.
        let oldTokens = visibleTokens(old)
        let newTokens = visibleTokens(new)
        var head = 0
        while head < oldTokens.count && head < newTokens.count && same(oldTokens[head], newTokens[head], old, new) { head += 1 }
        var tail = 0
        while tail < oldTokens.count - head && tail < newTokens.count - head
            && same(oldTokens[oldTokens.count - 1 - tail], newTokens[newTokens.count - 1 - tail], old, new)
        { tail += 1 }
        let oldMiddle = oldTokens[head..<(oldTokens.count - tail)]
        let newMiddle = newTokens[head..<(newTokens.count - tail)]
        if oldMiddle.isEmpty && newMiddle.isEmpty {
            // Only spaces differ. Name them when that is all the changed run holds ("nothing vs
            // U+0020 SPACE"); when text moved, say how many spaces it has before it now.
            if (removed + added).allSatisfy({ $0 == " " }) { return nil }
            return spacingChange(oldTokens, old, newTokens, new)
        }
        return quote(oldMiddle, in: old) + " → " + quote(newMiddle, in: new)
    }

    /// `only spaces differ: 3 vs 2 before "( OK )"` for two lines with the same tokens.
    private static func spacingChange(_ oldTokens: [Range<Int>], _ old: String, _ newTokens: [Range<Int>], _ new: String) -> String {
        let oldEnd = old.unicodeScalars.count
        let newEnd = new.unicodeScalars.count
        for index in 0...oldTokens.count {
            let oldGap =
                (index < oldTokens.count ? oldTokens[index].lowerBound : oldEnd) - (index == 0 ? 0 : oldTokens[index - 1].upperBound)
            let newGap =
                (index < newTokens.count ? newTokens[index].lowerBound : newEnd) - (index == 0 ? 0 : newTokens[index - 1].upperBound)
            guard oldGap != newGap else { continue }
            let place: String
            if index < oldTokens.count {
                // Name the run of tokens up to the next change of spacing, as the reader sees it.
                var last = index
                while last + 1 < oldTokens.count,
                    oldTokens[last + 1].lowerBound - oldTokens[last].upperBound == newTokens[last + 1].lowerBound
                        - newTokens[last].upperBound,
                    oldTokens[last + 1].lowerBound - oldTokens[last].upperBound <= 1
                { last += 1 }
                place = "before " + quote(oldTokens[index...last], in: old)
            } else {
                place = "at the end of the line"
            }
            return "only spaces differ: \(oldGap) vs \(newGap) \(place)"
        }
        return "only spaces differ"
    }

    /// Scalars a reader cannot see or cannot tell from another: any whitespace but U+0020 SPACE,
    /// controls, format characters, combining and enclosing marks, default-ignorable code points,
    /// variation selectors, private use, unassigned and surrogate code points.
    static func isHardToSee(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return false }
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || properties.isVariationSelector { return true }
        if properties.canonicalCombiningClass != .notReordered { return true }
        switch properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .spaceSeparator, .lineSeparator, .paragraphSeparator,
            .privateUse, .surrogate, .unassigned:
            return true
        default:
            return false
        }
    }

    /// True when the two changed runs look alike scalar for scalar (Cyrillic `а` for `a`, `’` for `'`,
    /// `–` for `-`, fullwidth `Ａ` for `A`): what differs is then best named, not quoted.
    static func lookAlike(_ removed: ArraySlice<Unicode.Scalar>, _ added: ArraySlice<Unicode.Scalar>) -> Bool {
        guard removed.count == added.count, !removed.isEmpty else { return false }
        return zip(removed, added).allSatisfy { x, y in x == y || skeleton(x) == skeleton(y) }
    }

    /// What a scalar looks like, roughly: a few well-known non-ASCII look-alikes mapped to ASCII,
    /// then compatibility decomposition (fullwidth forms, ligatures). Not Unicode's full confusables list.
    static func skeleton(_ scalar: Unicode.Scalar) -> String {
        if let ascii = lookAlikes[scalar.value] { return ascii }
        return String(scalar).decomposedStringWithCompatibilityMapping
    }

    static let lookAlikes: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        let groups: [(String, [UInt32])] = [
            ("a", [0x0430]), ("c", [0x0441, 0x03F2]), ("d", [0x0501]), ("e", [0x0435]), ("h", [0x04BB]),
            ("i", [0x0456]), ("j", [0x0458]), ("l", [0x04CF]), ("o", [0x043E, 0x03BF]), ("p", [0x0440]),
            ("s", [0x0455]), ("v", [0x03BD]), ("x", [0x0445]), ("y", [0x0443]),
            ("A", [0x0410, 0x0391]), ("B", [0x0412, 0x0392]), ("C", [0x0421, 0x03F9]), ("E", [0x0415, 0x0395]),
            ("H", [0x041D, 0x0397]), ("I", [0x0406, 0x0399]), ("J", [0x0408]), ("K", [0x041A, 0x039A]),
            ("M", [0x041C, 0x039C]), ("N", [0x039D]), ("O", [0x041E, 0x039F]), ("P", [0x0420, 0x03A1]),
            ("S", [0x0405]), ("T", [0x0422, 0x03A4]), ("X", [0x0425, 0x03A7]), ("Y", [0x03A5]), ("Z", [0x0396]),
            ("-", [0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212]),
            ("'", [0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x00B4]),
            ("\"", [0x201C, 0x201D, 0x201E, 0x201F, 0x2033]),
            ("/", [0x2044, 0x2215]), (".", [0x2024]),
        ]
        for (ascii, scalars) in groups {
            for scalar in scalars { table[scalar] = ascii }
        }
        return table
    }()

    /// The non-space tokens of a line as scalar offset ranges: runs of narrow letters, digits and
    /// `_` form words; every other character (punctuation, a CJK ideograph, an emoji) stands alone.
    static func visibleTokens(_ line: String) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var offset = 0
        var wordStart: Int?
        for character in line {
            let count = character.unicodeScalars.count
            defer { offset += count }
            let isWordPart = (character.isLetter || character.isNumber || character == "_") && DisplayWidth.of(character) == 1
            if isWordPart {
                if wordStart == nil { wordStart = offset }
                continue
            }
            if let start = wordStart {
                tokens.append(start..<offset)
                wordStart = nil
            }
            if !character.isWhitespace { tokens.append(offset..<(offset + count)) }
        }
        if let start = wordStart { tokens.append(start..<offset) }
        return tokens
    }

    private static func same(_ x: Range<Int>, _ y: Range<Int>, _ old: String, _ new: String) -> Bool {
        x.count == y.count && slice(old, x).elementsEqual(slice(new, y))
    }

    private static func slice(_ text: String, _ range: Range<Int>) -> Substring.UnicodeScalarView {
        let scalars = text.unicodeScalars
        let start = scalars.index(scalars.startIndex, offsetBy: range.lowerBound)
        let end = scalars.index(start, offsetBy: range.count)
        return scalars[start..<end]
    }

    /// The text from the first to the last token (spaces between them kept), quoted and clipped
    /// to ``quoteLimit`` columns; `nothing` when there is no token.
    private static func quote(_ tokens: ArraySlice<Range<Int>>, in line: String) -> String {
        guard let first = tokens.first, let last = tokens.last else { return "nothing" }
        let text = String(slice(line, first.lowerBound..<last.upperBound))
        var shown = text
        if DisplayWidth.of(text) > quoteLimit {
            shown = ""
            var width = 0
            for character in text {
                let next = DisplayWidth.of(character)
                if width + next > quoteLimit - 1 { break }
                shown.append(character)
                width += next
            }
            while shown.last == " " { shown.removeLast() }
            shown += "…"
        }
        return "\"" + shown.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
