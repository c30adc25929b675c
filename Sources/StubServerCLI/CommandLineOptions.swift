/// The options of `stubserver`'s subcommands, written once: each subcommand lists the ones it
/// takes (`[.port, .config, .quiet]`), so `-c` means the same file option everywhere.
extension CommandLineArguments.Option {
    /// An option followed by a value (`-p 8080`, `--port 8080`, `--port=8080`), read back by its
    /// long name without the dashes (`parsed["port"]`).
    static func value(_ names: String...) -> Self {
        Self(names: names, key: key(names), takesValue: true)
    }

    /// An option standing alone (`-q`, `--quiet`), read back with `parsed.has("quiet")`.
    static func flag(_ names: String...) -> Self {
        Self(names: names, key: key(names), takesValue: false)
    }

    private static func key(_ names: [String]) -> String {
        String((names.last ?? "").drop(while: { $0 == "-" }))
    }

    static let port = value("-p", "--port")
    static let config = value("-c", "--config")
    static let host = value("--host")
    static let shutdownPort = value("-s", "--shutdown-port")
    static let quiet = flag("-q", "--quiet")
    static let threads = value("--threads")
    static let adminToken = value("--admin-token")
    static let openAPI = value("--openapi")
    static let strict = flag("--strict")
    static let certificate = value("--certificate")
    static let privateKey = value("--private-key")

    /// `-c FILE|GLOB` or `-g SETTINGS [-e ENV]`, as `ConfigSource` reads them.
    static let configSource: [Self] = [config, value("-g", "--settings"), value("-e", "--env")]
}
