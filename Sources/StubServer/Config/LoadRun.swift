import Foundation

/// One load: walks the files, collecting stubs, watched files and diagnostics.
struct LoadRun {
    let workingDirectory: String
    let environment: String?
    var stubs: [StubDefinition] = []
    var watched: [String] = []
    var diagnostics: [ConfigDiagnostic] = []
    var warnings: [ConfigDiagnostic] = []
    /// Every `env` a settings entry names, to tell a mistyped `-e` from an empty selection.
    private var environmentsSeen: [String] = []
    private var environmentFile: String?
    /// Files loaded with the settings they were loaded under: the same file under the same
    /// settings is loaded once (with a warning), under another context it is new sessions.
    private var loadedIncludes: [IncludeKey: String] = [:]
    /// Per file: its bytes, to place compile problems. The parsed document is dropped after
    /// decoding (10,000 sessions' worth of nodes) and parsed again only to place a problem.
    private var sources: [String: [UInt8]] = [:]
    private var reparsed: [String: JSONNode] = [:]
    private var fileOrder: [String] = []
    /// How often each file was loaded: a file included twice names its second copy's stubs
    /// `file(2)#i`, so no two stubs share a name.
    private var loadCounts: [String: Int] = [:]
    /// Scenario states and the reserved admin prefix for the router `finish` builds.
    var routerOptions = RouterOptions()

    static let maximumIncludeDepth = 32
    static let maximumLoads = 5_000
    private var loads = 0

    struct IncludeKey: Hashable {
        var file: String
        var context: String
        var fileRoot: String?
        var requests: [RequestPattern]
        var responses: [ResponseDefinition]
    }

    struct Inherited {
        var context = ""
        /// An explicit `file_root` (absolute), inherited by nested includes.
        var fileRoot: String?
        var requests: [RequestPattern] = []
        var responses: [ResponseDefinition] = []
    }

    /// Where an include was written, to report problems with it there.
    struct Origin {
        var file: String
        var path: String
        var offset: Int
    }

    init(workingDirectory: String, environment: String?) {
        let absolute =
            workingDirectory.hasPrefix("/")
            ? workingDirectory : FileManager.default.currentDirectoryPath + "/" + workingDirectory
        self.workingDirectory = "/" + ConfinedFiles.normalizedComponents(absolute).joined(separator: "/")
        self.environment = environment
    }

