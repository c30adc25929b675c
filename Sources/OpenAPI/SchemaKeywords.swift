import BoundedRegex
import RehearsalJSON

/// A `pattern` compiled once per validation (or why it does not compile).
enum RegexEntry {
    case compiled(CompiledRegex)
    case invalid(String)
}

extension SchemaRun {
    // MARK: type, enum, const

    static func typeName(_ instance: JSONValue) -> String {
        switch instance {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): SchemaRun.isInteger(number) ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func isInteger(_ number: JSONNumber) -> Bool {
        if number.isInteger { return true }
        let value = number.doubleValue
        return value.isFinite && value == value.rounded()
    }

    static func article(_ type: String) -> String {
        if type == "null" { return "null" }
        return ["integer", "array", "object"].contains(type) ? "an \(type)" : "a \(type)"
    }

    func describe(_ instance: JSONValue) -> String {
        switch instance {
        case .string(let text): "a string \(PathText.quoted(text))"
        case .number(let number): "\(SchemaRun.article(SchemaRun.typeName(instance))) \(number.text)"
        case .bool(let flag): "a boolean \(flag)"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }

    func checkType(_ instance: JSONValue, _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        guard let typeNode = schema["type"] else { return }
        var allowed: [String] = []
        if let single = typeNode.stringValue {
            allowed = [single]
        } else if let list = typeNode.elements {
            allowed = list.compactMap(\.stringValue)
        }
        guard !allowed.isEmpty else { return }
        if dialect == .openAPI30 || schema["nullable"] != nil, schema.flag("nullable") { allowed.append("null") }
        let actual = SchemaRun.typeName(instance)
        if allowed.contains(actual) || (actual == "integer" && allowed.contains("number")) { return }
        if let marker = unknownMarker, case .string(let text) = instance, text.contains(marker), allowed.contains("string") { return }
        let expected = allowed.map(SchemaRun.article).joined(separator: " or ")
        violations.append(violation(path, schema.location, "type", "expected \(expected), got \(describe(instance))"))
    }

    func checkEnum(_ instance: JSONValue, _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        if let marker = unknownMarker, case .string(let text) = instance, text.contains(marker) { return }
        if let options = schema["enum"]?.elements {
            let values = options.map(\.value)
            if !values.contains(where: { SchemaRun.equal($0, instance) }) {
                let list = values.prefix(10).map(\.compactText).joined(separator: ", ") + (values.count > 10 ? ", …" : "")
                violations.append(violation(path, schema.location, "enum", "expected one of \(list); got \(describe(instance))"))
            }
        }
        if let constant = schema["const"]?.value, !SchemaRun.equal(constant, instance) {
            violations.append(violation(path, schema.location, "const", "expected \(constant.compactText); got \(describe(instance))"))
        }
    }

    /// JSON Schema equality: numbers by mathematical value (`1` equals `1.0`), objects ignoring key order.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.number(let a), .number(let b)):
            if a.isInteger && b.isInteger { return a == b }
            return a.doubleValue == b.doubleValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in b[member.key].map { equal(member.value, $0) } ?? false }
        default:
            return left == right
        }
    }

    // MARK: numbers

    func checkNumber(_ number: JSONNumber, _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        let value = number.doubleValue
        let location = schema.location
        if let minimum = schema.number("minimum") {
            // 3.0: `exclusiveMinimum: true` makes `minimum` exclusive.
            if schema.flag("exclusiveMinimum") {
                if !(value > minimum) {
                    violations.append(violation(path, location, "minimum", "expected more than \(Self.text(minimum)), got \(number.text)"))
                }
            } else if value < minimum {
                violations.append(violation(path, location, "minimum", "expected at least \(Self.text(minimum)), got \(number.text)"))
            }
        }
        if let maximum = schema.number("maximum") {
            if schema.flag("exclusiveMaximum") {
                if !(value < maximum) {
                    violations.append(violation(path, location, "maximum", "expected less than \(Self.text(maximum)), got \(number.text)"))
                }
            } else if value > maximum {
                violations.append(violation(path, location, "maximum", "expected at most \(Self.text(maximum)), got \(number.text)"))
            }
        }
        // 3.1: numeric `exclusiveMinimum`/`exclusiveMaximum`.
        if let bound = schema.number("exclusiveMinimum"), !(value > bound) {
            violations.append(violation(path, location, "exclusiveMinimum", "expected more than \(Self.text(bound)), got \(number.text)"))
        }
        if let bound = schema.number("exclusiveMaximum"), !(value < bound) {
            violations.append(violation(path, location, "exclusiveMaximum", "expected less than \(Self.text(bound)), got \(number.text)"))
        }
        if case .number(let divisor)? = schema["multipleOf"]?.kind, divisor.doubleValue > 0, !Self.isMultiple(number, of: divisor) {
            violations.append(violation(path, location, "multipleOf", "expected a multiple of \(divisor.text), got \(number.text)"))
        }
        if let format = schema["format"]?.stringValue, let problem = SchemaFormats.checkNumber(number, format: format) {
            violations.append(violation(path, location, "format", problem))
        }
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func isMultiple(_ number: JSONNumber, of divisor: JSONNumber) -> Bool {
        if number.isInteger, divisor.isInteger, let value = Int64(number.text), let step = Int64(divisor.text), step != 0 {
            return value % step == 0
        }
        let quotient = number.doubleValue / divisor.doubleValue
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    // MARK: strings

    mutating func checkString(_ text: String, _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        if let marker = unknownMarker, text.contains(marker) { return }
        let location = schema.location
        let length = text.unicodeScalars.count
        if let minimum = schema.count("minLength"), length < minimum {
            violations.append(violation(path, location, "minLength", "expected at least \(minimum) characters, got \(length)"))
        }
        if let maximum = schema.count("maxLength"), length > maximum {
            violations.append(violation(path, location, "maxLength", "expected at most \(maximum) characters, got \(length)"))
        }
        if let pattern = schema["pattern"]?.stringValue {
            let entry: RegexEntry
            if let cached = regexes[pattern] {
                entry = cached
            } else {
                do throws(CompiledRegex.CompileError) {
                    entry = .compiled(try CompiledRegex(pattern))
                } catch {
                    entry = .invalid(error.message)
                }
                regexes[pattern] = entry
            }
            switch entry {
            case .invalid(let message):
                violations.append(violation(path, location, "pattern", "the schema's pattern cannot be used: \(message)"))
            case .compiled(let regex):
                let result = regex.matchesSomewhere(text)
                if result.exhausted {
                    violations.append(
                        violation(
                            path, location, "pattern",
                            "the pattern \(PathText.quoted(pattern)) ran out of its step budget on this value (catastrophic backtracking); treated as no match"
                        ))
                } else if !result.matched {
                    violations.append(
                        violation(
                            path, location, "pattern",
                            "expected a string matching \(PathText.quoted(pattern)), got \(PathText.quoted(text))"))
                }
            }
        }
        if let format = schema["format"]?.stringValue, let problem = SchemaFormats.checkString(text, format: format) {
            violations.append(violation(path, location, "format", problem))
        }
    }

    // MARK: arrays

    mutating func checkArray(_ elements: [JSONValue], _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        let location = schema.location
        if let minimum = schema.count("minItems"), elements.count < minimum {
            violations.append(violation(path, location, "minItems", "expected at least \(minimum) items, got \(elements.count)"))
        }
        if let maximum = schema.count("maxItems"), elements.count > maximum {
            violations.append(violation(path, location, "maxItems", "expected at most \(maximum) items, got \(elements.count)"))
        }
        if schema.flag("uniqueItems") {
            outer: for i in elements.indices {
                for j in elements.indices where j > i && SchemaRun.equal(elements[i], elements[j]) {
                    violations.append(
                        violation(
                            path + JSONPathText.index(j), location, "uniqueItems", "items must be unique; this one repeats item [\(i)]"))
                    break outer
                }
            }
        }
        var first = 0
        if let prefix = schema["prefixItems"]?.elements {
            for index in prefix.indices where index < elements.count {
                _ = check(
                    elements[index], at(at(location, "prefixItems"), String(index)), path: path + JSONPathText.index(index),
                    into: &violations)
            }
            first = prefix.count
        }
        if let items = schema["items"] {
            if let tuple = items.elements { // draft-04 style tuple (some 3.0 documents)
                for index in tuple.indices where index < elements.count {
                    _ = check(
                        elements[index], at(at(location, "items"), String(index)), path: path + JSONPathText.index(index), into: &violations
                    )
                }
            } else {
                for index in elements.indices where index >= first {
                    _ = check(elements[index], at(location, "items"), path: path + JSONPathText.index(index), into: &violations)
                }
            }
        }
    }

    // MARK: objects

    mutating func checkObject(_ object: JSONObject, _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        let location = schema.location
        let properties = schema["properties"]?.members ?? []
        if let minimum = schema.count("minProperties"), object.count < minimum {
            violations.append(violation(path, location, "minProperties", "expected at least \(minimum) properties, got \(object.count)"))
        }
        if let maximum = schema.count("maxProperties"), object.count > maximum {
            violations.append(violation(path, location, "maxProperties", "expected at most \(maximum) properties, got \(object.count)"))
        }
        if let required = schema["required"]?.elements {
            for name in required.compactMap(\.stringValue) where object[name] == nil {
                if properties.contains(where: { $0.key == name }), skippedByDirection(at(at(location, "properties"), name)) != nil {
                    continue
                }
                violations.append(violation(path, location, "required", "missing the required property \(PathText.quoted(name))"))
            }
        }
        var patterns: [(String, CompiledRegex)] = []
        if let patternProperties = schema["patternProperties"]?.members {
            for entry in patternProperties {
                if let regex = try? CompiledRegex(entry.key) { patterns.append((entry.key, regex)) }
            }
        }
        let additional = schema["additionalProperties"]
        for member in object.members {
            let memberPath = path + JSONPathText.key(member.key, asciiOnly: true)
            var matched = false
            if properties.contains(where: { $0.key == member.key }) {
                matched = true
                let propertyLocation = at(at(location, "properties"), member.key)
                if let reason = skippedByDirection(propertyLocation) {
                    violations.append(
                        SchemaViolation(
                            instancePath: memberPath, schemaLocation: propertyLocation.description,
                            message: "\(reason) property sent in a \(direction == .request ? "request" : "response")"))
                    continue
                }
                _ = check(member.value, propertyLocation, path: memberPath, into: &violations)
            }
            for (pattern, regex) in patterns where regex.matchesSomewhere(member.key).matched {
                matched = true
                _ = check(member.value, at(at(location, "patternProperties"), pattern), path: memberPath, into: &violations)
            }
            guard !matched, let additional else { continue }
            if case .bool(false) = additional.kind {
                let known = properties.map(\.key).prefix(20).joined(separator: ", ")
                violations.append(
                    violation(
                        memberPath, location, "additionalProperties",
                        "the property \(PathText.quoted(member.key)) is not allowed (known: \(known.isEmpty ? "none" : known))"))
            } else if additional.members != nil {
                _ = check(member.value, at(location, "additionalProperties"), path: memberPath, into: &violations)
            }
        }
    }

    /// "read-only" or "write-only" when the property's schema leaves it out of this direction.
    func skippedByDirection(_ property: DocumentLocation) -> String? {
        guard direction != .neither, case .success(let (_, node)) = sources.dereference(property), let members = node.members else {
            return nil
        }
        let schema = SchemaNode(members: members)
        if direction == .request && schema.flag("readOnly") { return "a read-only" }
        if direction == .response && schema.flag("writeOnly") { return "a write-only" }
        return nil
    }
}
