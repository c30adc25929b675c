/// A settings entry (`{"include": …}` with optional `context`, `file_root`, `env`, `request`,
/// `response`), as written in a settings file or mixed into a `-c` file.
struct SettingsEntry {
    var index: Int
    var include: String
    var includeOffset: Int
    var context: String?
    var fileRoot: String?
    var env: String?
    var request: RequestPattern?
    var response: ResponseDefinition?
}

/// An object's members once checked: lookups find the first member with a key (a repeated
/// or unknown key has been reported and is never asked for). Objects in a stub file have a
/// handful of keys, so a scan of the parsed members beats building a dictionary for each of
/// 10,000 sessions.
struct Fields {
    let members: [JSONNode.Member]
    /// How many distinct accepted keys the object has.
    let count: Int

    subscript(key: String) -> JSONNode? {
        // Comparing lengths first skips most of the (Unicode-aware) string comparisons.
        for member in members where member.key.utf8.count == key.utf8.count && member.key == key { return member.value }
        return nil
    }
}

/// Decodes one configuration file's JSON into sessions and settings entries, collecting every
/// problem with its JSON path and position instead of stopping at the first.
struct StubDecoder {
    let file: String
    let bytes: [UInt8]
    private(set) var diagnostics: [ConfigDiagnostic] = []
    /// moco trims text values in files; sessions posted to the admin API (usually written by
    /// `StubDefinition.mocoJSON`) keep them exactly, so `.startsWith("Bearer ")` stays as built.
    var trimsText = true

    init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// A file's sessions, ready to compile, and its settings entries, each with the number of
    /// sessions written before it (so the loader can keep file order across includes).
    struct Decoded {
        var sessions: [StubDefinition] = []
        var settings: [(sessionsBefore: Int, entry: SettingsEntry)] = []
    }

    static let sessionKeys = [
        "request", "response", "redirectTo", "description", "mount", "resource", "websocket", "proxy", "on", "scenario",
    ]
    static let sessionSuggestions = sessionKeys + ["include", "file_root", "context"]
    /// Keys that make an entry a settings entry rather than a session.
    static let settingsOnlyKeys = ["include", "context", "file_root", "env"]
    static let settingsKeys = ["include", "context", "file_root", "env", "request", "response"]
    static let unsupportedSessionKeys: [String: String] = [:]
    static let requestKeys = [
        "uri", "method", "version", "headers", "queries", "cookies", "forms", "text", "file", "json", "json_paths", "struct", "xpaths",
    ]
    static let unsupportedRequestKeys: [String: String] = [
        "path_resource": "path_resource (Java classpath) has no meaning here; use file"
    ]
    static let responseKeys =
        [
            "text", "file", "json", "status", "headers", "cookies", "version", "latency", "attachment", "seq", "cycle", "cors", "proxy",
            "record", "replay",
        ]
        + liveResponseKeys
    static let unsupportedResponseKeys: [String: String] = [
        "path_resource": "path_resource (Java classpath) has no meaning here; use file"
    ]
    static let operators = ["match", "startsWith", "endsWith", "contain", "exist", "path"]

    // MARK: - Diagnostics

    mutating func report(_ path: String, _ message: String, at offset: Int?) {
        let position = offset.map { SourcePosition.locate(offset: $0, in: bytes) }
        diagnostics.append(ConfigDiagnostic(file: file, path: path, message: message, position: position))
    }

    mutating func expected(_ what: String, at path: String, got node: JSONNode) {
        report(path, "expected \(what), got \(node.shortDescription)", at: node.offset)
    }

    /// The members of an object, checking for unknown and repeated keys.
    mutating func members(
        _ node: JSONNode, at path: String, allowed: [String], unsupported: [String: String] = [:], what: String = "an object",
        suggest: [String]? = nil
    ) -> Fields? {
        guard let list = node.members else {
            expected(what, at: path, got: node)
            return nil
        }
        var accepted = 0
        for (offset, member) in list.enumerated() {
            func memberPath() -> String { path + JSONPathText.key(member.key) }
            if list[..<offset].contains(where: { $0.key == member.key }) {
                report(memberPath(), "repeated key; only one \(quoted(member.key)) is allowed here", at: member.keyOffset)
                continue
            }
            guard allowed.contains(where: { $0.utf8.count == member.key.utf8.count && $0 == member.key }) else {
                if let reason = unsupported[member.key] {
                    report(memberPath(), reason, at: member.keyOffset)
                    continue
                }
                let candidates = suggest ?? allowed
                let hint =
                    Suggestion.closest(to: member.key, among: candidates) == nil
                    ? "; expected one of \(allowed.joined(separator: ", "))"
                    : Suggestion.didYouMean(member.key, among: candidates)
                report(memberPath(), "unknown key" + hint, at: member.keyOffset)
                continue
            }
            accepted += 1
        }
        return Fields(members: list, count: accepted)
    }

    /// The member `key` of the object `node` (its `fields`), or nil after reporting
    /// `expected "key" (meaning)` at `path`.
    mutating func required(_ key: String, in fields: Fields, of node: JSONNode, at path: String, meaning: String) -> JSONNode? {
        guard let value = fields[key] else {
            report(path, "expected \(quoted(key)) (\(meaning))", at: node.offset)
            return nil
        }
        return value
    }

    // MARK: - Scalars

    /// A string, trimmed as moco trims its text containers.
    mutating func string(_ node: JSONNode, at path: String, trim: Bool = true) -> String? {
        guard let text = node.stringValue else {
            expected("a string", at: path, got: node)
            return nil
        }
        return trim ? text.trimmedAsMoco(trimsText) : text
    }

    /// A string; numbers and booleans are accepted as their text (`"page": 2`).
    mutating func scalarText(_ node: JSONNode, at path: String) -> String? {
        switch node.kind {
        case .string(let text): return text.trimmedAsMoco(trimsText)
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        default:
            expected("a string", at: path, got: node)
            return nil
        }
    }

    mutating func boolean(_ node: JSONNode, at path: String) -> Bool? {
        switch node.kind {
        case .bool(let flag): return flag
        case .string(let text):
            switch text.trimmingASCIIWhitespace().lowercased() {
            case "true": return true
            case "false": return false
            default: break
            }
        default: break
        }
        expected("true or false", at: path, got: node)
        return nil
    }
}

extension String {
    func trimmedAsMoco(_ trims: Bool) -> String { trims ? trimmingASCIIWhitespace() : self }
}