    func displayName(_ absolute: String) -> String {
        if absolute == workingDirectory { return "." }
        let prefix = workingDirectory == "/" ? "/" : workingDirectory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    func absolute(_ path: String, relativeTo directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        return "/" + ConfinedFiles.normalizedComponents(joined).joined(separator: "/")
    }

    static func directory(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/"), slash != file.startIndex else { return "/" }
        return String(file[..<slash])
    }

    mutating func loadTopLevel(_ path: String, option: String) {
        let trimmed = path.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else {
            diagnostics.append(ConfigDiagnostic(file: option, path: "", message: "expected a configuration file name"))
            return
        }
        if option == "-g" { environmentFile = displayName(absolute(trimmed, relativeTo: workingDirectory)) }
        if PathGlob.hasWildcards(trimmed) {
            let files: [String]
            do throws(PathGlob.Failure) {
                files = try PathGlob.expand(trimmed, relativeTo: workingDirectory)
            } catch {
                diagnostics.append(ConfigDiagnostic(file: option + " " + trimmed, path: "", message: error.description))
                return
            }
            if files.isEmpty {
                diagnostics.append(
                    ConfigDiagnostic(file: trimmed, path: "", message: "no file matches this pattern (relative to \(workingDirectory))"))
            }
            for file in files { load(file, inherited: Inherited(), chain: [], origin: nil) }
        } else {
            load(absolute(trimmed, relativeTo: workingDirectory), inherited: Inherited(), chain: [], origin: nil)
        }
    }

    private mutating func report(_ origin: Origin?, file: String, _ message: String) {
        if let origin {
            let position = sources[origin.file].map { SourcePosition.locate(offset: origin.offset, in: $0) }
            diagnostics.append(ConfigDiagnostic(file: origin.file, path: origin.path, message: message, position: position))
        } else {
            diagnostics.append(ConfigDiagnostic(file: file, path: "", message: message))
        }
    }

    private mutating func load(_ file: String, inherited: Inherited, chain: [String], origin: Origin?) {
        var name = displayName(file)
        let key = IncludeKey(
            file: ConfinedFiles.realPath(file) ?? file, context: inherited.context, fileRoot: inherited.fileRoot,
            requests: inherited.requests,
            responses: inherited.responses)
        if let first = loadedIncludes[key] {
            let warning = "\(quoted(name)) is already loaded (by \(first)) with the same settings; it is loaded once"
            if let origin {
                warnings.append(
                    ConfigDiagnostic(
                        file: origin.file, path: origin.path, message: warning,
                        position: sources[origin.file].map { SourcePosition.locate(offset: origin.offset, in: $0) }))
            } else {
                warnings.append(ConfigDiagnostic(file: name, path: "", message: warning))
            }
            return
        }
        loadedIncludes[key] = origin.map { "\($0.file) \($0.path)" } ?? "the command line"
        // Includes under different contexts are loaded again, so a chain of files that each
        // include the next twice would grow exponentially: bound the total.
        loads += 1
        guard loads <= Self.maximumLoads else {
            if loads == Self.maximumLoads + 1 {
                report(
                    origin, file: name,
                    "more than \(Self.maximumLoads) files loaded (includes that multiply, e.g. each file including the next under two contexts)"
                )
            }
            return
        }
        // Read as every parsed file is: non-blocking, regular files only, size from fstat
        // before a byte is read (a 10 GB sparse include is refused at once).
        let bytes: [UInt8]
        do throws(RegularFile.Failure) {
            bytes = try RegularFile.read(file, cap: RegularFile.configCap, kind: "configuration")
        } catch {
            var message: String
            if error.isNotFound {
                message = "cannot read \(quoted(name)): no such file"
                if origin == nil {
                    // A top-level file: say where it was looked for, since a relative path depends on
                    // the working directory (`swift test` from another folder, Xcode).
                    message += " (looked for \(file); working directory \(workingDirectory))"
                }
            } else if Self.isDirectory(file) {
                message = "cannot read \(quoted(name)): it is a directory"
            } else {
                message = "cannot read \(quoted(name)): " + error.message
            }
            report(origin, file: name, message)
            return
        }
        if !watched.contains(file) { watched.append(file) }
        let occurrence = loadCounts[file, default: 0] + 1
        loadCounts[file] = occurrence
        if occurrence > 1 { name += "(\(occurrence))" }
        let root: JSONNode
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(bytes)
        } catch {
            diagnostics.append(
                ConfigDiagnostic(file: name, path: "", message: "malformed JSON: \(error.message)", position: error.position))
            return
        }
        let directory = Self.directory(of: file)
        var scope = StubScope(
            context: inherited.context,
            fileRoot: inherited.fileRoot ?? directory,
            fallbackRoot: inherited.fileRoot == nil ? workingDirectory : nil,
            requests: inherited.requests,
            responses: inherited.responses)
        scope.workingDirectory = workingDirectory
        var decoder = StubDecoder(file: name, bytes: bytes)
        let decoded = decoder.decodeFile(root, scope: scope)
        diagnostics += decoder.diagnostics
        diagnostics += HeaderValueCheck.diagnostics(in: root, file: name, bytes: bytes, besides: decoder.diagnostics)
        if sources[name] == nil { fileOrder.append(name) }
        sources[name] = bytes

        // Sessions in file order, each settings entry's includes where the entry was written.
        var next = 0
        for (sessionsBefore, settings) in decoded.settings {
            for session in decoded.sessions[next..<sessionsBefore] {
                if let matcher = session.request?.file { watchRequestFile(matcher.path, scope: scope) }
            }
            stubs += decoded.sessions[next..<sessionsBefore]
            next = sessionsBefore
            if let env = settings.env, !environmentsSeen.contains(env.lowercased()) { environmentsSeen.append(env.lowercased()) }
            if let environment {
                guard let env = settings.env, env.lowercased() == environment.lowercased() else { continue }
            }
            loadSettings(
                settings, file: name, directory: directory, inherited: inherited, chain: chain + [ConfinedFiles.realPath(file) ?? file])
        }
        for session in decoded.sessions[next...] {
            if let matcher = session.request?.file { watchRequestFile(matcher.path, scope: scope) }
        }
        if next == 0 && stubs.isEmpty {
            stubs = decoded.sessions // the common single-file case: no copy
        } else {
            stubs += decoded.sessions[next...]
        }
    }

