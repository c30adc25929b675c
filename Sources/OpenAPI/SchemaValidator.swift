import RehearsalJSON

/// Validates JSON values against the schemas of an `OpenAPIDocument`, in the document's
/// dialect (OpenAPI 3.0's schema object, or 3.1's JSON Schema 2020-12). `$ref`s are followed
/// as they are met, so recursive schemas (a comment with `replies: [Comment]`) validate
/// instances of any depth; a loop that makes no progress on the instance stops.
///
/// ```swift
/// let validator = SchemaValidator(api)
/// let problems = validator.validate(body, against: response.content[0].schema!, direction: .response)
/// for problem in problems { print(problem) }
/// // $.user.id: expected an integer, got a string "42" (schema #/components/schemas/User/properties/id/type)
/// ```
public struct SchemaValidator: Sendable {
    /// Request bodies may not carry `readOnly` properties, responses not `writeOnly` ones, and
    /// `required` does not apply to a property the direction leaves out.
    public enum Direction: Sendable {
        case request, response, neither
    }

    public let document: OpenAPIDocument
    /// Strings equal to this stand for a value not known until run time (a template
    /// placeholder): they pass every check. Strings containing it pass as strings of unknown content.
    public var unknownMarker: String?

    /// Deeper than this, a schema/instance pair is reported instead of followed.
    static let maximumDepth = 256

    public init(_ document: OpenAPIDocument, unknownMarker: String? = nil) {
        self.document = document
        self.unknownMarker = unknownMarker
    }

    /// Every violation of `schema` by `instance` (empty: valid).
    public func validate(_ instance: JSONValue, against schema: DocumentLocation, direction: Direction = .neither) -> [SchemaViolation] {
        var run = SchemaRun(sources: document.sources, dialect: document.dialect, direction: direction, unknownMarker: unknownMarker)
        var violations: [SchemaViolation] = []
        _ = run.check(instance, schema, path: "", into: &violations)
        return violations
    }

    /// The JSON type a schema declares (following `$ref`s, `allOf`): `integer`, `array`, … or nil.
    /// Used to read parameter values, which arrive as text.
    public func declaredType(of schema: DocumentLocation) -> String? {
        var location = schema
        for _ in 0..<16 {
            guard case .success(let (target, node)) = document.sources.dereference(location) else { return nil }
            if let type = node.members?.first(where: { $0.key == "type" })?.value {
                if let text = type.stringValue { return text }
                if let first = type.elements?.compactMap(\.stringValue).first(where: { $0 != "null" }) { return first }
            }
            guard let allOf = node.members?.first(where: { $0.key == "allOf" })?.value.elements, !allOf.isEmpty else { return nil }
            location = document.sources.location(target.document, target.pointer + "/allOf/0")
        }
        return nil
    }

    /// The item schema of an array schema, if it has one.
    public func itemSchema(of schema: DocumentLocation) -> DocumentLocation? {
        guard case .success(let (target, node)) = document.sources.dereference(schema),
            node.members?.contains(where: { $0.key == "items" }) == true
        else { return nil }
        return document.sources.location(target.document, target.pointer + "/items")
    }

    /// The property schemas of an object schema (following `$ref`s and `allOf`).
    public func propertySchemas(of schema: DocumentLocation) -> [(name: String, schema: DocumentLocation)] {
        guard case .success(let (target, node)) = document.sources.dereference(schema), let members = node.members else { return [] }
        var result: [(String, DocumentLocation)] = []
        if let properties = members.first(where: { $0.key == "properties" })?.value.members {
            for property in properties {
                result.append(
                    (
                        property.key,
                        document.sources.location(target.document, target.pointer + "/properties/" + DocumentSet.escape(property.key))
                    ))
            }
        }
        if let allOf = members.first(where: { $0.key == "allOf" })?.value.elements {
            for index in allOf.indices {
                result += propertySchemas(of: document.sources.location(target.document, target.pointer + "/allOf/\(index)"))
            }
        }
        return result
    }
}

