import Foundation
import OpenAPI

/// `stubserver init --openapi`: a moco configuration with one session per operation of an
/// OpenAPI document, answering the operation's success response (the lowest declared 2xx,
/// else `2XX` or `default` as 200, else the first status) with its content type, its required
/// headers and a body from the document's examples or generated from the schema
/// (`ExampleGenerator`). Paths without variables become an exact `uri`; a template becomes a
/// `match` expression that leaves out the paths of more specific templates (`/pets/mine` before
/// `/pets/{id}`), so each session stands for exactly its operation and `stubserver check`
/// finds no drift. Whatever cannot be made to meet the document is a note naming the
/// operation and the JSON path in the document.
///
/// ```swift
/// let api = try OpenAPILoader().load("api.yaml")
/// let stubs = StubsFromDocument(api)
/// try stubs.configText.write(toFile: "Stubs/api_conf.json", atomically: true, encoding: .utf8)
/// for note in stubs.notes { print(note) }
/// ```
public struct StubsFromDocument: Sendable {
    /// Something about a generated session a person should look at.
    public struct Note: Sendable, CustomStringConvertible {
        /// `GET /pets/{id}`.
        public var operation: String
        /// JSON path in the document (`.paths["/pets/{id}"].get.responses["200"]`).
        public var path: String
        public var message: String

        public var description: String { "\(operation) (\(path)): \(message)" }
    }

    /// The sessions, in the order they are written: exact paths before templates.
    public private(set) var sessions: [JSONValue] = []
    public private(set) var notes: [Note] = []

    public init(_ api: OpenAPIDocument) {
        let generator = ExampleGenerator(api)
        var exact: [JSONValue] = []
        var templated: [JSONValue] = []
        for operation in api.operations {
            guard let session = session(for: operation, in: api, generator: generator) else { continue }
            if operation.template.variableNames.isEmpty { exact.append(session) } else { templated.append(session) }
        }
        sessions = exact + templated
    }

    /// The configuration as moco reads it: a JSON array, one session per line group.
    public var configText: String {
        var out = ""
        PrettyJSON.write(.array(sessions), indent: "", into: &out)
        return out + "\n"
    }

    mutating func note(_ operation: APIOperation, _ relative: String, _ message: String) {
        notes.append(Note(operation: operation.name, path: operation.jsonPath + relative, message: message))
    }

    // MARK: one session

    mutating func session(for operation: APIOperation, in api: OpenAPIDocument, generator: ExampleGenerator) -> JSONValue? {
        guard let uri = uri(for: operation, in: api, generator: generator) else { return nil }
        var request: JSONObject = ["method": .string(operation.method)]
        request.set("uri", uri)
        var session: JSONObject = [:]
        session.set("description", .string(operation.name + (operation.operationID.map { " (\($0))" } ?? "")))
        session.set("request", .object(request))
        session.set("response", .object(response(for: operation, generator: generator)))
        return .object(session)
    }

    /// The response a stub answers with: the success status, its required headers and body.
    mutating func response(for operation: APIOperation, generator: ExampleGenerator) -> JSONObject {
        let (status, declared) = Self.successResponse(of: operation)
        var response: JSONObject = ["status": .number(JSONNumber(status))]
        guard let declared else {
            note(operation, ".responses", "declares no response: the stub answers \(status) without a body")
            return response
        }
        let place = ".responses[" + JSONValue.string(declared.status.description).compactText + "]"
        var headers = JSONObject()
        for header in declared.headers where header.required {
            let value = header.schema.map { generator.value(for: $0, direction: .response) } ?? .string("value")
            headers.set(header.name, .string(value.scalarText))
        }
        guard
            let media = declared.content.first(where: { MediaType.isJSON(Self.concreteType($0.name, json: true)) })
                ?? declared.content.first
        else {
            if !headers.isEmpty { response.set("headers", .object(headers)) }
            return response
        }
        let example = generator.example(for: media, direction: .response)
        let isJSON = MediaType.isJSON(Self.concreteType(media.name, json: example.map { Self.isContainer($0.value) } ?? true))
        let contentType = Self.concreteType(media.name, json: isJSON)
        let mediaPlace = place + ".content" + JSONPathText.key(media.name)
        if let example {
            for violation in example.violations.prefix(3) {
                note(operation, mediaPlace, "the body breaks the schema at $\(violation.instancePath): \(violation.message); edit the stub")
            }
        }
        if !(isJSON && contentType == "application/json" && example.map { Self.isContainer($0.value) } == true) {
            headers.set("Content-Type", .string(contentType))
        }
        if !headers.isEmpty { response.set("headers", .object(headers)) }
        switch example?.value {
        case let value? where isJSON:
            // moco sends a `json` string raw, so scalars go as JSON text.
            if Self.isContainer(value) { response.set("json", value) } else { response.set("text", .string(value.compactText)) }
        case .string(let text)?:
            response.set("text", .string(text))
        default:
            note(operation, mediaPlace, "no example or schema for \(media.name): the stub answers an empty body")
            response.set("text", .string(""))
        }
        return response
    }

