import RehearsalJSON

/// Values for an API's payloads, for stubs written from the document (`stubserver init
/// --openapi`): the document's own examples where it has them (a media type's `example` or
/// first `examples` entry; a schema's `example`, `examples`, `default`, `const`, first `enum`
/// value), otherwise values generated from the schema — its type, `format` (date-time, uuid,
/// email, uri, int32/int64…), bounds, `minItems`, `required`, `oneOf`/`anyOf`/`allOf` with a
/// `discriminator`. Every candidate is validated against its schema and the first valid one
/// wins, so what it returns meets the schema unless `violations` says otherwise (a `pattern`
/// none of its candidate strings meets, contradictory keywords).
///
/// ```swift
/// let api = try OpenAPILoader().load("api.yaml")
/// let generator = ExampleGenerator(api)
/// let media = api.operations[0].responses[0].content[0]
/// if let example = generator.example(for: media, direction: .response) {
///     print(example.value.compactText, example.violations)  // {"id":1,"name":"string"} []
/// }
/// ```
public struct ExampleGenerator: Sendable {
    public let document: OpenAPIDocument
    let validator: SchemaValidator

    /// A value for a payload and where it comes from.
    public struct Example: Sendable {
        public var value: JSONValue
        /// The document's example it was taken from; nil when generated from the schema.
        public var source: DocumentLocation?
        /// Empty when the value meets its schema.
        public var violations: [SchemaViolation]
    }

    /// Nesting beyond which only required properties and `minItems` elements are generated.
    static let fullDepth = 4
    /// Nesting beyond which nothing more is generated (a required recursive property).
    static let maximumDepth = 24

    public init(_ document: OpenAPIDocument) {
        self.document = document
        self.validator = SchemaValidator(document)
    }

    /// The body for a media type: its `example`, its first `examples` entry's `value`, or one
    /// generated from its schema; nil when it has neither an example nor a schema.
    public func example(for media: MediaType, direction: SchemaValidator.Direction) -> Example? {
        var written: [(JSONValue, DocumentLocation)] = []
        let sources = document.sources
        if let node = sources.node(at: media.location), let members = node.members {
            if let example = members.first(where: { $0.key == "example" }) {
                written.append((example.value.value, child(media.location, "example")))
            }
            if let first = members.first(where: { $0.key == "examples" })?.value.members?.first,
                case .success(let (target, entry)) = sources.dereference(child(child(media.location, "examples"), first.key)),
                let value = entry.members?.first(where: { $0.key == "value" })
            {
                written.append((value.value.value, child(target, "value")))
            }
        }
        guard let schema = media.schema else {
            return written.first.map { Example(value: $0.0, source: $0.1, violations: []) }
        }
        for (value, source) in written where validator.validate(value, against: schema, direction: direction).isEmpty {
            return Example(value: value, source: source, violations: [])
        }
        let generated = value(for: schema, direction: direction)
        let violations = validator.validate(generated, against: schema, direction: direction)
        if let (value, source) = written.first, !violations.isEmpty {
            return Example(value: value, source: source, violations: validator.validate(value, against: schema, direction: direction))
        }
        return Example(value: generated, source: nil, violations: violations)
    }

    /// A value meeting `schema` as far as the generator can tell.
    public func value(for schema: DocumentLocation, direction: SchemaValidator.Direction) -> JSONValue {
        var run = Run(generator: self, direction: direction)
        return run.generate(schema, depth: 0)
    }

    func child(_ location: DocumentLocation, _ key: String) -> DocumentLocation {
        document.sources.location(location.document, location.pointer + "/" + DocumentSet.escape(key))
    }

    /// One generation: the schemas being expanded, so a recursive schema stops.
    struct Run {
        let generator: ExampleGenerator
        let direction: SchemaValidator.Direction
        var expanding: [DocumentLocation] = []

        var sources: DocumentSet { generator.document.sources }

        func valid(_ value: JSONValue, _ schema: DocumentLocation) -> Bool {
            generator.validator.validate(value, against: schema, direction: direction).isEmpty
        }

        mutating func generate(_ location: DocumentLocation, depth: Int) -> JSONValue {
            guard depth < ExampleGenerator.maximumDepth, case .success(let (target, node)) = sources.dereference(location) else {
                return .null
            }
            guard let members = node.members else { return .string("value") } // `true`: anything
            let schema = SchemaNode(members: members)
            if let constant = schema["const"] { return constant.value }
            if let first = schema["enum"]?.elements?.first(where: { if case .null = $0.kind { false } else { true } }) {
                return first.value
            }
            let written = [schema["example"], schema["examples"]?.elements?.first, schema["default"]].compactMap { $0?.value }
            if let found = written.first(where: { valid($0, target) }) { return found }
            let recursing = expanding.contains(target)
            expanding.append(target)
            defer { expanding.removeLast() }
            let full = depth < ExampleGenerator.fullDepth && !recursing
            for keyword in ["oneOf", "anyOf"] {
                if let alternatives = schema[keyword]?.elements, !alternatives.isEmpty {
                    return alternative(keyword, count: alternatives.count, schema: schema, at: target, depth: depth)
                }
            }
            switch type(of: schema, at: target) {
            case "object": return .object(object(target, schema, depth: depth, full: full))
            case "array": return .array(array(target, schema, depth: depth, full: full))
            case "integer": return .number(integer(schema))
            case "number": return .number(number(schema))
            case "boolean": return .bool(true)
            case "null": return .null
            default: return .string(string(schema, at: target))
            }
        }

