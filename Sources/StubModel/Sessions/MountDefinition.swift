/// moco's `{"mount": {"dir": "www", "uri": "/static", "includes": ["*.html"], "excludes": ["*.tmp"]}}`:
/// serves the files of a directory under a URI prefix. A request whose file does not exist (or
/// is filtered out) is not matched, so later sessions get their turn.
///
/// ```swift
/// StubDefinition.mount(MountDefinition(dir: "www", uri: "/static", includes: ["**/*.css"]),
///                      response: .status(200).header("Cache-Control", "no-store"))
/// ```
public struct MountDefinition: Sendable, Hashable {
    /// The directory, relative to the working directory (moco), the config's directory or `file_root`.
    public var dir: String
    /// The URI prefix (`/static` serves `/static/…`); the settings `context` goes in front.
    public var uri: String
    /// Globs over the path below `uri` (`*` stays within a directory, `**` crosses them, `?`,
    /// `[abc]`, `{a,b}`); a file is served when it matches any include (or there are none)…
    public var includes: [String]
    /// …and no exclude.
    public var excludes: [String]

    public init(dir: String, uri: String, includes: [String] = [], excludes: [String] = []) {
        self.dir = dir
        self.uri = uri
        self.includes = includes
        self.excludes = excludes
    }
}
