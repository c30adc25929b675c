import Foundation

/// A loaded and compiled configuration.
public struct LoadedConfig: Sendable {
    public let router: Router
    /// Every file the configuration was read from (absolute paths), for hot reload: the
    /// config files, every included file and every request `file` matcher's file.
    public let watchedFiles: [String]
    /// Problems that do not stop loading (a response `file` that does not exist yet, a file
    /// included twice, a name found both next to the config and in the working directory).
    /// `stubserver validate --strict` treats them as errors.
    public let warnings: [ConfigDiagnostic]
    /// Sessions loaded, as written (a REST resource or a mount counts once).
    public let sessionCount: Int

    public init(router: Router, watchedFiles: [String], warnings: [ConfigDiagnostic] = [], sessionCount: Int? = nil) {
        self.router = router
        self.watchedFiles = watchedFiles
        self.warnings = warnings
        self.sessionCount = sessionCount ?? router.stubCount
    }
}

/// Reads moco configuration files into a `Router`.
///
/// ```swift
/// let loaded = try ConfigLoader.load(config: "Stubs/settings.json")
/// let server = loaded.router          // hand to the HTTP engine
/// let watch = loaded.watchedFiles     // reload when any of these changes
/// ```
///
/// A file is a JSON array whose entries are sessions (`{request, response}`, `{response}`,
/// `{request, redirectTo}`) or settings entries (`{include, context, file_root, env, request,
/// response}`), in any mix. Relative names (includes, `file`, `file_root`) resolve against the
/// directory of the file that names them first, then against the working directory (moco's rule).
/// Every problem in every file is reported at once in a `ConfigError`.
public enum ConfigLoader {
    /// `-c FILE|GLOB`: a file (or glob) of sessions, which may also hold settings entries
    /// (`include`, `context`, `file_root`, …). Relative paths resolve against `workingDirectory`.
    public static func load(
        config path: String,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> LoadedConfig {
        try load(path, option: "-c", environment: nil, workingDirectory: workingDirectory, options: RouterOptions())
    }

    /// `-g SETTINGS [-e ENV]`: a global settings file; with `environment`, entries without a
    /// matching `env` are dropped (moco).
    public static func load(
        settings path: String,
        environment: String?,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> LoadedConfig {
        try load(path, option: "-g", environment: environment, workingDirectory: workingDirectory, options: RouterOptions())
    }

    /// The file of `-c` or of `-g` (`option`), compiled with the router options of a server.
    static func load(
        _ path: String, option: String, environment: String?, workingDirectory: String, options: RouterOptions
    ) throws -> LoadedConfig {
        var run = LoadRun(workingDirectory: workingDirectory, environment: environment)
        run.routerOptions = options
        run.loadTopLevel(path, option: option)
        return try run.finish()
    }

    /// The sessions of a configuration without compiling them, e.g. to add Swift-built stubs
    /// before building a `Router`. Throws `ConfigError` for problems in the files themselves.
    public static func definitions(
        config path: String,
        environment: String? = nil,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> (stubs: [StubDefinition], watchedFiles: [String]) {
        var run = LoadRun(workingDirectory: workingDirectory, environment: environment)
        run.loadTopLevel(path, option: "-c")
        guard run.diagnostics.isEmpty else { throw ConfigError(run.sortedDiagnostics()) }
        return (run.stubs, run.watched)
    }
}
