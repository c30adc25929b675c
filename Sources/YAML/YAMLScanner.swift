import RehearsalJSON

/// Turns YAML bytes into tokens. Indentation becomes BLOCK-*-START / BLOCK-END tokens and an
/// implicit ("simple") key gets its KEY token inserted once the ':' after it is seen, so the
/// parser above works on structure alone. Every failure is a thrown `YAMLSyntaxError`; the
/// input is read through bounds-checked helpers, so no byte sequence can trap.
struct YAMLScanner {
    struct SimpleKey {
        var possible = false
        var required = false
        var tokenNumber = 0
        var mark = YAMLMark(offset: 0, line0: 0, column0: 0)
    }

    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var line = 0
    var column = 0

    var tokens: [YAMLToken] = []
    var head = 0
    /// Tokens handed to the parser so far (KEY insertion positions are counted from here).
    var tokensParsed = 0
    var streamStartProduced = false
    var streamEndProduced = false

    var indent = -1
    var indents: [Int] = []
    var flowLevel = 0
    var simpleKeyAllowed = false
    var simpleKeys: [SimpleKey] = []
    /// A quoted scalar or a flow collection just ended: in flow context a ':' right after it is a
    /// value indicator even without a following space (`{"a":1}`).
    var adjacentValueAllowed = false
    /// The whitespace before the current token held a tab (tabs cannot separate block indicators
    /// that open nested structure, as in `-\t- a`).
    var whitespaceHadTab = false

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    // MARK: Bytes

    @inline(__always) func peek(_ ahead: Int = 0) -> UInt8 {
        let at = index + ahead
        return at < bytes.count ? bytes[at] : 0
    }

