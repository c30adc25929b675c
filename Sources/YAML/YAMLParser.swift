/// Builds `YAMLNode` trees from the scanner's tokens: documents, properties (anchors, tags),
/// block and flow collections. Aliases are replaced by their anchored node (sharing storage),
/// and the nodes they stand for are counted so a billion-laughs document fails fast.
struct YAMLParser {
    var scanner: YAMLScanner
    let limits: YAMLLimits
    var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    var openAnchors: Set<String> = []
    var tagHandles: [String: String] = [:]
    /// Nodes the documents stand for so far, aliases expanded.
    var expandedNodes = 0
    var depth = 0

    init(bytes: [UInt8], limits: YAMLLimits) {
        scanner = YAMLScanner(bytes: bytes, maximumDepth: limits.maximumDepth)
        self.limits = limits
    }

    func fail(_ message: String, at mark: YAMLMark) -> YAMLSyntaxError {
        YAMLSyntaxError(message: message, offset: mark.offset, position: mark.position)
    }

    mutating func peek() throws(YAMLSyntaxError) -> YAMLToken { try scanner.peekToken() }
    mutating func next() throws(YAMLSyntaxError) -> YAMLToken { try scanner.nextToken() }

    // MARK: Stream and documents

    mutating func parseStream() throws(YAMLSyntaxError) -> [YAMLNode] {
        _ = try next() // stream start
        var documents: [YAMLNode] = []
        var previousEndedExplicitly = true
        var previousHadContent = false
        while true {
            var token = try peek()
            // Stray '...' between documents are allowed.
            while token.kind == .documentEnd {
                _ = try next()
                previousEndedExplicitly = true
                previousHadContent = false
                token = try peek()
            }
            if token.kind == .streamEnd { break }
            tagHandles = ["!": "!", "!!": YAMLCoreSchema.prefix]
            anchors = [:]
            var sawDirective = false
            var sawVersion = false
            while true {
                let directive = try peek()
                if case .versionDirective(let major, _) = directive.kind {
                    guard !previousHadContent || previousEndedExplicitly else {
                        throw fail("a directive must follow '...' that ends the previous document", at: directive.start)
                    }
                    if sawVersion { throw fail("found a second %YAML directive for one document", at: directive.start) }
                    if major != 1 { throw fail("unsupported YAML version \(major).x; this reader reads YAML 1.x", at: directive.start) }
                    sawVersion = true
                    sawDirective = true
                    _ = try next()
                } else if case .tagDirective(let handle, let prefix) = directive.kind {
                    guard !previousHadContent || previousEndedExplicitly else {
                        throw fail("a directive must follow '...' that ends the previous document", at: directive.start)
                    }
                    tagHandles[handle] = prefix
                    sawDirective = true
                    _ = try next()
                } else {
                    break
                }
            }
            token = try peek()
            let root: YAMLNode
            if token.kind == .documentStart {
                _ = try next()
                root = try nodeOrEmpty(indentlessSequence: false, countingEmpty: false) { kind in
                    switch kind {
                    case .documentStart, .documentEnd, .streamEnd, .versionDirective, .tagDirective: true
                    default: false
                    }
                }
            } else {
                if sawDirective {
                    throw fail("expected '---' after the directives, found \(token.description)", at: token.start)
                }
                if !documents.isEmpty && !previousEndedExplicitly {
                    throw fail("expected '---' to start the next document, found \(token.description)", at: token.start)
                }
                root = try parseNode(block: true, indentlessSequence: false)
            }
            documents.append(root)
            token = try peek()
            switch token.kind {
            case .documentEnd:
                _ = try next()
                previousEndedExplicitly = true
                previousHadContent = false
            case .documentStart, .streamEnd:
                previousEndedExplicitly = false
                previousHadContent = true
            case .versionDirective, .tagDirective:
                throw fail("a directive must follow '...' that ends the previous document", at: token.start)
            default:
                throw fail("expected the end of the document, found \(token.description)\(hint(for: token))", at: token.start)
            }
        }
        return documents
    }

    func hint(for token: YAMLToken) -> String {
        switch token.kind {
        case .value: " (a ':' here usually means a key is indented differently from its siblings)"
        case .blockEntry: " (a '-' here is indented differently from its sequence)"
        case .scalar, .blockMappingStart, .blockSequenceStart: " (is this line indented differently from its siblings?)"
        default: ""
        }
    }

    func emptyScalar(at mark: YAMLMark) -> YAMLNode {
        YAMLNode(kind: .scalar(YAMLScalar(text: "", style: .plain, value: .null)), mark: mark)
    }

    /// The block node after an indicator (`---`, `:`), or an empty scalar when a token `isEnder`
    /// comes first (`key:` with nothing after it, `---` before `...`).
    mutating func nodeOrEmpty(indentlessSequence: Bool, countingEmpty: Bool, before isEnder: (YAMLToken.Kind) -> Bool)
        throws(YAMLSyntaxError) -> YAMLNode
    {
        let after = try peek()
        guard isEnder(after.kind) else { return try parseNode(block: true, indentlessSequence: indentlessSequence) }
        if countingEmpty { try count(1, at: after.start) }
        return emptyScalar(at: after.start)
    }

    // MARK: Nodes

