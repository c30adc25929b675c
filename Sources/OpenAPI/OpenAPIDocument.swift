import RehearsalJSON

/// An OpenAPI 3.0 or 3.1 document, read by `OpenAPIDocument.load(_:)`: its operations (method
/// and path template), their parameters, request bodies and responses per status and media
/// type, and the base paths of its `servers`. Schemas stay where they were written and are
/// validated in place by `SchemaValidator` (`$ref`s resolved lazily, so recursive schemas work).
///
/// ```swift
/// let api = try OpenAPIDocument.load("docs/api.json")
/// for operation in api.operations { print(operation.method, operation.path) }  // GET /users/{id}
/// let violations = SchemaValidator(api).validate(body, against: operation.responses[0].content[0].schema!)
/// ```
public struct OpenAPIDocument: Sendable {
    /// `3.0.3`, `3.1.0`, … as written.
    public var version: String
    public var dialect: SchemaDialect
    public var title: String?
    /// Path prefixes of the `servers` (`https://api.example.com/v1` → `/v1`); `[""]` when none.
    public var basePaths: [String]
    /// In document order: paths, then methods in `PathItem.methods` order.
    public var operations: [APIOperation]
    /// The document and every file its `$ref`s reach.
    package let sources: DocumentSet

    /// The document as the user named it.
    public var name: String { sources.documents[0].name }
}

/// Which schema rules apply: OpenAPI 3.0's schema object (`nullable`, boolean
/// `exclusiveMinimum`) or 3.1's JSON Schema 2020-12 (type arrays, `const`, `prefixItems`).
public enum SchemaDialect: Sendable, Hashable {
    case openAPI30
    case openAPI31
}

/// A place in the loaded documents: which file, and the JSON pointer inside it.
public struct DocumentLocation: Sendable, Hashable, CustomStringConvertible {
    /// Index into the document set (0: the top document).
    package var document: Int
    /// A JSON pointer without the `#` (`/components/schemas/Pet`).
    public var pointer: String
    /// `#/components/schemas/Pet`, or `pets.json#/Pet` in another file (set when built).
    public var description: String

    package init(document: Int, pointer: String, fileName: String?) {
        self.document = document
        self.pointer = pointer
        description = (fileName ?? "") + "#" + pointer
    }
}

/// One operation: `GET /users/{id}`.
public struct APIOperation: Sendable {
    /// Upper case (`GET`).
    public var method: String
    /// The path template as written under `paths` (`/users/{id}`), without a server base path.
    public var path: String
    public var template: PathTemplate
    public var operationID: String?
    /// Path-level parameters merged with the operation's own (the operation's win).
    public var parameters: [Parameter]
    public var requestBody: RequestBody?
    public var responses: [Response]
    /// Where the operation is written (`#/paths/~1users~1{id}/get`).
    public var location: DocumentLocation
    /// JSON path of the operation in its document, for messages (`.paths["/users/{id}"].get`).
    public var jsonPath: String

    /// `GET /users/{id}`.
    public var name: String { method + " " + path }

    /// The parameter `name` in `location`; header names compare case-insensitively.
    public func parameter(_ name: String, in location: Parameter.Location) -> Parameter? {
        parameters.first { $0.location == location && (location == .header ? $0.name.lowercased() == name.lowercased() : $0.name == name) }
    }

    /// The response declared for `status`: the exact code, then its range (`4XX`), then `default`.
    public func response(for status: Int) -> Response? {
        responses.first { $0.status == .code(status) }
            ?? responses.first { $0.status == .range(status / 100) }
            ?? responses.first { $0.status == .default }
    }
}

/// A parameter (`in`: path, query, header or cookie) with its serialisation style.
public struct Parameter: Sendable {
    public enum Location: String, Sendable, Hashable {
        case path, query, header, cookie
    }

