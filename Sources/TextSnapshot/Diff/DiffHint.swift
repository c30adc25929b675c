/// The `?` line printed under a changed `-`/`+` pair: a caret at the first differing display column,
/// then what differs in words — the Unicode names of the differing scalars, and when it applies,
/// canonical equivalence (NFC vs NFD), trailing whitespace, a CRLF line end or a missing final newline.
///
/// ```text
/// -│ Ends Nov 14, 2023 at 10:13 PM │
/// +│ Ends Nov 14, 2023 at 10:13 PM │
/// ?                             ^ col 30: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE
/// ```
public struct DiffHint: Sendable, Equatable {
    /// 1-based display column of the first difference.
    public let column: Int
    /// What differs, e.g. `col 30: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE`.
    public let explanation: String
    /// The whole hint line, `?` + caret + explanation.
    public var line: String { "?" + String(repeating: " ", count: column - 1) + "^ " + explanation }

    /// Compares the reference line `old` with the actual line `new` (both without their LF).
    public init(old: String, oldHasNewline: Bool = true, new: String, newHasNewline: Bool = true) {
        let a = Array(old.unicodeScalars)
        let b = Array(new.unicodeScalars)
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }

        let column = DiffHint.column(of: prefix, in: old.utf8.count <= new.utf8.count ? new : old)
        var notes: [String] = []
        if a == b {
            notes.append(oldHasNewline ? "no newline at the end of the actual text" : "no newline at the end of the reference")
        } else {
            let removed = a[prefix..<(a.count - suffix)]
            let added = b[prefix..<(b.count - suffix)]
            notes.append("\(DiffHint.describe(removed)) vs \(DiffHint.describe(added))")
            if old == new { notes.append("canonically equivalent (NFC vs NFD): same text, different normalization") }
            if a.last == "\r" && b.last != "\r" { notes.append("CRLF line ending in the reference") }
            if b.last == "\r" && a.last != "\r" { notes.append("CRLF line ending in the actual text") }
            if old != new && DiffHint.trimmingTrailingWhitespace(a) == DiffHint.trimmingTrailingWhitespace(b) && a.last != "\r" && b.last != "\r" {
                notes.append("trailing whitespace")
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
}