    mutating func count(_ weight: Int, at mark: YAMLMark) throws(YAMLSyntaxError) {
        expandedNodes += weight
        if expandedNodes > limits.maximumExpandedNodes {
            throw fail(
                "the document stands for more than \(limits.maximumExpandedNodes) nodes once its aliases are expanded; refusing it (too many or too deeply nested aliases)",
                at: mark)
        }
    }

    mutating func parseNode(block: Bool, indentlessSequence: Bool) throws(YAMLSyntaxError) -> YAMLNode {
        var token = try peek()
        if case .alias(let name) = token.kind {
            _ = try next()
            guard let anchored = anchors[name] else {
                if openAnchors.contains(name) {
                    throw fail(
                        "the alias '*\(name)' refers to the node that contains it; recursive structures are not supported", at: token.start)
                }
                throw fail("found undefined alias '\(name)'", at: token.start)
            }
            try count(anchored.weight, at: token.start)
            return anchored.node
        }
        let start = token.start
        var anchor: String? = nil
        var tag: (handle: String, suffix: String, mark: YAMLMark)? = nil
        while true {
            if case .anchor(let name) = token.kind {
                if anchor != nil { throw fail("a node can have only one anchor", at: token.start) }
                anchor = name
            } else if case .tag(let handle, let suffix) = token.kind {
                if tag != nil { throw fail("a node can have only one tag", at: token.start) }
                tag = (handle, suffix, token.start)
            } else {
                break
            }
            _ = try next()
            token = try peek()
        }
        var resolvedTag: String? = nil
        if let tag {
            if tag.handle.isEmpty {
                resolvedTag = tag.suffix
            } else if let prefix = tagHandles[tag.handle] {
                resolvedTag = prefix + tag.suffix
            } else {
                throw fail("found undefined tag handle '\(tag.handle)'", at: tag.mark)
            }
        }
        if let anchor { openAnchors.insert(anchor) }
        let before = expandedNodes
        depth += 1
        if depth > limits.maximumDepth {
            throw fail("nesting is deeper than \(limits.maximumDepth) levels", at: token.start)
        }
        let node = try parseContent(
            token: token, block: block, indentlessSequence: indentlessSequence, tag: resolvedTag,
            start: start, hasProperties: anchor != nil || tag != nil)
        depth -= 1
        if let anchor {
            openAnchors.remove(anchor)
            anchors[anchor] = (node, expandedNodes - before)
        }
        return node
    }

    mutating func parseContent(
        token: YAMLToken, block: Bool, indentlessSequence: Bool, tag: String?, start: YAMLMark, hasProperties: Bool
    ) throws(YAMLSyntaxError) -> YAMLNode {
        switch token.kind {
        case .scalar(let text, let style):
            _ = try next()
            try count(1, at: start)
            let value = try YAMLCoreSchema.resolve(text, style: style, tag: tag, at: start)
            try checkCollectionTag(tag, kind: "scalar", at: start)
            return YAMLNode(kind: .scalar(YAMLScalar(text: text, style: style, value: value)), tag: tag, mark: start)
        case .blockEntry where indentlessSequence:
            try count(1, at: start)
            try checkCollectionTag(tag, kind: "seq", at: start)
            return YAMLNode(kind: .sequence(try parseIndentlessSequence()), tag: tag, mark: start)
        case .flowSequenceStart:
            try count(1, at: start)
            try checkCollectionTag(tag, kind: "seq", at: start)
            return YAMLNode(kind: .sequence(try parseFlowSequence()), tag: tag, mark: start)
        case .flowMappingStart:
            try count(1, at: start)
            try checkCollectionTag(tag, kind: "map", at: start)
            return YAMLNode(kind: .mapping(try parseFlowMapping()), tag: tag, mark: start)
        case .blockSequenceStart where block:
            try count(1, at: start)
            try checkCollectionTag(tag, kind: "seq", at: start)
            return YAMLNode(kind: .sequence(try parseBlockSequence()), tag: tag, mark: start)
        case .blockMappingStart where block:
            try count(1, at: start)
            try checkCollectionTag(tag, kind: "map", at: start)
            return YAMLNode(kind: .mapping(try parseBlockMapping()), tag: tag, mark: start)
        default:
            guard hasProperties else {
                throw fail("expected a node (a value), found \(token.description)\(hint(for: token))", at: token.start)
            }
            try count(1, at: start)
            let value = try YAMLCoreSchema.resolve("", style: .plain, tag: tag, at: start)
            return YAMLNode(kind: .scalar(YAMLScalar(text: "", style: .plain, value: value)), tag: tag, mark: start)
        }
    }

    /// `!!map` on a sequence (and the like) is a contradiction worth reporting.
    func checkCollectionTag(_ tag: String?, kind: String, at mark: YAMLMark) throws(YAMLSyntaxError) {
        guard let tag, tag.hasPrefix(YAMLCoreSchema.prefix) else { return }
        let name = String(tag.dropFirst(YAMLCoreSchema.prefix.count))
        let scalarNames: Set<String> = ["str", "int", "float", "bool", "null"]
        let expected: String
        switch name {
        case "map": expected = "map"
        case "seq": expected = "seq"
        case _ where scalarNames.contains(name): expected = "scalar"
        default: return
        }
        if expected != kind {
            throw fail(
                "the node is tagged !!\(name) but is a \(kind == "seq" ? "sequence" : kind == "map" ? "mapping" : "scalar")", at: mark)
        }
    }
}