/// One validation: the state a recursive walk needs (cycle guard, regex cache).
struct SchemaRun {
    let sources: DocumentSet
    let dialect: SchemaDialect
    let direction: SchemaValidator.Direction
    let unknownMarker: String?
    /// Schema/instance pairs being checked, so a `$ref` loop that does not descend into the
    /// instance (`allOf: [{$ref: self}]`) stops instead of recursing forever.
    var active: Set<ActiveKey> = []
    var depth = 0
    var regexes: [String: RegexEntry] = [:]

    struct ActiveKey: Hashable {
        var document: Int
        var pointer: String
        var instancePath: String
    }

    init(sources: DocumentSet, dialect: SchemaDialect, direction: SchemaValidator.Direction, unknownMarker: String?) {
        self.sources = sources
        self.dialect = dialect
        self.direction = direction
        self.unknownMarker = unknownMarker
    }

    func at(_ location: DocumentLocation, _ keyword: String) -> DocumentLocation {
        sources.location(location.document, location.pointer + "/" + DocumentSet.escape(keyword))
    }

    func violation(_ path: String, _ location: DocumentLocation, _ keyword: String, _ message: String) -> SchemaViolation {
        SchemaViolation(instancePath: path, schemaLocation: at(location, keyword).description, message: message)
    }

    /// Checks `instance` against the schema at `location`, appending violations; true when valid.
    mutating func check(_ instance: JSONValue, _ location: DocumentLocation, path: String, into violations: inout [SchemaViolation]) -> Bool
    {
        guard let node = sources.node(at: location) else {
            violations.append(SchemaViolation(instancePath: path, schemaLocation: location.description, message: "the schema is missing"))
            return false
        }
        if case .bool(let flag) = node.kind { // 3.1: `true` allows anything, `false` nothing
            if !flag {
                violations.append(
                    SchemaViolation(
                        instancePath: path, schemaLocation: location.description, message: "no value is allowed here (the schema is false)")
                )
            }
            return flag
        }
        guard let members = node.members else { return true }
        if let marker = unknownMarker, case .string(let text) = instance, text == marker { return true }
        let key = ActiveKey(document: location.document, pointer: location.pointer, instancePath: path)
        if active.contains(key) { return true }
        guard depth < SchemaValidator.maximumDepth else {
            violations.append(
                SchemaViolation(
                    instancePath: path, schemaLocation: location.description,
                    message: "schemas nest deeper than \(SchemaValidator.maximumDepth) levels here"))
            return false
        }
        active.insert(key)
        depth += 1
        defer {
            active.remove(key)
            depth -= 1
        }
        let before = violations.count
        var schema = SchemaNode(members: members)
        if let reference = schema["$ref"]?.stringValue {
            switch sources.resolve(reference, from: location.document) {
            case .failure(let failure):
                violations.append(violation(path, location, "$ref", failure.message))
            case .success(let target):
                _ = check(instance, target, path: path, into: &violations)
            }
            // 3.0: "sibling values alongside $ref are ignored".
            if dialect == .openAPI30 { return violations.count == before }
        }
        if dialect == .openAPI30 || schema["nullable"] != nil, case .null = instance, schema.flag("nullable") {
            return violations.count == before
        }
        schema.location = location
        checkType(instance, schema, path: path, into: &violations)
        checkEnum(instance, schema, path: path, into: &violations)
        switch instance {
        case .number(let number): checkNumber(number, schema, path: path, into: &violations)
        case .string(let text): checkString(text, schema, path: path, into: &violations)
        case .array(let elements): checkArray(elements, schema, path: path, into: &violations)
        case .object(let object): checkObject(object, schema, path: path, into: &violations)
        default: break
        }
        checkCombinators(instance, schema, path: path, into: &violations)
        return violations.count == before
    }

    /// Whether `instance` is valid, without keeping the violations.
    mutating func isValid(_ instance: JSONValue, _ location: DocumentLocation, path: String) -> Bool {
        var scratch: [SchemaViolation] = []
        return check(instance, location, path: path, into: &scratch)
    }

    // MARK: allOf, anyOf, oneOf, not, discriminator

