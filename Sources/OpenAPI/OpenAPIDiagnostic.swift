import RehearsalJSON

/// One problem in an OpenAPI document: the document (`file`), the JSON path inside it, where it is
/// (line and column) and what was expected.
///
/// ```swift
/// // api.json: paths["/users/{id}"].get.responses: expected an object, got an array (line 12, column 20)
/// ```
public typealias OpenAPIDiagnostic = DocumentDiagnostic

/// Every problem found while loading an OpenAPI document (and the files it refers to).
public struct OpenAPIError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [OpenAPIDiagnostic]

    public init(_ diagnostics: [OpenAPIDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { DocumentDiagnostic.lines(diagnostics) }
}

/// Text for OpenAPI diagnostics; JSON paths in them are written by `JSONPathText` (keys with
/// `asciiOnly`, so a non-ASCII key stays quoted: `.properties["café"]`).
package enum PathText {
    /// `"text"` as JSON, clipped, for messages.
    package static func quoted(_ text: String) -> String {
        let clipped = text.count > 120 ? String(text.prefix(120)) + "…" : text
        var out = ""
        JSONWriter.writeString(clipped, into: &out)
        return out
    }
}
