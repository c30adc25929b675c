/// The token fetchers: each keeps the simple-key and indentation bookkeeping the way YAML's
/// grammar requires and appends its token.
extension YAMLScanner {
    mutating func fetchStreamEnd() throws(YAMLSyntaxError) {
        if column != 0 {
            column = 0
            line += 1
        }
        unrollIndent(-1)
        try removeSimpleKey()
        simpleKeyAllowed = false
        streamEndProduced = true
        append(.streamEnd, from: mark)
    }

    mutating func fetchDirective() throws(YAMLSyntaxError) {
        unrollIndent(-1)
        try removeSimpleKey()
        simpleKeyAllowed = false
        let start = mark
        advance() // '%'
        let name = scanWord()
        var kind: YAMLToken.Kind? = nil
        switch name {
        case "YAML":
            skipBlanks()
            let version = scanWhileNot { Self.isBlank($0) || Self.isBreak($0) }
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else {
                throw fail("expected a version like '1.2' after %YAML", at: start)
            }
            kind = .versionDirective(major: major, minor: minor)
        case "TAG":
            skipBlanks()
            let handleMark = mark
            let handle = scanWhileNot { Self.isBlank($0) || Self.isBreak($0) }
            guard handle.hasPrefix("!"), handle.hasSuffix("!") else {
                throw fail("expected a tag handle like '!e!' after %TAG", at: handleMark)
            }
            skipBlanks()
            let prefix = scanWhileNot { Self.isBlank($0) || Self.isBreak($0) }
            guard !prefix.isEmpty else { throw fail("expected a tag prefix after the %TAG handle") }
            kind = .tagDirective(handle: handle, prefix: prefix)
        case "":
            throw fail("expected a directive name after '%'", at: start)
        default:
            // Reserved directives are skipped, as YAML 1.2 asks.
            while !isBreakZ() { advance() }
        }
        skipBlanks()
        if peek() == UInt8(ascii: "#") {
            while !isBreakZ() { advance() }
        }
        guard isBreakZ() else {
            throw fail("found \(describeCharacter()) after the directive; expected a comment or a line break")
        }
        if let kind { append(kind, from: start) }
    }

    mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(YAMLSyntaxError) {
        unrollIndent(-1)
        try removeSimpleKey()
        simpleKeyAllowed = false
        appendToken(kind, length: 3)
        if kind == .documentEnd {
            // Only a comment may follow '...' on its line.
            skipBlanks()
            if !isBreakZ() && peek() != UInt8(ascii: "#") {
                throw fail("found \(describeCharacter()) after '...'; only a comment may follow it on its line")
            }
        }
    }

    mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind) throws(YAMLSyntaxError) {
        try saveSimpleKey()
        guard flowLevel < maximumDepth else { throw fail("nesting is deeper than \(maximumDepth) levels") }
        simpleKeys.append(SimpleKey())
        flowLevel += 1
        simpleKeyAllowed = true
        adjacentValueAllowed = false
        appendToken(kind)
    }

    mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(YAMLSyntaxError) {
        try removeSimpleKey()
        if flowLevel > 0 {
            flowLevel -= 1
            simpleKeys.removeLast()
        }
        simpleKeyAllowed = false
        adjacentValueAllowed = true
        appendToken(kind)
    }

    mutating func fetchFlowEntry() throws(YAMLSyntaxError) {
        try removeSimpleKey()
        simpleKeyAllowed = true
        adjacentValueAllowed = false
        appendToken(.flowEntry)
    }

    mutating func fetchBlockEntry() throws(YAMLSyntaxError) {
        if flowLevel == 0 {
            guard simpleKeyAllowed else {
                throw fail("a block sequence entry ('-') is not allowed here; start it on a new line")
            }
            if whitespaceHadTab && indent < column {
                throw fail("tab characters cannot indent: a nested '-' must follow spaces, not a tab")
            }
            try rollIndent(column, tokenNumber: nil, kind: .blockSequenceStart, at: mark)
        } else {
            throw fail("a block sequence entry ('- ') cannot appear inside a flow collection")
        }
        try removeSimpleKey()
        simpleKeyAllowed = true
        appendToken(.blockEntry)
    }

    mutating func fetchKey() throws(YAMLSyntaxError) {
        if flowLevel == 0 {
            guard simpleKeyAllowed else { throw fail("a mapping key ('?') is not allowed here") }
            try rollIndent(column, tokenNumber: nil, kind: .blockMappingStart, at: mark)
        }
        try removeSimpleKey()
        simpleKeyAllowed = flowLevel == 0
        appendToken(.key)
    }

    mutating func fetchValue() throws(YAMLSyntaxError) {
        let key = simpleKeys[simpleKeys.count - 1]
        if key.possible {
            insert(YAMLToken(kind: .key, start: key.mark, end: key.mark), atTokenNumber: key.tokenNumber)
            try rollIndent(key.mark.column0, tokenNumber: key.tokenNumber, kind: .blockMappingStart, at: key.mark)
            simpleKeys[simpleKeys.count - 1].possible = false
            simpleKeyAllowed = false
        } else {
            if flowLevel == 0 {
                guard simpleKeyAllowed else {
                    throw fail(
                        "a ':' is not allowed here; a mapping key must be on one line (is a ':' missing on the line before, or does a value need quotes?)"
                    )
                }
                try rollIndent(column, tokenNumber: nil, kind: .blockMappingStart, at: mark)
            }
            simpleKeyAllowed = flowLevel == 0
        }
        adjacentValueAllowed = false
        appendToken(.value)
    }

    mutating func fetchAnchorOrAlias(alias: Bool) throws(YAMLSyntaxError) {
        try saveSimpleKey()
        simpleKeyAllowed = false
        adjacentValueAllowed = false
        let start = mark
        advance()
        // An anchor name runs to the next blank or flow indicator (YAML 1.2 ns-anchor-char).
        var name: [UInt8] = []
        while !isBlankZ() && !Self.isFlowIndicator(peek()) { copy(into: &name) }
        guard !name.isEmpty else {
            throw fail("expected \(alias ? "an alias" : "an anchor") name after '\(alias ? "*" : "&")'", at: start)
        }
        let text = String(decoding: name, as: UTF8.self)
        append(alias ? .alias(text) : .anchor(text), from: start)
    }

    mutating func fetchTag() throws(YAMLSyntaxError) {
        try saveSimpleKey()
        simpleKeyAllowed = false
        adjacentValueAllowed = false
        let start = mark
        var handle = ""
        var suffix = ""
        if peek(1) == UInt8(ascii: "<") {
            // Verbatim: !<tag:yaml.org,2002:str>
            advance(2)
            var body: [UInt8] = []
            while !isBlankZ() && peek() != UInt8(ascii: ">") { copy(into: &body) }
            guard peek() == UInt8(ascii: ">"), !body.isEmpty else {
                throw fail("expected '>' to close the verbatim tag", at: start)
            }
            advance()
            suffix = String(decoding: body, as: UTF8.self)
        } else {
            advance() // '!'
            var first: [UInt8] = []
            while !isBlankZ() && !Self.isFlowIndicator(peek()) && peek() != UInt8(ascii: "!") {
                copy(into: &first)
            }
            if peek() == UInt8(ascii: "!") {
                // A named handle: !e!suffix (or the secondary handle !!suffix).
                advance()
                handle = "!" + String(decoding: first, as: UTF8.self) + "!"
                var rest: [UInt8] = []
                while !isBlankZ() && !Self.isFlowIndicator(peek()) { copy(into: &rest) }
                suffix = String(decoding: rest, as: UTF8.self)
            } else {
                handle = "!"
                suffix = String(decoding: first, as: UTF8.self)
            }
            suffix = try Self.percentDecoded(suffix, at: start, scanner: self)
        }
        guard isBlankZ() || (flowLevel > 0 && Self.isFlowIndicator(peek())) else {
            throw fail("expected a blank after the tag, found \(describeCharacter())")
        }
        append(.tag(handle: handle, suffix: suffix), from: start)
    }

    static func percentDecoded(_ text: String, at place: YAMLMark, scanner: YAMLScanner) throws(YAMLSyntaxError)
        -> String
    {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var position = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "%") {
                guard position + 2 < bytes.count,
                    let value = UInt8(String(decoding: bytes[(position + 1)...(position + 2)], as: UTF8.self), radix: 16)
                else { throw scanner.fail("a '%' in a tag must be followed by two hex digits", at: place) }
                out.append(value)
                position += 3
            } else {
                out.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func fetchBlockScalar(folded: Bool) throws(YAMLSyntaxError) {
        try removeSimpleKey()
        simpleKeyAllowed = true
        adjacentValueAllowed = false
        let start = mark
        let text = try scanBlockScalar(folded: folded)
        append(.scalar(text, folded ? .folded : .literal), from: start)
    }

    mutating func fetchFlowScalar(double: Bool) throws(YAMLSyntaxError) {
        try saveSimpleKey()
        simpleKeyAllowed = false
        let start = mark
        let text = try scanFlowScalar(double: double)
        adjacentValueAllowed = true
        append(.scalar(text, double ? .doubleQuoted : .singleQuoted), from: start)
    }

    mutating func fetchPlainScalar() throws(YAMLSyntaxError) {
        try saveSimpleKey()
        simpleKeyAllowed = false
        adjacentValueAllowed = false
        let start = mark
        let (text, end) = try scanPlainScalar()
        tokens.append(YAMLToken(kind: .scalar(text, .plain), start: start, end: end))
    }

    // MARK: Small helpers

    mutating func skipBlanks() {
        while Self.isBlank(peek()) { advance() }
    }

    mutating func scanWord() -> String {
        var out: [UInt8] = []
        while !isBlankZ() { copy(into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func scanWhileNot(_ stop: (UInt8) -> Bool) -> String {
        var out: [UInt8] = []
        while !atEnd && !stop(peek()) { copy(into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// An indicator token of `length` bytes at the current mark.
    mutating func appendToken(_ kind: YAMLToken.Kind, length: Int = 1) {
        let start = mark
        advance(length)
        append(kind, from: start)
    }
}
