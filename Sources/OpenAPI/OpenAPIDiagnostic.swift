import RehearsalJSON

/// One problem in an OpenAPI document: the document, the JSON path inside it, where it is
/// (line and column) and what was expected.
///
/// ```swift
/// // api.json: paths["/users/{id}"].get.responses: expected an object, got an array (line 12, column 20)
/// ```
public struct OpenAPIDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The document as the user named it (relative names stay relative).
    public var document: String
    /// JSON path such as `paths["/users/{id}"].get.parameters[0]`; empty for the whole document.
    public var path: String
    public var message: String
    public var position: SourcePosition?

    public init(document: String, path: String, message: String, position: SourcePosition? = nil) {
        self.document = document
        self.path = path
        self.message = message
        self.position = position
    }

    public var description: String {
        var text = path.isEmpty ? "\(document): \(message)" : "\(document): \(path): \(message)"
        if let position { text += " (\(position))" }
        return text
    }
}

/// Every problem found while loading an OpenAPI document (and the files it refers to).
public struct OpenAPIError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [OpenAPIDiagnostic]

    public init(_ diagnostics: [OpenAPIDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// JSON paths the way diagnostics print them (`.paths["/users/{id}"].get`, `.tags[0]`), the
/// notation `JSONNode.offset(atPath:)` reads back to place a problem.
package enum PathText {
    package static func key(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
        if plain { return "." + key }
        var out = ""
        JSONWriter.writeString(key, into: &out)
        return "[" + out + "]"
    }

    package static func index(_ index: Int) -> String { "[\(index)]" }

    /// `"text"` as JSON, clipped, for messages.
    package static func quoted(_ text: String) -> String {
        let clipped = text.count > 120 ? String(text.prefix(120)) + "…" : text
        var out = ""
        JSONWriter.writeString(clipped, into: &out)
        return out
    }
}
