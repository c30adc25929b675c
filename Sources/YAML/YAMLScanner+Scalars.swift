import RehearsalJSON

/// Scalar scanning: plain, single- and double-quoted, literal and folded, with YAML 1.2's line
/// folding (a single line break between text becomes a space, n > 1 breaks become n - 1 newlines).
extension YAMLScanner {
    // MARK: Plain

    mutating func scanPlainScalar() throws(YAMLSyntaxError) -> (String, YAMLMark) {
        var out: [UInt8] = []
        var folding = LineFolding()
        let minimumIndent = indent + 1
        var end = mark
        while true {
            if column == 0 && (isDocumentMarker(UInt8(ascii: "-")) || isDocumentMarker(UInt8(ascii: "."))) { break }
            if peek() == UInt8(ascii: "#") { break }
            while !isBlankZ() {
                let byte = peek()
                if byte == UInt8(ascii: ":") {
                    if isBlankZ(1) || (flowLevel > 0 && Self.isFlowIndicator(peek(1))) { break }
                } else if flowLevel > 0 && Self.isFlowIndicator(byte) {
                    break
                }
                folding.flush(into: &out) // only between words: trailing blanks are dropped
                copy(into: &out)
                end = mark
            }
            guard Self.isBlank(peek()) || Self.isBreak(peek()) else { break }
            while Self.isBlank(peek()) || Self.isBreak(peek()) {
                if Self.isBlank(peek()) {
                    if folding.leadingBlanks && column < minimumIndent && peek() == 0x09 && flowLevel == 0 && !isTabOnlyLine() {
                        throw fail("tab characters cannot indent")
                    }
                    folding.blank(peek())
                    advance()
                } else {
                    folding.lineBreak()
                    skipBreak()
                }
            }
            if flowLevel == 0 && column < minimumIndent { break }
        }
        if folding.leadingBlanks { simpleKeyAllowed = true }
        return (String(decoding: out, as: UTF8.self), end)
    }

    // MARK: Quoted

    mutating func scanFlowScalar(double: Bool) throws(YAMLSyntaxError) -> String {
        let start = mark
        let quote: UInt8 = double ? UInt8(ascii: "\"") : UInt8(ascii: "'")
        advance()
        var out: [UInt8] = []
        while true {
            if column == 0 && (isDocumentMarker(UInt8(ascii: "-")) || isDocumentMarker(UInt8(ascii: "."))) {
                throw fail("found a document marker inside the quoted scalar that starts at \(start)")
            }
            if atEnd {
                throw fail("the quoted scalar that starts at \(start) is not closed; expected \(double ? "'\"'" : "\"'\"")")
            }
            var folding = LineFolding()
            while !isBlankZ() {
                let byte = peek()
                if !double && byte == UInt8(ascii: "'") && peek(1) == UInt8(ascii: "'") {
                    out.append(byte)
                    advance(2)
                } else if byte == quote {
                    break
                } else if double && byte == UInt8(ascii: "\\") && isBreak(at: 1) {
                    advance()
                    skipBreak()
                    folding.leadingBlanks = true // an escaped line break folds to nothing
                    break
                } else if double && byte == UInt8(ascii: "\\") {
                    try scanEscape(into: &out)
                } else {
                    copy(into: &out)
                }
            }
            if peek() == quote { break }
            // Blanks and breaks: fold them.
            while Self.isBlank(peek()) || Self.isBreak(peek()) {
                if Self.isBlank(peek()) {
                    folding.blank(peek())
                    advance()
                } else {
                    folding.lineBreak()
                    skipBreak()
                    if flowLevel == 0 && !atEnd && !Self.isBreak(peek()) {
                        try checkContinuationIndent(scalarStart: start)
                    }
                }
            }
            folding.flush(into: &out)
        }
        advance() // closing quote
        return String(decoding: out, as: UTF8.self)
    }

    func isBreak(at ahead: Int) -> Bool {
        let at = index + ahead
        return at < bytes.count && Self.isBreak(bytes[at])
    }

