/// Wraps and truncates text by display width, following a small subset of UAX #14:
/// break after spaces and hyphens and between wide (CJK, kana, emoji) clusters; never before closing
/// punctuation or small kana (`、。）」ッ…`), never after opening punctuation (`「（`), never at a
/// no-break space, never inside a grapheme cluster. A word longer than the line is hard-broken.
///
/// ```swift
/// LineBreaker.wrap("このプロジェクトを支援してください。", width: 10)
/// // ["このプロジ", "ェクトを支", "援してくだ", "さい。"]  (no line starts with 。)
/// ```
public enum LineBreaker {
    struct Cluster {
        let character: Character
        let width: Int
        let isSpace: Bool

        init(character: Character, width: Int) {
            self.character = character
            self.width = width
            self.isSpace = character.asciiValue == 0x20
        }
    }

    /// Wraps `text` into lines of at most `width` columns. Newlines (LF, CRLF, CR) end paragraphs;
    /// other control characters are shown escaped (`\u{9}`) so they can never hide in a snapshot.
    /// With a `lineLimit`, the last line holds as much of the remaining text as fits, ending in `…`
    /// (like UILabel's tail truncation).
    public static func wrap(_ text: String, width: Int, lineLimit: Int? = nil) -> [String] {
        let width = max(width, 0)
        let paragraphs = visibleParagraphs(text)
        var lines: [String] = []
        for (index, paragraph) in paragraphs.enumerated() {
            let characters = Array(paragraph)
            let wrapped = wrapParagraph(characters, width: width)
            if let limit = lineLimit, limit > 0,
                lines.count + wrapped.count > limit || (lines.count + wrapped.count == limit && index < paragraphs.count - 1)
            {
                let keep = limit - lines.count
                lines += wrapped.prefix(keep - 1).map(\.text)
                let rest = String(characters[wrapped[keep - 1].start...])
                lines.append(forceEllipsis(rest, width: width))
                return lines
            }
            lines += wrapped.map(\.text)
        }
        return lines
    }

    /// Cuts `text` (one line) to `width` columns, ending in `…` when anything was cut.
    /// Wide clusters that would straddle the limit are dropped, never split.
    public static func truncate(_ text: String, width: Int) -> String {
        if DisplayWidth.of(text) <= width { return text }
        return forceEllipsis(text, width: width)
    }