    private mutating func loadSettings(_ settings: SettingsEntry, file: String, directory: String, inherited: Inherited, chain: [String]) {
        let path = "[\(settings.index)]"
        var child = inherited
        if let context = settings.context {
            child.context = StubCompiler.join(inherited.context, StubCompiler.normalizedContext(context))
        }
        if let fileRoot = settings.fileRoot {
            let here = absolute(fileRoot, relativeTo: directory)
            let there = absolute(fileRoot, relativeTo: workingDirectory)
            if Self.isDirectory(here) {
                child.fileRoot = here
            } else if Self.isDirectory(there) {
                child.fileRoot = there
            } else {
                report(
                    Origin(file: file, path: path + ".file_root", offset: document(file)?.offset(atPath: path + ".file_root") ?? 0),
                    file: file,
                    "no directory \(quoted(fileRoot)) (looked in \(displayName(directory)) and the working directory)")
                return
            }
        }
        // Check the entry's own request/response once, here, where they were written.
        if settings.request != nil || settings.response != nil {
            var problems: [StubCompileProblem] = []
            let probe = StubDefinition(
                request: settings.request ?? RequestPattern(), response: settings.response ?? ResponseDefinition(), redirectTo: nil,
                description: nil,
                scope: StubScope(
                    confinedTo: child.fileRoot ?? directory, fallbackRoot: workingDirectory, workingDirectory: workingDirectory),
                reference: nil)
            _ = StubCompiler.compile(probe, reference: StubReference(file: file, index: settings.index), problems: &problems)
            for problem in problems {
                let fullPath = path + problem.path
                diagnostics.append(
                    ConfigDiagnostic(file: file, path: fullPath, message: problem.message, position: position(file: file, path: fullPath)))
            }
            if !problems.isEmpty { return }
            if let request = settings.request { child.requests.append(request) }
            if let response = settings.response { child.responses.append(response) }
        }
        guard chain.count < Self.maximumIncludeDepth else {
            report(
                Origin(file: file, path: path + ".include", offset: settings.includeOffset), file: file,
                "includes are nested more than \(Self.maximumIncludeDepth) deep")
            return
        }
        let base = child.fileRoot ?? directory
        let origin = Origin(file: file, path: path + ".include", offset: settings.includeOffset)
        if PathGlob.hasWildcards(settings.include) {
            var files: [String]
            do throws(PathGlob.Failure) {
                files = try PathGlob.expand(settings.include, relativeTo: base)
                if files.isEmpty, child.fileRoot == nil, base != workingDirectory {
                    files = try PathGlob.expand(settings.include, relativeTo: workingDirectory)
                }
            } catch {
                report(origin, file: file, "\(quoted(settings.include)): \(error.description)")
                return
            }
            if files.isEmpty {
                report(origin, file: file, "no file matches \(quoted(settings.include))")
            }
            for included in files {
                // A glob may match the including file itself (`*.json` next to settings.json): skip it.
                if chain.contains(ConfinedFiles.realPath(included) ?? included) { continue }
                load(included, inherited: child, chain: chain, origin: origin)
            }
        } else {
            var included = absolute(settings.include, relativeTo: base)
            if !FileManager.default.fileExists(atPath: included), child.fileRoot == nil {
                let fallback = absolute(settings.include, relativeTo: workingDirectory)
                if FileManager.default.fileExists(atPath: fallback) { included = fallback }
            }
            if chain.contains(ConfinedFiles.realPath(included) ?? included) {
                report(origin, file: file, "\(quoted(settings.include)) includes a file that is already being loaded (an include cycle)")
                return
            }
            guard FileManager.default.fileExists(atPath: included) else {
                let places =
                    child.fileRoot == nil && base != workingDirectory
                    ? "looked in \(displayName(base)) and the working directory" : "looked in \(displayName(base))"
                report(origin, file: file, "cannot read \(quoted(settings.include)): no such file (\(places))")
                return
            }
            load(included, inherited: child, chain: chain, origin: origin)
        }
    }

