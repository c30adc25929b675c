import RehearsalJSON

/// One problem in a configuration: the file, the JSON path and what was expected.
public typealias ConfigDiagnostic = DocumentDiagnostic

/// Every problem found while loading; loading reports all of them, not just the first.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [ConfigDiagnostic]

    public init(_ diagnostics: [ConfigDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { DocumentDiagnostic.lines(diagnostics) }
}
