// moco's `request` object: text matchers, keyed matchers, request files.
extension StubDecoder {
    mutating func decodeRequest(_ node: JSONNode, at path: String) -> RequestPattern? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: Self.requestKeys, unsupported: Self.unsupportedRequestKeys) else { return nil }
        var pattern = RequestPattern()
        pattern.uri = fields["uri"].flatMap { textMatcher($0, at: path + ".uri", allowPath: true) }
        pattern.method = fields["method"].flatMap { textMatcher($0, at: path + ".method") }
        pattern.version = fields["version"].flatMap { textMatcher($0, at: path + ".version") }
        pattern.headers = keyed(fields["headers"], at: path + ".headers")
        pattern.queries = keyed(fields["queries"], at: path + ".queries")
        pattern.cookies = keyed(fields["cookies"], at: path + ".cookies")
        pattern.forms = keyed(fields["forms"], at: path + ".forms")
        pattern.text = fields["text"].flatMap { textMatcher($0, at: path + ".text", allowBody: true) }
        pattern.file = fields["file"].flatMap { fileMatcher($0, at: path + ".file") }
        pattern.json = fields["json"]?.value
        pattern.jsonPaths = keyed(fields["json_paths"], at: path + ".json_paths")
        pattern.xpaths = keyed(fields["xpaths"], at: path + ".xpaths")
        if let structure = fields["struct"] {
            func structPath() -> String { path + ".struct" }
            if let parts = members(structure, at: structPath(), allowed: ["json", "xml"]) {
                if parts.count != 1 {
                    report(structPath(), "expected exactly one of \"json\" or \"xml\"", at: structure.offset)
                } else if let json = parts["json"] {
                    pattern.structure = .json(json.value)
                } else if let xml = parts["xml"], let text = string(xml, at: structPath() + ".xml") {
                    pattern.structure = .xml(text)
                }
            }
        }
        return diagnostics.count == before ? pattern : nil
    }

    private mutating func keyed(_ node: JSONNode?, at path: String) -> KeyedMatchers {
        guard let node else { return [:] }
        guard let list = node.members else {
            expected("an object of names to values", at: path, got: node)
            return [:]
        }
        var result = KeyedMatchers()
        for (offset, member) in list.enumerated() {
            func memberPath() -> String { path + JSONPathText.key(member.key) }
            guard !list[..<offset].contains(where: { $0.key == member.key }) else {
                report(memberPath(), "repeated key", at: member.keyOffset)
                continue
            }
            if member.key.isEmpty { report(memberPath(), "a name cannot be empty", at: member.keyOffset) }
            if let matcher = textMatcher(member.value, at: memberPath()) { result.append(member.key, matcher) }
        }
        return result
    }

    /// moco's text container: a string (equality) or `{"operator": "argument"}`.
    private mutating func textMatcher(_ node: JSONNode, at path: String, allowPath: Bool = false, allowBody: Bool = false) -> TextMatcher? {
        switch node.kind {
        case .string, .number, .bool:
            return scalarText(node, at: path).map(TextMatcher.equal)
        case .object(let list):
            var allowed = Self.operators
            if allowBody { allowed += ["json", "xml"] }
            guard list.count == 1, let member = list.first else {
                report(
                    path, "expected a string or one operator such as {\"match\": \"…\"}; operators: \(allowed.joined(separator: ", "))",
                    at: node.offset)
                return nil
            }
            func operatorPath() -> String { path + JSONPathText.key(member.key) }
            guard allowed.contains(where: { $0.utf8.count == member.key.utf8.count && $0 == member.key }) else {
                if member.key == "json" || member.key == "xml" {
                    report(operatorPath(), "the \(member.key) operator applies to the body only (text or file)", at: member.keyOffset)
                } else if member.key == "template" {
                    report(
                        operatorPath(), "templates belong in responses; a request matches with \(Self.operators.joined(separator: ", "))",
                        at: member.keyOffset)
                } else {
                    report(
                        operatorPath(),
                        "unknown operator\(Suggestion.didYouMean(member.key, among: allowed)); operators: \(allowed.joined(separator: ", "))",
                        at: member.keyOffset)
                }
                return nil
            }
            if member.key == "path" && !allowPath {
                report(operatorPath(), "the path operator applies to uri only", at: member.keyOffset)
                return nil
            }
            switch member.key {
            case "exist":
                return boolean(member.value, at: operatorPath()).map(TextMatcher.exist)
            case "json":
                // A JSON document written as a string (moco) or directly as JSON (friendlier).
                if let text = member.value.stringValue {
                    do throws(JSONSyntaxError) {
                        return .json(try JSONParser.parse(Array(text.utf8)).value)
                    } catch {
                        report(operatorPath(), "the expected JSON is not valid: \(error.description)", at: member.value.offset)
                        return nil
                    }
                }
                return .json(member.value.value)
            default:
                guard let argument = scalarText(member.value, at: operatorPath()) else { return nil }
                switch member.key {
                case "match": return .match(argument)
                case "startsWith": return .startsWith(argument)
                case "endsWith": return .endsWith(argument)
                case "contain": return .contain(argument)
                case "path": return .path(argument)
                case "xml": return .xml(argument)
                default: return nil
                }
            }
        default:
            expected("a string or an operator object", at: path, got: node)
            return nil
        }
    }

    private mutating func fileMatcher(_ node: JSONNode, at path: String) -> FileMatcher? {
        if node.stringValue != nil {
            return string(node, at: path).map { FileMatcher(path: $0) }
        }
        guard
            let fields = members(
                node, at: path, allowed: ["name", "charset", "json", "xml"], what: "a file name or {\"name\": …, \"charset\": …}")
        else { return nil }
        if let json = fields["json"] {
            guard fields.count == 1 else {
                report(path, "\"json\" stands alone: {\"json\": \"expected.json\"}", at: node.offset); return nil
            }
            return string(json, at: path + ".json").map { FileMatcher(path: $0, comparison: .json) }
        }
        if let xml = fields["xml"] {
            guard fields.count == 1 else { report(path, "\"xml\" stands alone: {\"xml\": \"expected.xml\"}", at: node.offset); return nil }
            return string(xml, at: path + ".xml").map { FileMatcher(path: $0, comparison: .xml) }
        }
        guard let name = required("name", in: fields, of: node, at: path, meaning: "the file to compare the body with") else { return nil }
        let charset = fields["charset"].flatMap { string($0, at: path + ".charset") }
        return string(name, at: path + ".name").map { FileMatcher(path: $0, charset: charset) }
    }
}
