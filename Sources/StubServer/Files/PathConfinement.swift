/// The folders a stub may read and write files in, and the one check every path the server
/// opens by name goes through: `mount.dir`, `record`/`replay` tapes, `failover`/`playback`
/// files — whether the name comes from a configuration, settings or the admin API (stubs built
/// in Swift are the program's own and are not confined). The roots
/// are the configuration's folder (or its `file_root`) and the working directory the server
/// started from (moco resolves relative names there). A path outside them — absolute, climbing
/// with `..`, or leaving through a symlink — is refused: a load error naming the JSON path, or a
/// 400 from the admin API. (`file` responses and templated names are opened by `ConfinedFiles`,
/// which walks the same roots one component at a time, race-free.)
///
/// ```swift
/// let confinement = PathConfinement(roots: ["/srv/stubs", "/home/me/project"])
/// confinement.confine("tapes/login.json", relativeTo: "/srv/stubs")   // .success("/srv/stubs/tapes/login.json")
/// confinement.confine("../../etc/passwd", relativeTo: "/srv/stubs")   // .failure(…outside…)
/// ```
struct PathConfinement: Sendable, Equatable {
    /// Absolute, lexically normalized, without duplicates, in the order given.
    let roots: [String]

    init(roots: [String?]) {
        var seen: [String] = []
        for case let root? in roots {
            let normalized = "/" + ConfinedFiles.normalizedComponents(root).joined(separator: "/")
            if !seen.contains(normalized) { seen.append(normalized) }
        }
        self.roots = seen
    }

    /// A stub's roots: its file root, the folder moco's working-directory rule looks in, and
    /// the server's working directory. Nil for stubs built in Swift (no working directory in
    /// their scope): their paths are the program's own, as trusted as the code that names them.
    init?(scope: StubScope) {
        guard let workingDirectory = scope.workingDirectory else { return nil }
        self.init(roots: [scope.fileRoot, scope.fallbackRoot, workingDirectory])
    }

    /// `name` (relative to `base`) as an absolute, lexically normalized path, confined when
    /// `confinement` is given.
    static func resolve(_ name: String, relativeTo base: String, in confinement: PathConfinement?) -> Result<String, Failure> {
        if let confinement { return confinement.confine(name, relativeTo: base) }
        return .success("/" + ConfinedFiles.normalizedComponents(name.hasPrefix("/") ? name : base + "/" + name).joined(separator: "/"))
    }

    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The absolute path `name` names (a relative one is taken from `base`), when it lies
    /// inside a root, both as written and with the symlinks of its existing part resolved.
    /// The file itself need not exist (tapes are created on the first recording).
    func confine(_ name: String, relativeTo base: String) -> Result<String, Failure> {
        guard !name.isEmpty else { return .failure(Failure(message: "expected a file name")) }
        guard !name.utf8.contains(0) else { return .failure(Failure(message: "\(quoted(name)) contains a NUL byte")) }
        let components = ConfinedFiles.normalizedComponents(name.hasPrefix("/") ? name : base + "/" + name)
        let path = "/" + components.joined(separator: "/")
        let lexicalRoots = roots.map(ConfinedFiles.normalizedComponents)
        let realRoots = roots.compactMap(ConfinedFiles.realPath).map(ConfinedFiles.normalizedComponents)
        let containing = (lexicalRoots + realRoots).filter { components.starts(with: $0) }
        guard let shortestRoot = containing.map(\.count).min() else {
            return .failure(
                Failure(message: "\(quoted(name)) is outside the folders files may be in (\(rootList)); name a path inside them"))
        }
        // The deepest part that exists, symlinks resolved, must still be inside a root. (When
        // not even the root exists there is nothing below it a symlink could hide in.)
        var existing = components
        while existing.count >= shortestRoot && !existing.isEmpty {
            if let real = ConfinedFiles.realPath("/" + existing.joined(separator: "/")) {
                let resolved = ConfinedFiles.normalizedComponents(real)
                guard realRoots.contains(where: { resolved.starts(with: $0) }) else {
                    return .failure(
                        Failure(
                            message:
                                "\(quoted(name)) resolves through a symlink to \(quoted(real)), outside the folders files may be in (\(rootList))"
                        ))
                }
                break
            }
            existing.removeLast()
        }
        return .success(path)
    }

    private var rootList: String { roots.map(quoted).joined(separator: ", ") }
}

extension StubScope {
    /// The scope of stubs from a configuration or the admin API, whose paths are confined
    /// (see `PathConfinement`).
    init(confinedTo fileRoot: String, fallbackRoot: String? = nil, workingDirectory: String) {
        self.init(fileRoot: fileRoot, fallbackRoot: fallbackRoot)
        self.workingDirectory = workingDirectory
    }
}