    var atEnd: Bool { index >= bytes.count }
    var mark: YAMLMark { YAMLMark(offset: index, line0: line, column0: column) }

    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    @inline(__always) static func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    @inline(__always) func isBreakZ(_ ahead: Int = 0) -> Bool {
        index + ahead >= bytes.count || Self.isBreak(bytes[index + ahead])
    }
    @inline(__always) func isBlankZ(_ ahead: Int = 0) -> Bool {
        index + ahead >= bytes.count || Self.isBlank(bytes[index + ahead]) || Self.isBreak(bytes[index + ahead])
    }
    @inline(__always) static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
    }

    /// Moves past one non-break byte; columns count scalars, so continuation bytes do not.
    @inline(__always) mutating func advance() {
        guard index < bytes.count else { return }
        if bytes[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
    }

    mutating func advance(_ count: Int) {
        for _ in 0..<count { advance() }
    }

    /// Moves past a line break (LF, CR or CRLF).
    mutating func skipBreak() {
        if peek() == 0x0D && peek(1) == 0x0A {
            index += 2
        } else {
            index += 1
        }
        line += 1
        column = 0
    }

    /// Copies the byte at the cursor into `out` and moves past it.
    @inline(__always) mutating func copy(into out: inout [UInt8]) {
        out.append(bytes[index])
        advance()
    }

    func fail(_ message: String, at place: YAMLMark? = nil) -> YAMLSyntaxError {
        let at = place ?? mark
        return YAMLSyntaxError(message: message, offset: at.offset, position: at.position)
    }

    func describeCharacter(at offset: Int? = nil) -> String {
        let at = offset ?? index
        guard at < bytes.count else { return "the end of the input" }
        let byte = bytes[at]
        if byte == 0x09 { return "a tab character" }
        if Self.isBreak(byte) { return "a line break" }
        return JSONParser.describeCharacter(at: at, in: bytes)
    }

    // MARK: Token queue

    /// The next token, scanning more input only as far as needed to settle pending simple keys.
    mutating func peekToken() throws(YAMLSyntaxError) -> YAMLToken {
        try fetchMoreTokens()
        return tokens[head]
    }

    mutating func nextToken() throws(YAMLSyntaxError) -> YAMLToken {
        try fetchMoreTokens()
        let token = tokens[head]
        head += 1
        tokensParsed += 1
        if head > 256 && head * 2 > tokens.count {
            tokens.removeFirst(head)
            head = 0
        }
        return token
    }

    mutating func fetchMoreTokens() throws(YAMLSyntaxError) {
        while true {
            var needMore = head >= tokens.count
            if !needMore {
                if streamEndProduced { return }
                try staleSimpleKeys()
                for key in simpleKeys where key.possible && key.tokenNumber == tokensParsed {
                    needMore = true
                    break
                }
            }
            if !needMore { return }
            try fetchNextToken()
        }
    }

    mutating func append(_ kind: YAMLToken.Kind, from start: YAMLMark) {
        tokens.append(YAMLToken(kind: kind, start: start, end: mark))
    }

    mutating func insert(_ token: YAMLToken, atTokenNumber number: Int) {
        tokens.insert(token, at: head + (number - tokensParsed))
    }

    // MARK: Dispatch

    mutating func fetchNextToken() throws(YAMLSyntaxError) {
        if !streamStartProduced {
            streamStartProduced = true
            simpleKeyAllowed = true
            simpleKeys.append(SimpleKey())
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            append(.streamStart, from: mark)
            return
        }
        try scanToNextToken()
        try staleSimpleKeys()
        unrollIndent(column)
        if atEnd { return try fetchStreamEnd() }
        let byte = peek()
        if column == 0 {
            if byte == UInt8(ascii: "%") { return try fetchDirective() }
            if isDocumentMarker(UInt8(ascii: "-")) { return try fetchDocumentIndicator(.documentStart) }
            if isDocumentMarker(UInt8(ascii: ".")) { return try fetchDocumentIndicator(.documentEnd) }
        }
        switch byte {
        case UInt8(ascii: "["): return try fetchFlowCollectionStart(.flowSequenceStart)
        case UInt8(ascii: "{"): return try fetchFlowCollectionStart(.flowMappingStart)
        case UInt8(ascii: "]"): return try fetchFlowCollectionEnd(.flowSequenceEnd)
        case UInt8(ascii: "}"): return try fetchFlowCollectionEnd(.flowMappingEnd)
        case UInt8(ascii: ","): return try fetchFlowEntry()
        case UInt8(ascii: "-") where isBlankZ(1): return try fetchBlockEntry()
        case UInt8(ascii: "?") where isBlankZ(1) || (flowLevel > 0 && Self.isFlowIndicator(peek(1))):
            return try fetchKey()
        case UInt8(ascii: ":") where isValueIndicator(): return try fetchValue()
        case UInt8(ascii: "*"): return try fetchAnchorOrAlias(alias: true)
        case UInt8(ascii: "&"): return try fetchAnchorOrAlias(alias: false)
        case UInt8(ascii: "!"): return try fetchTag()
        case UInt8(ascii: "|") where flowLevel == 0: return try fetchBlockScalar(folded: false)
        case UInt8(ascii: ">") where flowLevel == 0: return try fetchBlockScalar(folded: true)
        case UInt8(ascii: "'"): return try fetchFlowScalar(double: false)
        case UInt8(ascii: "\""): return try fetchFlowScalar(double: true)
        default: break
        }
        if canStartPlainScalar() { return try fetchPlainScalar() }
        if byte == 0x09 { throw fail("tab characters cannot indent") }
        throw fail("found \(describeCharacter()) that cannot start any token")
    }

    /// ':' is a value indicator when a blank follows, or in flow context when a flow indicator
    /// follows or it comes right after a JSON-like node (`{"a":1}`).
    func isValueIndicator() -> Bool {
        if isBlankZ(1) { return true }
        guard flowLevel > 0 else { return false }
        return Self.isFlowIndicator(peek(1)) || adjacentValueAllowed
    }

    func isDocumentMarker(_ byte: UInt8) -> Bool {
        column == 0 && peek() == byte && peek(1) == byte && peek(2) == byte && isBlankZ(3)
    }

    func canStartPlainScalar() -> Bool {
        let byte = peek()
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            // An indicator followed by a "safe" character starts a plain scalar (`-1`, `:x`).
            let next = peek(1)
            if isBlankZ(1) { return false }
            return flowLevel == 0 || !Self.isFlowIndicator(next)
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"):
            return false
        default:
            return !isBlankZ()
        }
    }

    /// Skips blanks, comments and line breaks up to the next token. A tab in a line's leading
    /// whitespace, where indentation is still being counted (at or left of the current block's
    /// column), is an error in block context when content follows: YAML indents with spaces only.
    mutating func scanToNextToken() throws(YAMLSyntaxError) {
        whitespaceHadTab = false
        while true {
            if column == 0 && peek() == 0xEF && peek(1) == 0xBB && peek(2) == 0xBF { index += 3 }
            let lineStart = column == 0
            var sawTab: YAMLMark? = nil
            while peek() == 0x20 || peek() == 0x09 {
                if peek() == 0x09 && sawTab == nil { sawTab = mark }
                advance()
            }
            whitespaceHadTab = sawTab != nil
            let hasContent = !atEnd && !Self.isBreak(peek()) && peek() != UInt8(ascii: "#")
            if let tab = sawTab, lineStart, hasContent, tab.column0 <= indent {
                throw fail("tab characters cannot indent", at: tab)
            }
            if lineStart, flowLevel > 0, hasContent, column <= indent {
                throw fail("this line of a flow collection must be indented more than the block around it (column \(indent + 1))")
            }
            if peek() == UInt8(ascii: "#") {
                if index > 0, !Self.isBlank(bytes[index - 1]), !Self.isBreak(bytes[index - 1]) {
                    throw fail("a comment needs a space before '#'")
                }
                while !isBreakZ() { advance() }
            }
            guard !atEnd, Self.isBreak(peek()) else { return }
            skipBreak()
            if flowLevel == 0 { simpleKeyAllowed = true }
        }
    }

    // MARK: Simple keys

    mutating func staleSimpleKeys() throws(YAMLSyntaxError) {
        for position in simpleKeys.indices where simpleKeys[position].possible {
            let key = simpleKeys[position]
            if key.mark.line0 < line || key.mark.offset + 1024 < index {
                if key.required {
                    throw fail("expected ':' after the mapping key at \(key.mark)", at: key.mark)
                }
                simpleKeys[position].possible = false
            }
        }
    }

    mutating func saveSimpleKey() throws(YAMLSyntaxError) {
        let required = flowLevel == 0 && indent == column
        guard simpleKeyAllowed else { return }
        try removeSimpleKey()
        simpleKeys[simpleKeys.count - 1] = SimpleKey(
            possible: true, required: required, tokenNumber: tokensParsed + (tokens.count - head), mark: mark)
    }

    mutating func removeSimpleKey() throws(YAMLSyntaxError) {
        let key = simpleKeys[simpleKeys.count - 1]
        if key.possible && key.required {
            throw fail("expected ':' after the mapping key at \(key.mark)", at: key.mark)
        }
        simpleKeys[simpleKeys.count - 1].possible = false
    }

    // MARK: Indentation

    mutating func rollIndent(_ column: Int, tokenNumber: Int?, kind: YAMLToken.Kind, at place: YAMLMark)
        throws(YAMLSyntaxError)
    {
        guard flowLevel == 0, indent < column else { return }
        guard indents.count < maximumDepth else {
            throw fail("nesting is deeper than \(maximumDepth) levels", at: place)
        }
        indents.append(indent)
        indent = column
        let token = YAMLToken(kind: kind, start: place, end: place)
        if let number = tokenNumber {
            insert(token, atTokenNumber: number)
        } else {
            tokens.append(token)
        }
    }

    mutating func unrollIndent(_ column: Int) {
        guard flowLevel == 0 else { return }
        while indent > column {
            append(.blockEnd, from: mark)
            indent = indents.popLast() ?? -1
        }
    }
}
