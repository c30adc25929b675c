/// Block and flow collections.
extension YAMLParser {
    mutating func parseBlockSequence() throws(YAMLSyntaxError) -> [YAMLNode] {
        _ = try next() // BLOCK-SEQUENCE-START
        var elements: [YAMLNode] = []
        while true {
            let token = try peek()
            switch token.kind {
            case .blockEntry:
                _ = try next()
                let after = try peek()
                if after.kind == .blockEntry || after.kind == .blockEnd {
                    elements.append(emptyScalar(at: after.start))
                    try count(1, at: after.start)
                } else {
                    elements.append(try parseNode(block: true, indentlessSequence: false))
                }
            case .blockEnd:
                _ = try next()
                return elements
            default:
                throw fail(
                    "expected '-' for the next entry of the block sequence, found \(token.description)\(hint(for: token))", at: token.start)
            }
        }
    }

    /// `key:\n- a\n- b`: a sequence at the same indentation as its mapping key.
    mutating func parseIndentlessSequence() throws(YAMLSyntaxError) -> [YAMLNode] {
        var elements: [YAMLNode] = []
        while try peek().kind == .blockEntry {
            _ = try next()
            let after = try peek()
            switch after.kind {
            case .blockEntry, .key, .value, .blockEnd:
                elements.append(emptyScalar(at: after.start))
                try count(1, at: after.start)
            default:
                elements.append(try parseNode(block: true, indentlessSequence: false))
            }
        }
        return elements
    }

    mutating func parseBlockMapping() throws(YAMLSyntaxError) -> [YAMLPair] {
        _ = try next() // BLOCK-MAPPING-START
        var pairs: [YAMLPair] = []
        while true {
            var token = try peek()
            let key: YAMLNode
            switch token.kind {
            case .key:
                _ = try next()
                token = try peek()
                switch token.kind {
                case .key, .value, .blockEnd:
                    key = emptyScalar(at: token.start)
                    try count(1, at: token.start)
                default:
                    key = try parseNode(block: true, indentlessSequence: true)
                }
            case .value:
                key = emptyScalar(at: token.start)
                try count(1, at: token.start)
            case .blockEnd:
                _ = try next()
                return pairs
            default:
                throw fail("expected a mapping key, found \(token.description)\(hint(for: token))", at: token.start)
            }
            token = try peek()
            let value: YAMLNode
            if token.kind == .value {
                _ = try next()
                value = try nodeOrEmpty(indentlessSequence: true, countingEmpty: true) { $0 == .key || $0 == .value || $0 == .blockEnd }
            } else {
                value = emptyScalar(at: token.start)
                try count(1, at: token.start)
            }
            pairs.append(YAMLPair(key: key, value: value))
        }
    }

    /// The first token of a flow collection's next entry, past the `,` that every entry but the
    /// first needs; nil at the closing bracket (after a trailing comma too), which is left for
    /// the caller to take. `end` is that bracket's kind: `.flowSequenceEnd` or `.flowMappingEnd`.
    mutating func nextFlowEntry(first: Bool, end: YAMLToken.Kind, open: YAMLToken) throws(YAMLSyntaxError) -> YAMLToken? {
        let (collection, closer) = end == .flowSequenceEnd ? ("sequence", "]") : ("mapping", "}")
        func notClosed(_ token: YAMLToken) -> YAMLSyntaxError {
            fail("the flow \(collection) that starts at \(open.start) is not closed; expected '\(closer)'", at: token.start)
        }
        var token = try peek()
        if token.kind == end { return nil }
        if !first {
            guard token.kind == .flowEntry else {
                if token.kind == .streamEnd || token.kind == .documentStart || token.kind == .documentEnd { throw notClosed(token) }
                throw fail(
                    "expected ',' or '\(closer)' in the flow \(collection) that starts at \(open.start), found \(token.description)",
                    at: token.start)
            }
            _ = try next()
            token = try peek()
            if token.kind == end { return nil }
        }
        if token.kind == .streamEnd { throw notClosed(token) }
        return token
    }

    mutating func parseFlowSequence() throws(YAMLSyntaxError) -> [YAMLNode] {
        let open = try next() // '['
        var elements: [YAMLNode] = []
        // Each entry adds one element (or throws), so no elements yet means the first entry.
        while let token = try nextFlowEntry(first: elements.isEmpty, end: .flowSequenceEnd, open: open) {
            switch token.kind {
            case .key, .value:
                // A single-pair mapping inside a sequence: [a: b] or [? a : b].
                let (pair, mark) = try parseFlowPair(end: .flowSequenceEnd)
                try count(1, at: mark)
                elements.append(YAMLNode(kind: .mapping([pair]), mark: mark))
            case .flowEntry:
                throw fail("found ',' without a value before it in the flow sequence that starts at \(open.start)", at: token.start)
            default:
                elements.append(try parseNode(block: false, indentlessSequence: false))
            }
        }
        _ = try next() // ']'
        return elements
    }

    mutating func parseFlowMapping() throws(YAMLSyntaxError) -> [YAMLPair] {
        let open = try next() // '{'
        var pairs: [YAMLPair] = []
        // Each entry adds one pair (or throws), so no pairs yet means the first entry.
        while let token = try nextFlowEntry(first: pairs.isEmpty, end: .flowMappingEnd, open: open) {
            if token.kind == .flowEntry {
                throw fail("found ',' without an entry before it in the flow mapping that starts at \(open.start)", at: token.start)
            }
            pairs.append(try parseFlowPair(end: .flowMappingEnd).pair)
        }
        _ = try next() // '}'
        return pairs
    }

    /// One `key: value` entry of a flow collection; either side may be empty.
    mutating func parseFlowPair(end: YAMLToken.Kind) throws(YAMLSyntaxError) -> (pair: YAMLPair, mark: YAMLMark) {
        var token = try peek()
        let mark = token.start
        let key: YAMLNode
        if token.kind == .key {
            _ = try next()
            token = try peek()
        }
        if token.kind == .value || token.kind == .flowEntry || token.kind == end {
            key = emptyScalar(at: token.start)
        } else {
            key = try parseNode(block: false, indentlessSequence: false)
        }
        try count(1, at: mark)
        token = try peek()
        let value: YAMLNode
        if token.kind == .value {
            _ = try next()
            token = try peek()
            if token.kind == .flowEntry || token.kind == end {
                value = emptyScalar(at: token.start)
            } else {
                value = try parseNode(block: false, indentlessSequence: false)
            }
        } else {
            value = emptyScalar(at: token.start)
        }
        try count(1, at: mark)
        return (YAMLPair(key: key, value: value), mark)
    }
}