    private mutating func watchRequestFile(_ name: String, scope: StubScope) {
        if case .success(let path) = ConfinedFiles.locate(name, root: scope.fileRoot, fallback: scope.fallbackRoot), !watched.contains(path)
        {
            watched.append(path)
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    /// The position of the value at `path` (or of its nearest parent in the file).
    mutating func position(file: String, path: String) -> SourcePosition? {
        guard !path.isEmpty, let bytes = sources[file], let offset = document(file)?.offset(atPath: path) else { return nil }
        return SourcePosition.locate(offset: offset, in: bytes)
    }

    /// The parsed document of a file that was loaded, parsed again on first use.
    private mutating func document(_ file: String) -> JSONNode? {
        if let root = reparsed[file] { return root }
        guard let bytes = sources[file], let root = try? JSONParser.parse(bytes) else { return nil }
        reparsed[file] = root
        return root
    }

    func sortedDiagnostics() -> [ConfigDiagnostic] {
        let rank = Dictionary(uniqueKeysWithValues: fileOrder.enumerated().map { ($1, $0) })
        return diagnostics.enumerated().sorted { left, right in
            let l = left.element
            let r = right.element
            let lf = rank[l.file] ?? -1
            let rf = rank[r.file] ?? -1
            if lf != rf { return lf < rf }
            let lp = l.position.map { ($0.line, $0.column) } ?? (0, 0)
            let rp = r.position.map { ($0.line, $0.column) } ?? (0, 0)
            if lp != rp { return lp < rp }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Compiles what was loaded; throws every problem found, decoding and compiling.
    mutating func finish() throws -> LoadedConfig {
        if let environment, !environmentsSeen.contains(environment.lowercased()) {
            let known = environmentsSeen.isEmpty ? "no entry has an env" : "envs: " + environmentsSeen.joined(separator: ", ")
            diagnostics.append(
                ConfigDiagnostic(
                    file: environmentFile ?? "-e", path: "",
                    message:
                        "-e \(quoted(environment)): no settings entry has this env\(Suggestion.didYouMean(environment.lowercased(), among: environmentsSeen)) (\(known))"
                ))
        }
        checkFiles()
        var router: Router?
        do {
            router = try Router(stubs: stubs, options: routerOptions)
        } catch let error as ConfigError {
            for diagnostic in error.diagnostics {
                var placed = diagnostic
                placed.position = placed.position ?? position(file: diagnostic.file, path: diagnostic.path)
                // Header text is checked on the JSON (`HeaderValueCheck`) and again when compiled:
                // the same problem is reported once.
                if diagnostics.contains(where: { $0.file == placed.file && $0.path == placed.path && $0.message == placed.message }) {
                    continue
                }
                diagnostics.append(placed)
            }
        }
        guard diagnostics.isEmpty, let router else { throw ConfigError(sortedDiagnostics()) }
        for index in warnings.indices where warnings[index].position == nil {
            warnings[index].position = position(file: warnings[index].file, path: warnings[index].path)
        }
        return LoadedConfig(router: router, watchedFiles: watched, warnings: warnings, sessionCount: stubs.count)
    }
}