    /// In block context a quoted scalar's continuation lines must be indented past the
    /// enclosing block (a tab does not count as indentation).
    mutating func checkContinuationIndent(scalarStart: YAMLMark) throws(YAMLSyntaxError) {
        var probe = index
        var spaces = 0
        while probe < bytes.count, bytes[probe] == 0x20 {
            probe += 1
            spaces += 1
        }
        if probe < bytes.count, Self.isBreak(bytes[probe]) { return }
        if spaces <= indent && !(probe < bytes.count && bytes[probe] == 0x09 && spaces > indent) {
            throw fail("the continuation line of the quoted scalar that starts at \(scalarStart) must be indented more than its block")
        }
    }

    mutating func scanEscape(into out: inout [UInt8]) throws(YAMLSyntaxError) {
        let start = mark
        advance() // '\'
        let code = peek()
        var hexDigits = 0
        if let decoded = StringEscapes.letter(code) {
            out.append(decoded) // JSON's one-letter escapes are YAML's too
        } else {
            switch code {
            case UInt8(ascii: "0"): out.append(0)
            case UInt8(ascii: "a"): out.append(7)
            case 0x09: out.append(9)
            case UInt8(ascii: "v"): out.append(11)
            case UInt8(ascii: "e"): out.append(0x1B)
            case UInt8(ascii: " "): out.append(0x20)
            case UInt8(ascii: "N"): out.append(contentsOf: [0xC2, 0x85])
            case UInt8(ascii: "_"): out.append(contentsOf: [0xC2, 0xA0])
            case UInt8(ascii: "L"): out.append(contentsOf: [0xE2, 0x80, 0xA8])
            case UInt8(ascii: "P"): out.append(contentsOf: [0xE2, 0x80, 0xA9])
            case UInt8(ascii: "x"): hexDigits = 2
            case UInt8(ascii: "u"): hexDigits = 4
            case UInt8(ascii: "U"): hexDigits = 8
            default:
                throw fail("unknown escape '\\\(describeCharacter().trimmingQuotes)' in a double-quoted scalar", at: start)
            }
        }
        advance()
        guard hexDigits > 0 else { return }
        var value: UInt32 = 0
        for _ in 0..<hexDigits {
            guard let digit = StringEscapes.hexDigit(peek()) else {
                throw fail("expected \(hexDigits) hex digits after '\\\(Character(Unicode.Scalar(code)))', found \(describeCharacter())")
            }
            value = value << 4 | UInt32(digit)
            advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw fail(
                "the escape '\\\(Character(Unicode.Scalar(code)))' names U+\(String(value, radix: 16, uppercase: true)), which is not a Unicode scalar",
                at: start)
        }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    // MARK: Block

    mutating func scanBlockScalar(folded: Bool) throws(YAMLSyntaxError) -> String {
        let start = mark
        advance() // '|' or '>'
        var chomping = 0 // -1 strip, 0 clip, +1 keep
        var increment = 0
        for _ in 0..<2 {
            let byte = peek()
            if chomping == 0 && (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) {
                chomping = byte == UInt8(ascii: "+") ? 1 : -1
                advance()
            } else if increment == 0, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard byte != UInt8(ascii: "0") else {
                    throw fail("a block scalar's indentation indicator must be 1 to 9, not 0")
                }
                increment = Int(byte - UInt8(ascii: "0"))
                advance()
            }
        }
        let afterHeader = Self.isBlank(peek())
        skipBlanks()
        if peek() == UInt8(ascii: "#") {
            guard afterHeader else { throw fail("a comment after a block scalar header needs a space before '#'") }
            while !isBreakZ() { advance() }
        }
        guard isBreakZ() else {
            throw fail(
                "found \(describeCharacter()) after the block scalar header that starts at \(start); expected a comment or a line break")
        }
        if !atEnd { skipBreak() }

        var blockIndent: Int? = nil
        if increment > 0 { blockIndent = indent >= 0 ? indent + increment : increment }
        var out: [UInt8] = []
        var leadingBreak = false
        var trailingBreaks = 0
        try scanBlockScalarBreaks(indent: &blockIndent, breaks: &trailingBreaks, start: start)
        var leadingBlank = false
        while column == blockIndent && !atEnd {
            if column == 0 && (isDocumentMarker(UInt8(ascii: "-")) || isDocumentMarker(UInt8(ascii: "."))) { break }
            let trailingBlank = Self.isBlank(peek())
            if folded && leadingBreak && !leadingBlank && !trailingBlank {
                if trailingBreaks == 0 { out.append(0x20) }
            } else if leadingBreak {
                out.append(0x0A)
            }
            leadingBreak = false
            out.append(contentsOf: repeatElement(0x0A, count: trailingBreaks))
            trailingBreaks = 0
            leadingBlank = Self.isBlank(peek())
            while !isBreakZ() { copy(into: &out) }
            leadingBreak = true // the end of the input ends the last line like a line break
            if atEnd { break }
            skipBreak()
            try scanBlockScalarBreaks(indent: &blockIndent, breaks: &trailingBreaks, start: start)
        }
        if chomping != -1 && leadingBreak { out.append(0x0A) }
        if chomping == 1 { out.append(contentsOf: repeatElement(0x0A, count: trailingBreaks)) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Skips the empty lines before block scalar content (counting them) and settles the
    /// content's indentation when no indicator gave it.
    mutating func scanBlockScalarBreaks(indent blockIndent: inout Int?, breaks: inout Int, start: YAMLMark)
        throws(YAMLSyntaxError)
    {
        var maximumSeen = 0
        let contentColumn = blockIndent ?? (indent + 1)
        while true {
            while column < (blockIndent ?? Int.max) && peek() == 0x20 { advance() }
            if column > maximumSeen { maximumSeen = column }
            if peek() == 0x09 && column < contentColumn {
                throw fail("tab characters cannot indent a block scalar's content")
            }
            if atEnd && column > 0 && blockIndent == nil { breaks += 1 } // a last line of spaces
            guard !atEnd, Self.isBreak(peek()) else { break }
            skipBreak()
            breaks += 1
        }
        if blockIndent == nil {
            blockIndent = max(maximumSeen, indent + 1, 0)
            if maximumSeen > column && column >= indent + 1 && !atEnd && !Self.isBreak(peek()) {
                throw fail("a leading empty line of the block scalar that starts at \(start) has more spaces than its first line of text")
            }
        }
    }

    /// True when only blanks follow up to the end of the line.
    func isTabOnlyLine() -> Bool {
        var probe = index
        while probe < bytes.count, Self.isBlank(bytes[probe]) { probe += 1 }
        return probe >= bytes.count || Self.isBreak(bytes[probe])
    }
}

extension String {
    var trimmingQuotes: String {
        if count >= 2, first == "'", last == "'" { return String(dropFirst().dropLast()) }
        return self
    }
}

/// The blanks and line breaks between two pieces of a flow scalar, folded as YAML 1.2 says: blanks
/// between words stay, a single line break becomes a space, n > 1 breaks become n - 1 newlines, and
/// blanks around breaks go.
struct LineFolding {
    var whitespaces: [UInt8] = []
    /// A line break started the run (unset by an escaped line break, which folds to nothing).
    var leadingBreak = false
    var trailingBreaks = 0
    /// The run holds a line break (or an escaped one).
    var leadingBlanks = false

    mutating func blank(_ byte: UInt8) {
        if !leadingBlanks { whitespaces.append(byte) }
    }

    mutating func lineBreak() {
        if leadingBlanks {
            trailingBreaks += 1
        } else {
            whitespaces.removeAll(keepingCapacity: true)
            leadingBreak = true
            leadingBlanks = true
        }
    }

    /// Writes what the run folds to, and starts a new run.
    mutating func flush(into out: inout [UInt8]) {
        guard leadingBlanks || !whitespaces.isEmpty else { return }
        if leadingBlanks {
            if leadingBreak && trailingBreaks == 0 {
                out.append(0x20)
            } else {
                out.append(contentsOf: repeatElement(0x0A, count: trailingBreaks))
            }
        } else {
            out.append(contentsOf: whitespaces)
        }
        self = LineFolding()
    }
}