    /// OpenAPI's `style` values.
    public enum Style: String, Sendable, Hashable {
        case matrix, label, form, simple, spaceDelimited, pipeDelimited, deepObject
    }

    public var name: String
    public var location: Location
    public var required: Bool
    public var style: Style
    public var explode: Bool
    public var deprecated: Bool
    /// The schema (or the schema of the single `content` entry).
    public var schema: DocumentLocation?
    public var documentLocation: DocumentLocation
}

/// `requestBody`: whether it is required and the schema per media type.
public struct RequestBody: Sendable {
    public var required: Bool
    public var content: [MediaType]
    public var location: DocumentLocation

    /// The entry for `mediaType` (parameters such as `charset` ignored): exact, then
    /// `type/*`, then `*/*`.
    public func content(for mediaType: String) -> MediaType? { MediaType.lookup(mediaType, in: content) }
}

/// One entry of a `content` map.
public struct MediaType: Sendable {
    /// As written (`application/json`, `text/*`).
    public var name: String
    public var schema: DocumentLocation?
    /// Where the entry is written (its `example`/`examples` are read from here).
    public var location: DocumentLocation

    static func lookup(_ mediaType: String, in content: [MediaType]) -> MediaType? {
        let essence = MediaType.essence(mediaType)
        let type = essence.split(separator: "/").first.map(String.init) ?? essence
        return content.first { MediaType.essence($0.name) == essence }
            ?? content.first { MediaType.essence($0.name) == type + "/*" }
            ?? content.first { MediaType.essence($0.name) == "*/*" }
    }

    /// `application/json; charset=utf-8` → `application/json`.
    public static func essence(_ mediaType: String) -> String {
        let head = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingSpaces().lowercased()
    }

    /// `application/json`, `application/problem+json`, `text/json`.
    public static func isJSON(_ mediaType: String) -> Bool {
        let essence = essence(mediaType)
        return essence == "application/json" || essence.hasSuffix("+json") || essence == "text/json"
    }
}

/// One entry of `responses`.
public struct Response: Sendable {
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        case code(Int)
        /// `2XX`: the first digit.
        case range(Int)
        case `default`

        public var description: String {
            switch self {
            case .code(let code): String(code)
            case .range(let digit): "\(digit)XX"
            case .default: "default"
            }
        }
    }

    public var status: Status
    public var headers: [Header]
    public var content: [MediaType]
    public var location: DocumentLocation

    public func content(for mediaType: String) -> MediaType? { MediaType.lookup(mediaType, in: content) }
}

/// A response header.
public struct Header: Sendable {
    public var name: String
    public var required: Bool
    public var schema: DocumentLocation?
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

extension OpenAPIDocument {
    /// `#/components/schemas/<name>` of the top document, if it exists.
    public func schema(named name: String) -> DocumentLocation? {
        location(ofPointer: "/components/schemas/" + DocumentSet.escape(name))
    }

    /// A JSON pointer (`/components/schemas/Pet`) into the top document, if it names something.
    public func location(ofPointer pointer: String) -> DocumentLocation? {
        let location = sources.location(0, pointer)
        return sources.node(at: location) == nil ? nil : location
    }

    /// Line and column of a place in the documents, for messages.
    public func position(of location: DocumentLocation) -> SourcePosition? { sources.position(location) }

    /// The operations whose path (after one of the servers' base paths) matches the
    /// percent-decoded `path`, most specific template first (`/users/me` before `/users/{id}`).
    public func operations(matchingPath path: String) -> [(operation: APIOperation, variables: [String: String])] {
        var found: [(APIOperation, [String: String])] = []
        for base in basePaths where base.isEmpty || path == base || path.hasPrefix(base + "/") {
            let rest = String(path.dropFirst(base.count))
            for operation in operations {
                if let variables = operation.template.match(rest) { found.append((operation, variables)) }
            }
        }
        return found.sorted { $0.0.template.literalWeight > $1.0.template.literalWeight }
    }
}