        /// The declared type (the first that is not `null`), else what the keywords imply.
        func type(of schema: SchemaNode, at location: DocumentLocation) -> String {
            if let declared = generator.validator.declaredType(of: location) { return declared }
            if schema["properties"] != nil || schema["additionalProperties"] != nil || schema["allOf"] != nil { return "object" }
            if schema["items"] != nil || schema["prefixItems"] != nil { return "array" }
            return "string"
        }

        /// The first alternative whose value meets the whole schema; with a `discriminator`,
        /// each alternative's value carries the name that selects it.
        mutating func alternative(_ keyword: String, count: Int, schema: SchemaNode, at location: DocumentLocation, depth: Int)
            -> JSONValue
        {
            let list = generator.child(location, keyword)
            let property = schema["discriminator"]?.members?.first { $0.key == "propertyName" }?.value.stringValue
            var first: JSONValue?
            for index in 0..<count {
                let alternative = generator.child(list, String(index))
                var value = generate(alternative, depth: depth + 1)
                if case .object(var object) = value {
                    if schema["properties"] != nil {
                        for member in self.object(location, schema, depth: depth, full: true) where object[member.key] == nil {
                            object.set(member.key, member.value)
                        }
                    }
                    if let property, let name = discriminatorValue(for: alternative, schema: schema) {
                        object.set(property, .string(name))
                    }
                    value = .object(object)
                }
                if valid(value, location) { return value }
                if first == nil { first = value }
            }
            return first ?? .null
        }

        /// The `mapping` key that points at the alternative, else its schema's name.
        func discriminatorValue(for alternative: DocumentLocation, schema: SchemaNode) -> String? {
            guard let reference = sources.node(at: alternative)?.members?.first(where: { $0.key == "$ref" })?.value.stringValue else {
                return nil
            }
            let name = DocumentSet.split(reference).fragment.split(separator: "/").last.map(String.init)
            let mapping = schema["discriminator"]?.members?.first { $0.key == "mapping" }?.value.members ?? []
            for entry in mapping {
                guard let target = entry.value.stringValue else { continue }
                if target == reference || target == name { return entry.key }
            }
            return name.map { DocumentSet.tokens(of: "/" + $0).first ?? $0 }
        }

        /// The required names of a schema and of its `allOf` parts.
        func requiredNames(_ location: DocumentLocation, depth: Int = 0) -> Set<String> {
            guard depth < 16, case .success(let (target, node)) = sources.dereference(location), let members = node.members else {
                return []
            }
            let schema = SchemaNode(members: members)
            var names = Set(schema["required"]?.elements?.compactMap(\.stringValue) ?? [])
            for index in (schema["allOf"]?.elements ?? []).indices {
                names.formUnion(requiredNames(generator.child(generator.child(target, "allOf"), String(index)), depth: depth + 1))
            }
            return names
        }

        func flag(_ keyword: String, of location: DocumentLocation) -> Bool {
            guard case .success(let (_, node)) = sources.dereference(location), let members = node.members else { return false }
            return SchemaNode(members: members).flag(keyword)
        }

        mutating func object(_ location: DocumentLocation, _ schema: SchemaNode, depth: Int, full: Bool) -> JSONObject {
            let required = requiredNames(location)
            var object = JSONObject()
            for (name, property) in generator.validator.propertySchemas(of: location) where object[name] == nil {
                guard required.contains(name) || full else { continue }
                if direction == .request && flag("readOnly", of: property) { continue }
                if direction == .response && flag("writeOnly", of: property) { continue }
                object.set(name, generate(property, depth: depth + 1))
            }
            // A required name without a property schema takes what `additionalProperties` allows.
            let others = generator.child(location, "additionalProperties")
            for name in required.sorted() where object[name] == nil {
                object.set(name, schema["additionalProperties"]?.members != nil ? generate(others, depth: depth + 1) : .string("string"))
            }
            let minimum = schema.count("minProperties") ?? 0
            if object.count < minimum, schema["additionalProperties"]?.members != nil {
                var index = 1
                while object.count < minimum && index <= minimum + 8 {
                    if object["key\(index)"] == nil { object.set("key\(index)", generate(others, depth: depth + 1)) }
                    index += 1
                }
            }
            return object
        }

        mutating func array(_ location: DocumentLocation, _ schema: SchemaNode, depth: Int, full: Bool) -> [JSONValue] {
            var elements: [JSONValue] = []
            if let prefix = schema["prefixItems"]?.elements {
                for index in prefix.indices {
                    elements.append(generate(generator.child(generator.child(location, "prefixItems"), String(index)), depth: depth + 1))
                }
            }
            let minimum = schema.count("minItems") ?? 0
            let maximum = schema.count("maxItems") ?? Int.max
            let wanted = min(max(minimum, full ? elements.count + 1 : elements.count), maximum)
            guard schema["items"]?.members != nil else { return elements }
            let items = generator.child(location, "items")
            while elements.count < wanted {
                var element = generate(items, depth: depth + 1)
                if schema.flag("uniqueItems"), elements.contains(element) { element = distinct(element, from: elements, items: items) }
                elements.append(element)
            }
            return elements
        }

