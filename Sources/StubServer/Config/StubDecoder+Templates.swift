// Response strings: literals and `{"template": …}` with their `vars` extractors.
extension StubDecoder {
    /// A response string: plain (trimmed) or `{"template": "…"}` /
    /// `{"template": {"with": "…", "vars": {…}}}`.
    mutating func textValue(_ node: JSONNode, at path: String, acceptScalars: Bool = false) -> TextValue? {
        switch node.kind {
        case .string(let text):
            return .literal(text.trimmedAsMoco(trimsText))
        case .number, .bool:
            guard acceptScalars else {
                expected("a string or {\"template\": …}", at: path, got: node)
                return nil
            }
            return scalarText(node, at: path).map(TextValue.literal)
        case .object:
            guard let fields = members(node, at: path, allowed: ["template"], what: "a string or {\"template\": …}") else { return nil }
            guard let template = fields["template"] else {
                report(path, "expected {\"template\": \"…\"}", at: node.offset)
                return nil
            }
            return templateValue(template, at: path + ".template")
        default:
            expected("a string or {\"template\": …}", at: path, got: node)
            return nil
        }
    }

    mutating func templateValue(_ node: JSONNode, at path: String) -> TextValue? {
        if let text = node.stringValue { return .template(text.trimmedAsMoco(trimsText)) }
        guard let fields = members(node, at: path, allowed: ["with", "vars"], what: "a template string or {\"with\": …, \"vars\": …}")
        else { return nil }
        guard let with = required("with", in: fields, of: node, at: path, meaning: "the template text") else { return nil }
        guard let source = string(with, at: path + ".with") else { return nil }
        let vars = fields["vars"].map { templateVariables($0, at: path + ".vars") } ?? [:]
        return .template(source, vars: vars)
    }

    static let extractorNames = [
        "json_path", "jsonPath", "jsonPaths", "json_paths", "xpath", "xpaths", "header", "headers", "query", "queries", "form", "forms",
        "cookie", "cookies",
    ]

    static func extractor(_ kind: String, _ argument: String) -> TemplateVariable? {
        switch kind {
        case "json_path", "jsonPath", "jsonPaths", "json_paths": .jsonPath(argument)
        case "xpath", "xpaths": .xpath(argument)
        case "header", "headers": .header(argument)
        case "query", "queries": .query(argument)
        case "form", "forms": .form(argument)
        case "cookie", "cookies": .cookie(argument)
        default: nil
        }
    }

    mutating func templateVariables(_ node: JSONNode, at path: String) -> TemplateVariables {
        guard let list = node.members else {
            expected("an object of variable names to values", at: path, got: node)
            return [:]
        }
        var result = TemplateVariables()
        for member in list {
            func memberPath() -> String { path + JSONPathText.key(member.key) }
            if Template.reservedNames.contains(member.key) {
                report(memberPath(), "\(quoted(member.key)) is reserved (req, now and random are built in)", at: member.keyOffset)
                continue
            }
            if member.key.isEmpty || !member.key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) || member.key.first!.isNumber {
                report(memberPath(), "a variable name is letters, digits and _ (not starting with a digit)", at: member.keyOffset)
                continue
            }
            switch member.value.kind {
            case .string, .number, .bool:
                if let text = scalarText(member.value, at: memberPath()) {
                    result.entries.append(.init(key: member.key, value: .literal(text)))
                }
            case .object(let extractor):
                let kinds = Self.extractorNames
                guard extractor.count == 1, let only = extractor.first else {
                    report(memberPath(), "expected one extractor such as {\"json_path\": \"$.id\"}", at: member.value.offset)
                    continue
                }
                guard Self.extractorNames.contains(only.key) else {
                    report(
                        memberPath() + JSONPathText.key(only.key),
                        "unknown extractor\(Suggestion.didYouMean(only.key, among: kinds)); extractors: json_path, xpath, header, query, form, cookie",
                        at: only.keyOffset)
                    continue
                }
                guard let argument = string(only.value, at: memberPath() + JSONPathText.key(only.key)) else { continue }
                guard let variable = Self.extractor(only.key, argument) else { continue }
                if case .jsonPath(let text) = variable {
                    do throws(JSONPath.SyntaxError) { _ = try JSONPath(text) } catch {
                        report(memberPath() + JSONPathText.key(only.key), error.description, at: only.value.offset)
                        continue
                    }
                }
                if case .xpath(let text) = variable {
                    do throws(XPathExpression.SyntaxError) { _ = try XPathExpression(text) } catch {
                        report(memberPath() + JSONPathText.key(only.key), error.description, at: only.value.offset)
                        continue
                    }
                }
                result.entries.append(.init(key: member.key, value: variable))
            default:
                expected("a string or an extractor such as {\"json_path\": \"$.id\"}", at: memberPath(), got: member.value)
            }
        }
        return result
    }
}
