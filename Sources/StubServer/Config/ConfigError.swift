/// One problem in a configuration: the file, the JSON path and what was expected.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// JSON path such as `[0].request.method`; empty for file-level problems.
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

    /// `Stubs/login_conf.json: [0].request.metod: unknown key; did you mean "method"? (line 3, column 17)`
    public var description: String {
        var text = path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
        if let position { text += " (\(position))" }
        return text
    }
}

/// Every problem found while loading; loading reports all of them, not just the first.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [ConfigDiagnostic]

    public init(_ diagnostics: [ConfigDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