        /// Another valid item for `uniqueItems`: the number counted up, or the string with a suffix.
        func distinct(_ value: JSONValue, from elements: [JSONValue], items: DocumentLocation) -> JSONValue {
            for step in 1...64 {
                let candidate: JSONValue
                switch value {
                case .number(let number): candidate = .number(JSONNumber((number.intValue ?? 0) + step))
                case .string(let text): candidate = .string(text + String(step))
                default: return value
                }
                if !elements.contains(candidate), valid(candidate, items) { return candidate }
            }
            return value
        }

        /// The bounds as integers: `minimum`/`maximum`, exclusive in 3.0's boolean and 3.1's numeric form.
        func integerBounds(_ schema: SchemaNode) -> (low: Double, high: Double) {
            var low = -Double.infinity
            var high = Double.infinity
            if let minimum = schema.number("minimum") {
                low = schema.flag("exclusiveMinimum") ? (minimum + 1).rounded(.down) : minimum.rounded(.up)
            }
            if let maximum = schema.number("maximum") {
                high = schema.flag("exclusiveMaximum") ? (maximum - 1).rounded(.up) : maximum.rounded(.down)
            }
            if let bound = schema.number("exclusiveMinimum") { low = max(low, (bound + 1).rounded(.down)) }
            if let bound = schema.number("exclusiveMaximum") { high = min(high, (bound - 1).rounded(.up)) }
            if schema["format"]?.stringValue == "int32" {
                low = max(low, -2_147_483_648)
                high = min(high, 2_147_483_647)
            }
            return (low, high)
        }

        func integer(_ schema: SchemaNode) -> JSONNumber {
            let (low, high) = integerBounds(schema)
            var value = min(max(1, low), high)
            if let step = schema.number("multipleOf"), step > 0 {
                value = (value / step).rounded(.up) * step
                if value > high { value = ((high / step).rounded(.down)) * step }
            }
            guard value.isFinite, abs(value) < 9e15 else { return JSONNumber(1) }
            return JSONNumber(Int(value))
        }

        func number(_ schema: SchemaNode) -> JSONNumber {
            if schema.number("multipleOf") == nil, schema["format"]?.stringValue?.hasPrefix("int") != true {
                var low = schema.number("minimum") ?? schema.number("exclusiveMinimum") ?? -Double.infinity
                var high = schema.number("maximum") ?? schema.number("exclusiveMaximum") ?? Double.infinity
                if low.isInfinite && high.isInfinite { return JSONNumber("1.5")! }
                if low.isInfinite { low = high - 2 }
                if high.isInfinite { high = low + 2 }
                let middle = (low + high) / 2
                if middle == middle.rounded(), abs(middle) < 9e15 { return JSONNumber(Int(middle)) }
                return JSONNumber(middle)
            }
            return integer(schema)
        }

        /// A string for the `format`, within `minLength`/`maxLength`; with a `pattern`, the first
        /// of a few candidates that meets the schema (a pattern cannot be inverted reliably).
        func string(_ schema: SchemaNode, at location: DocumentLocation) -> String {
            let format = schema["format"]?.stringValue ?? ""
            let formatted = Self.formatExamples[format] ?? "string"
            let minimum = schema.count("minLength") ?? 0
            let maximum = schema.count("maxLength") ?? Int.max
            func fitted(_ text: String) -> String {
                var text = text
                if text.unicodeScalars.count < minimum { text += String(repeating: "x", count: minimum - text.unicodeScalars.count) }
                if text.unicodeScalars.count > maximum { text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(maximum))) }
                return text
            }
            let first = fitted(formatted)
            guard schema["pattern"] != nil else { return first }
            for candidate in [first] + Self.patternCandidates.map(fitted) where valid(.string(candidate), location) {
                return candidate
            }
            return first
        }

        static let formatExamples = [
            "date-time": "2024-05-01T12:30:00Z", "date": "2024-05-01", "time": "12:30:00Z",
            "uuid": "123e4567-e89b-12d3-a456-426614174000", "email": "user@example.com", "idn-email": "user@example.com",
            "uri": "https://example.com/", "url": "https://example.com/", "iri": "https://example.com/", "uri-reference": "/example",
            "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1", "byte": "ZXhhbXBsZQ==", "password": "secret",
            "duration": "P1D",
        ]

        static let patternCandidates = [
            "a", "abc", "A", "ABC", "1", "123", "a1", "A1", "abc123", "ABC-123", "a-b", "a_b", "a.b", "0", "+1234567890", "US", "en",
            "EUR", "https://example.com/", "user@example.com", "2024-05-01", "123e4567-e89b-12d3-a456-426614174000",
        ]
    }
}
