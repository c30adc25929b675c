/// A compiled `mount`: which request paths it serves and the file behind each. The matcher
/// (`serves`: is there a file?) and the body (`read`) reach the file system only through
/// `ConfinedFiles`, always confined to `root`.
final class MountPoint: Sendable {
    /// `/static/` (with the settings context in front): the prefix the served paths start with.
    let prefix: String
    /// The directory, absolute.
    let root: String
    private let includes: [GlobPattern]
    private let excludes: [GlobPattern]

    init(prefix: String, root: String, includes: [GlobPattern], excludes: [GlobPattern]) {
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.root = root
        self.includes = includes
        self.excludes = excludes
    }

    /// The path below the prefix when it is safe and passes the globs: no empty, `.` or `..`
    /// segment (already percent-decoded, so `%2e%2e` and `..%2f` are caught here), no NUL,
    /// no backslash.
    func relativePath(_ path: String) -> String? {
        guard path.hasPrefix(prefix), path.utf8.count > prefix.utf8.count else { return nil }
        let relative = String(path.dropFirst(prefix.count))
        for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." || segment == ".." { return nil }
        }
        if relative.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "\\") }) { return nil }
        if !includes.isEmpty, !includes.contains(where: { $0.matches(relative) }) { return nil }
        if excludes.contains(where: { $0.matches(relative) }) { return nil }
        return relative
    }

    /// A regular file exists for `path` inside the root (symlinks resolved and confined).
    func serves(_ path: String) -> Bool {
        guard let relative = relativePath(path) else { return false }
        if case .success = file(at: relative) { return true }
        return false
    }

    /// The bytes and content type for a request path `serves` accepted.
    func read(_ path: String) throws(ResponseFailure) -> (bytes: [UInt8], contentType: String) {
        guard let relative = relativePath(path) else { throw ResponseFailure(message: "\(quoted(path)) is not below \(quoted(prefix))") }
        switch ConfinedFiles.read(relative, root: root, fallback: nil) {
        case .success(let bytes): return (bytes, ContentTypes.forFile(named: relative, charset: nil))
        case .failure(let failure): throw ResponseFailure(message: failure.message)
        }
    }

    /// Whether a regular file is there, confined to the root. With `read` above, the only two
    /// places mount touches the file system (both through `ConfinedFiles`, to switch together).
    private func file(at relative: String) -> Result<String, ConfinedFiles.Failure> {
        switch ConfinedFiles.resolve(relative, root: root) {
        case .failure(let failure): return .failure(failure)
        case .success(let resolved):
            guard ConfinedFiles.isRegularFile(resolved) else {
                return .failure(ConfinedFiles.Failure(message: "\(quoted(relative)) is not a regular file", isNotFound: true))
            }
            return .success(resolved)
        }
    }
}
