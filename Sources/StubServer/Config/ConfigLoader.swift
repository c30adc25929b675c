// CONTRACT (placeholder until the config work lands).
import Foundation

/// A loaded and compiled configuration.
public struct LoadedConfig: Sendable {
    public let router: Router
    /// Every file the configuration was read from (absolute paths), for hot reload.
    public let watchedFiles: [String]

    public init(router: Router, watchedFiles: [String]) {
        self.router = router
        self.watchedFiles = watchedFiles
    }
}

/// One problem in a configuration: the file, the JSON path and what was expected.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// JSON path such as `[0].request.method`; empty for file-level problems.
    public var path: String
    public var message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// `Stubs/login_conf.json: [0].request.metod: unknown key; did you mean "method"?`
    public var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
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

public enum ConfigLoader {
    /// `-c FILE|GLOB`: a file (or glob) of sessions, which may also hold settings entries
    /// (`include`, `context`, `file_root`, …). Relative paths resolve against `workingDirectory`.
    public static func load(
        config path: String,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> LoadedConfig {
        throw ConfigError([ConfigDiagnostic(file: path, path: "", message: "configuration loading is not built yet")])
    }

    /// `-g SETTINGS [-e ENV]`: a global settings file; with `environment`, entries without a
    /// matching `env` are dropped (moco).
    public static func load(
        settings path: String,
        environment: String?,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> LoadedConfig {
        throw ConfigError([ConfigDiagnostic(file: path, path: "", message: "configuration loading is not built yet")])
    }
}