    mutating func checkCombinators(_ instance: JSONValue, _ schema: SchemaNode, path: String, into violations: inout [SchemaViolation]) {
        let location = schema.location
        if let allOf = schema["allOf"]?.elements {
            for index in allOf.indices {
                _ = check(instance, at(at(location, "allOf"), String(index)), path: path, into: &violations)
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let alternatives = schema[keyword]?.elements, !alternatives.isEmpty else { continue }
            let list = at(location, keyword)
            if let discriminator = schema["discriminator"], case .object(let object) = instance {
                checkDiscriminated(
                    instance, object, discriminator: discriminator, schema: schema, keyword: keyword, path: path, into: &violations)
                continue
            }
            var passing: [Int] = []
            var best: [SchemaViolation]?
            for index in alternatives.indices {
                var attempt: [SchemaViolation] = []
                if check(instance, at(list, String(index)), path: path, into: &attempt) {
                    passing.append(index)
                    if keyword == "anyOf" { break }
                } else if best == nil || attempt.count < best!.count {
                    best = attempt
                }
            }
            if passing.isEmpty {
                violations.append(violation(path, location, keyword, "matches none of the \(alternatives.count) \(keyword) alternatives"))
                if let best { violations += best.prefix(5) }
            } else if keyword == "oneOf" && passing.count > 1 {
                violations.append(
                    violation(
                        path, location, keyword,
                        "matches \(passing.count) oneOf alternatives (\(passing.map { "#\($0)" }.joined(separator: ", "))); exactly one must match"
                    ))
            }
        }
        if schema["not"] != nil, isValid(instance, at(location, "not"), path: path) {
            violations.append(violation(path, location, "not", "must not match the \"not\" schema"))
        }
    }

    /// `discriminator`: the property names the alternative (through `mapping`, or the name of a
    /// schema under `#/components/schemas`), and only that alternative is checked.
    mutating func checkDiscriminated(
        _ instance: JSONValue, _ object: JSONObject, discriminator: JSONNode, schema: SchemaNode, keyword: String, path: String,
        into violations: inout [SchemaViolation]
    ) {
        let location = schema.location
        guard let property = discriminator.members?.first(where: { $0.key == "propertyName" })?.value.stringValue else { return }
        guard case .string(let value)? = object[property] else {
            violations.append(
                violation(path, location, "discriminator", "missing the discriminator property \(PathText.quoted(property)) (a string)"))
            return
        }
        if let marker = unknownMarker, value.contains(marker) { return }
        var reference: String?
        if let mapping = discriminator.members?.first(where: { $0.key == "mapping" })?.value.members {
            reference = mapping.first { $0.key == value }?.value.stringValue
            if let mapped = reference, !mapped.contains("#"), !mapped.contains("/") { reference = "#/components/schemas/" + mapped }
        }
        if reference == nil {
            // Implicit mapping: the value names a schema among the alternatives (by its last pointer token).
            let alternatives = schema[keyword]?.elements ?? []
            for alternative in alternatives {
                if let ref = alternative.members?.first(where: { $0.key == "$ref" })?.value.stringValue,
                    DocumentSet.split(ref).fragment.split(separator: "/").last.map(String.init) == value
                {
                    reference = ref
                }
            }
        }
        guard let reference, case .success(let target) = sources.resolve(reference, from: location.document) else {
            violations.append(
                violation(
                    path + JSONPathText.key(property, asciiOnly: true), location, "discriminator",
                    "\(PathText.quoted(value)) names no \(keyword) alternative (discriminator \(PathText.quoted(property)))"))
            return
        }
        _ = check(instance, target, path: path, into: &violations)
    }
}

/// A schema object's members with keyword lookup.
struct SchemaNode {
    let members: [JSONNode.Member]
    var location = DocumentLocation(document: 0, pointer: "", fileName: nil)

    init(members: [JSONNode.Member]) { self.members = members }

    subscript(_ keyword: String) -> JSONNode? { members.first { $0.key == keyword }?.value }

    func flag(_ keyword: String) -> Bool {
        if case .bool(true)? = self[keyword]?.kind { return true }
        return false
    }

    func number(_ keyword: String) -> Double? {
        if case .number(let number)? = self[keyword]?.kind { return number.doubleValue }
        return nil
    }

    func count(_ keyword: String) -> Int? {
        if case .number(let number)? = self[keyword]?.kind { return number.intValue ?? Int(exactly: number.doubleValue.rounded(.down)) }
        return nil
    }
}