    /// `text` shortened as needed so that `text…` fits in `width` columns; always ends in `…`.
    static func forceEllipsis(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        let budget = width - 1
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > budget { break }
            kept.append(character)
            used += w
        }
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    /// Splits into paragraphs on LF/CRLF/CR and escapes the remaining C0/C1 controls.
    static func visibleParagraphs(_ text: String) -> [String] {
        var paragraphs: [String] = []
        var current = ""
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0A {
                if !previousWasCR { paragraphs.append(current); current = "" }
                previousWasCR = false
                continue
            }
            previousWasCR = false
            if value == 0x0D {
                paragraphs.append(current); current = ""
                previousWasCR = true
                continue
            }
            if value < 0x20 || (0x7F..<0xA0).contains(value) {
                current += "\\u{\(String(value, radix: 16, uppercase: true))}"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        paragraphs.append(current)
        return paragraphs
    }

    /// The lines of one paragraph, each with the index of its first character.
    static func wrapParagraph(_ characters: [Character], width: Int) -> [(text: String, start: Int)] {
        if characters.isEmpty { return [("", 0)] }
        var output: [(text: String, start: Int)] = []
        var line: [Cluster] = []
        var lineStart = 0
        var breaks: [Int] = [] // indexes i in `line` where a break before line[i] is allowed
        var previous: Cluster?
        var lineWidth = 0 // width of `line` without its trailing spaces
        var trailingSpaces = 0

        for character in characters {
            let cluster = Cluster(character: character, width: DisplayWidth.of(character))
            if let previous, !line.isEmpty, canBreak(between: previous, and: cluster) {
                breaks.append(line.count)
            }
            line.append(cluster)
            previous = cluster
            if cluster.isSpace {
                trailingSpaces += cluster.width
            } else {
                lineWidth += trailingSpaces + cluster.width
                trailingSpaces = 0
            }
            guard lineWidth > width else { continue }
            while visibleWidth(line) > width && line.count > 1 {
                let cut = breakIndex(line, breaks: breaks, width: width)
                output.append((render(line[..<cut], trimTrailingSpaces: true), lineStart))
                var rest = Array(line[cut...])
                var dropped = 0
                while rest.first?.isSpace == true { rest.removeFirst(); dropped += 1 }
                breaks = breaks.filter { $0 > cut + dropped }.map { $0 - cut - dropped }
                lineStart += cut + dropped
                line = rest
            }
            lineWidth = visibleWidth(line)
            trailingSpaces = 0
        }
        if !line.isEmpty || output.isEmpty {
            output.append((render(line[...], trimTrailingSpaces: true), min(lineStart, characters.count - 1)))
        }
        return output
    }

    /// Where to end the current (overflowing) line: the last allowed break that fits, else a hard
    /// break at the last cluster that fits, moved back so no line starts with closing punctuation.
    static func breakIndex(_ line: [Cluster], breaks: [Int], width: Int) -> Int {
        for candidate in breaks.reversed() where candidate > 0 {
            if visibleWidth(line[..<candidate]) <= width { return candidate }
        }
        var used = 0
        var cut = 0
        for (index, cluster) in line.enumerated() {
            if used + cluster.width > width { break }
            used += cluster.width
            cut = index + 1
        }
        cut = max(cut, 1)
        var adjusted = cut
        while adjusted > 1 && adjusted < line.count
            && (isClosing(line[adjusted].character) || isOpening(line[adjusted - 1].character))
        {
            adjusted -= 1
        }
        return adjusted > 0 ? adjusted : cut
    }

    static func canBreak(between before: Cluster, and after: Cluster) -> Bool {
        if after.isSpace { return false } // spaces hang at the end of a line
        // Fast path: two ASCII letters or digits never allow a break.
        if let a = before.character.asciiValue, let b = after.character.asciiValue,
            isAlphanumeric(a), isAlphanumeric(b)
        {
            return false
        }
        if isClosing(after.character) { return false } // kinsoku: no line starts with 。）」
        if isOpening(before.character) { return false } // nothing ends with 「（
        if isGlue(before.character) || isGlue(after.character) { return false } // NBSP, NNBSP, WJ
        if before.isSpace { return true }
        if isHyphen(before.character) { return !(after.character.isNumber) }
        if before.width == 2 || after.width == 2 { return true } // ideographic: break between wide clusters
        return false
    }

    static func visibleWidth(_ clusters: some Collection<Cluster>) -> Int {
        var total = 0
        var trailingSpaces = 0
        for cluster in clusters {
            total += cluster.width
            trailingSpaces = cluster.isSpace ? trailingSpaces + cluster.width : 0
        }
        return total - trailingSpaces
    }

    static func render(_ clusters: ArraySlice<Cluster>, trimTrailingSpaces: Bool) -> String {
        var end = clusters.endIndex
        if trimTrailingSpaces {
            while end > clusters.startIndex && clusters[end - 1].isSpace { end -= 1 }
        }
        var text = ""
        for cluster in clusters[clusters.startIndex..<end] { text.append(cluster.character) }
        return text
    }

    // Closing punctuation and non-starters (UAX #14 CL, CP, EX, IS, NS and small kana).
    static let closing: Set<UInt32> = scalarValues([
        "、", "。", "，", "．", "」", "』", "）", "】", "〕", "〉", "》", "｝", "］", "〙", "〗", "〟",
        "！", "？", "：", "；", "ー", "〜", "…", "‥", "・", "々", "ゝ", "ゞ", "ヽ", "ヾ", "゛", "゜",
        "ぁ", "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ", "ゅ", "ょ", "ゎ", "ゕ", "ゖ",
        "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ", "ョ", "ヮ", "ヵ", "ヶ",
        ")", "]", "}", ",", ".", "!", "?", ":", ";", "%", "’", "”", "»", "›", "،", "؛", "؟", "٪",
    ])
    // Opening punctuation (UAX #14 OP and opening quotes).
    static let opening: Set<UInt32> = scalarValues([
        "「", "『", "（", "【", "〔", "〈", "《", "｛", "［", "〘", "〖", "〝", "(", "[", "{", "‘", "“", "«", "‹", "¿", "¡",
    ])

    // Scalar values rather than Characters: hashing a Character normalises it, which is slow.
    static func scalarValues(_ characters: [Character]) -> Set<UInt32> {
        Set(characters.compactMap { $0.unicodeScalars.count == 1 ? $0.unicodeScalars.first!.value : nil })
    }

    static func singleScalar(_ character: Character) -> UInt32? {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else { return nil }
        return first.value
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func isClosing(_ character: Character) -> Bool { singleScalar(character).map(closing.contains) ?? false }
    static func isOpening(_ character: Character) -> Bool { singleScalar(character).map(opening.contains) ?? false }
    static func isHyphen(_ character: Character) -> Bool { character == "-" || character == "\u{2010}" }
    static func isGlue(_ character: Character) -> Bool {
        character == "\u{00A0}" || character == "\u{202F}" || character == "\u{2060}" || character == "\u{FEFF}"
    }
}