    static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: true
        default: false
        }
    }

    /// The lowest declared 2xx code; else `2XX` or `default` as 200; else the first status.
    static func successResponse(of operation: APIOperation) -> (Int, Response?) {
        let codes = operation.responses.compactMap { response -> (Int, Response)? in
            if case .code(let code) = response.status { return (code, response) }
            return nil
        }
        if let success = codes.filter({ (200..<300).contains($0.0) }).min(by: { $0.0 < $1.0 }) { return success }
        if let range = operation.responses.first(where: { $0.status == .range(2) }) { return (200, range) }
        if let fallback = operation.responses.first(where: { $0.status == .default }) { return (200, fallback) }
        if let first = codes.first { return first }
        return (200, nil)
    }

    /// A content type a response can carry for a media range (`*/*`, `application/*`, `text/*`).
    static func concreteType(_ name: String, json: Bool) -> String {
        switch MediaType.essence(name) {
        case "*/*": json ? "application/json" : "text/plain"
        case "application/*": json ? "application/json" : "application/octet-stream"
        case let essence where essence.hasSuffix("/*"): String(essence.dropLast()) + (essence == "text/*" ? "plain" : "octet-stream")
        default: name
        }
    }

    // MARK: the uri

    /// An exact path, or a `match` expression for a template; nil (with a note) when no uri
    /// can stand for this operation alone.
    mutating func uri(for operation: APIOperation, in api: OpenAPIDocument, generator: ExampleGenerator) -> JSONValue? {
        let base = api.basePaths.first ?? ""
        if operation.template.variableNames.isEmpty { return .string(base + operation.path) }
        // The more specific templates of the same method whose paths this one also matches.
        let excluded = api.operations.filter {
            $0.method == operation.method && $0.path != operation.path
                && $0.template.literalWeight > operation.template.literalWeight
                && operation.template.match($0.template.filled { _ in "1" }) != nil
        }
        let pattern =
            excluded.map { "(?!" + Self.expression(base, $0.template) + "$)" }.joined() + Self.expression(base, operation.template)
        if Self.standsAlone(.match(pattern), for: operation, in: api) { return ["match": .string(pattern)] }
        // Templates of equal weight that overlap (`/a/{x}/c`, `/a/b/{y}`): a concrete path.
        let path =
            base
            + operation.template.filled { name in
                let value =
                    operation.parameter(name, in: .path)?.schema.map { generator.value(for: $0, direction: .request).scalarText } ?? "1"
                return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            }
        if Self.standsAlone(.equal(path), for: operation, in: api) {
            note(operation, "", "its template overlaps another of the same weight: the stub answers only \(path)")
            return .string(path)
        }
        note(operation, "", "no uri stands for this operation alone (its template overlaps another): no stub written")
        return nil
    }

    /// The template as a regular expression: literals quoted, each variable one segment's text.
    static func expression(_ base: String, _ template: PathTemplate) -> String {
        NSRegularExpressionEscaping.escape(base) + template.filled(literal: NSRegularExpressionEscaping.escape) { _ in "[^/]+" }
    }

    /// Whether `stubserver check` reads the uri as this operation and no other of its method.
    static func standsAlone(_ uri: TextMatcher, for operation: APIOperation, in api: OpenAPIDocument) -> Bool {
        let matches = OperationLookup.operations(in: api, uri: uri).filter { $0.operation.method == operation.method }
        let chosen = OperationLookup.mostSpecific(matches, concrete: OperationLookup.isConcrete(uri))
        return chosen.count == 1 && chosen[0].operation.location == operation.location
    }
}

/// Indented JSON for files people read and edit: two spaces, a member per line, arrays of
/// scalars on one line.
enum PrettyJSON {
    static func write(_ value: JSONValue, indent: String, into out: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where elements.contains(where: StubsFromDocument.isContainer):
            out += "[\n"
            for (offset, element) in elements.enumerated() {
                out += inner
                write(element, indent: inner, into: &out)
                out += offset == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let object) where !object.isEmpty:
            out += "{\n"
            for (offset, member) in object.members.enumerated() {
                out += inner + JSONValue.string(member.key).compactText + ": "
                write(member.value, indent: inner, into: &out)
                out += offset == object.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += value.compactText
        }
    }
}
