/// One problem at a JSON path inside a named file: which file, where in it and what was expected.
/// A stub configuration (`ConfigDiagnostic`) and an OpenAPI document (`OpenAPIDiagnostic`) report
/// their problems with it, so both print the same way.
///
/// ```swift
/// let diagnostic = DocumentDiagnostic(
///     file: "Stubs/login_conf.json", path: "[0].request.metod", message: #"unknown key; did you mean "method"?"#,
///     position: SourcePosition(line: 3, column: 17))
/// print(diagnostic)
/// // Stubs/login_conf.json: [0].request.metod: unknown key; did you mean "method"? (line 3, column 17)
/// ```
public struct DocumentDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it (relative names stay relative).
    public var file: String
    /// JSON path such as `[0].request.method` or `paths["/users/{id}"].get`; empty for file-level problems.
    public var path: String
    public var message: String
    /// Where in the file, when known.
    public var position: SourcePosition?

    public init(file: String, path: String, message: String, position: SourcePosition? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.position = position
    }

    /// `file: path: message (line L, column C)`; the path and the position only when known.
    public var description: String {
        var text = path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
        if let position { text += " (\(position))" }
        return text
    }

    /// Several diagnostics as an error prints them: one a line, in order.
    package static func lines(_ diagnostics: [DocumentDiagnostic]) -> String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
