import RehearsalJSON

extension YAMLNode {
    /// The node as JSON, for documents such as OpenAPI that are JSON written in YAML.
    /// Scalar keys become their canonical text (`200:` → "200"); a duplicate key, a collection
    /// as a key, and `.inf`/`.nan` (JSON has no such number) are errors naming the place.
    ///
    /// ```swift
    /// try YAMLReader.parse("responses:\n  200: {description: OK}\n").jsonValue()
    /// // {"responses":{"200":{"description":"OK"}}}
    /// ```
    public func jsonValue(limits: YAMLLimits = .default) throws(YAMLSyntaxError) -> JSONValue {
        var budget = limits.maximumExpandedNodes
        return try Self.convert(self, budget: &budget)
    }

    private static func fail(_ message: String, at mark: YAMLMark) -> YAMLSyntaxError {
        YAMLSyntaxError(message: message, offset: mark.offset, position: mark.position)
    }

    private static func convert(_ node: YAMLNode, budget: inout Int) throws(YAMLSyntaxError) -> JSONValue {
        budget -= 1
        if budget < 0 {
            throw fail("the document expands to too many nodes for JSON (aliases)", at: node.mark)
        }
        switch node.kind {
        case .scalar(let scalar):
            return try jsonScalar(scalar, at: node.mark)
        case .sequence(let elements):
            var out: [JSONValue] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try convert(element, budget: &budget)) }
            return .array(out)
        case .mapping(let pairs):
            var members: [JSONObject.Member] = []
            members.reserveCapacity(pairs.count)
            var seen: [String: YAMLMark] = [:]
            seen.reserveCapacity(pairs.count)
            for pair in pairs {
                let key = try jsonKey(pair.key)
                if let first = seen[key] {
                    throw fail("duplicate key '\(key)' (first at \(first))", at: pair.key.mark)
                }
                seen[key] = pair.key.mark
                members.append(JSONObject.Member(key: key, value: try convert(pair.value, budget: &budget)))
            }
            return .object(JSONObject(members))
        }
    }

    static func jsonKey(_ key: YAMLNode) throws(YAMLSyntaxError) -> String {
        guard case .scalar(let scalar) = key.kind else {
            throw fail("a mapping key that is \(key.kindDescription) cannot become a JSON object key", at: key.mark)
        }
        if case .float(let value, _) = scalar.value, !value.isFinite {
            return scalar.text // as written; only values must be JSON numbers
        }
        return scalar.keyText
    }

    static func jsonScalar(_ scalar: YAMLScalar, at mark: YAMLMark) throws(YAMLSyntaxError) -> JSONValue {
        switch scalar.value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .integer(let digits):
            guard let number = JSONNumber(digits) else { return .string(scalar.text) }
            return .number(number)
        case .float(let value, let text):
            guard value.isFinite, let number = JSONNumber(text) else {
                throw fail(
                    "\(quoted(scalar.text)) is \(value.isNaN ? "not a number" : "infinite"), which JSON cannot hold; quote it to keep it as a string",
                    at: mark)
            }
            return .number(number)
        }
    }
}
