import RehearsalJSON

extension YAMLReader {
    /// The one document as a `JSONNode` whose offsets are UTF-8 offsets into `bytes`, so a
    /// reader of JSON documents (the OpenAPI loader) names lines and columns in YAML files with
    /// the same code (`SourcePosition.locate(offset:in:)`).
    package static func jsonNode(from bytes: [UInt8], limits: YAMLLimits = .default) throws(YAMLSyntaxError) -> JSONNode {
        var budget = limits.maximumExpandedNodes
        return try parse(bytes, limits: limits).jsonNode(budget: &budget)
    }
}

extension YAMLNode {
    func jsonNode(budget: inout Int) throws(YAMLSyntaxError) -> JSONNode {
        budget -= 1
        if budget < 0 {
            throw YAMLSyntaxError(
                message: "the document expands to too many nodes for JSON (aliases)", offset: mark.offset, position: mark.position)
        }
        switch kind {
        case .scalar(let scalar):
            let kind: JSONNode.Kind
            switch try Self.jsonScalar(scalar, at: mark) {
            case .null: kind = .null
            case .bool(let flag): kind = .bool(flag)
            case .number(let number): kind = .number(number)
            case .string(let text): kind = .string(text)
            case .array, .object: kind = .null // a scalar never converts to a collection
            }
            return JSONNode(kind: kind, offset: mark.offset)
        case .sequence(let elements):
            var out: [JSONNode] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try element.jsonNode(budget: &budget)) }
            return JSONNode(kind: .array(out), offset: mark.offset)
        case .mapping(let pairs):
            var members: [JSONNode.Member] = []
            members.reserveCapacity(pairs.count)
            var seen: [String: YAMLMark] = [:]
            for pair in pairs {
                let key = try Self.jsonKey(pair.key)
                if let first = seen[key] {
                    throw YAMLSyntaxError(
                        message: "duplicate key '\(key)' (first at \(first))", offset: pair.key.mark.offset,
                        position: pair.key.mark.position)
                }
                seen[key] = pair.key.mark
                members.append(JSONNode.Member(key: key, keyOffset: pair.key.mark.offset, value: try pair.value.jsonNode(budget: &budget)))
            }
            return JSONNode(kind: .object(members), offset: mark.offset)
        }
    }
}
