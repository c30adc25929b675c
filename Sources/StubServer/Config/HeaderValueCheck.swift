/// Refuses CR, LF and NUL in everything that becomes a response or event header — `headers`,
/// `cookies` (values, templates, path, domain), `cors` values, `redirectTo` — wherever it is
/// written: a session, a settings entry, a websocket or `on.complete` action, the admin API.
/// A CR LF inside a value would end the header and start one of the attacker's (response
/// splitting); a NUL is sent raw by nothing that should. Checked on the parsed JSON, so each
/// problem names its JSON path and line; commas (CORS lists) are fine. Header names are held
/// to the same rule. Request matchers and bodies are not headers and are left alone.
///
/// ```swift
/// HeaderValueCheck.diagnostics(in: root, file: "stubs.json", bytes: bytes)
/// // [stubs.json: [0].response.cors.allowOrigin: a header value cannot contain CR … (line 1, column 40)]
/// ```
enum HeaderValueCheck {
    /// Keys whose whole subtree is header text.
    static let headerKeys: Set<String> = ["headers", "cookies", "cors"]
    /// Keys whose string value is one header value.
    static let headerValueKeys: Set<String> = ["redirectTo"]
    /// Subtrees that are matchers or bodies, not headers.
    static let skippedKeys: Set<String> = ["request", "json", "text", "content", "struct", "json_paths", "xpaths", "queries", "forms"]

    /// Every CR, LF or NUL in header text under `root`, as diagnostics at `prefix`-relative paths.
    /// Paths that already have a diagnostic in `besides` (the decoder's own line-break check
    /// of `headers`) are not reported twice.
    static func diagnostics(in root: JSONNode, file: String, bytes: [UInt8], prefix: String = "", besides: [ConfigDiagnostic] = [])
        -> [ConfigDiagnostic]
    {
        var found: [(path: String, offset: Int, message: String)] = []
        var walker = Walker(prefix: prefix)
        walker.walk(root, inHeaders: false, into: &found)
        guard !found.isEmpty else { return [] }
        let reported = Set(besides.map(\.path))
        return found.filter { !reported.contains($0.path) }.map {
            ConfigDiagnostic(file: file, path: $0.path, message: $0.message, position: SourcePosition.locate(offset: $0.offset, in: bytes))
        }
    }

    /// Walks the JSON keeping the path as a list of steps, spelled out only for a problem:
    /// 10,000 sessions' members are visited at every load, and building each one's path text
    /// cost more than the check itself.
    private struct Walker {
        enum Step {
            case key(String)
            case index(Int)
        }

        let prefix: String
        var steps: [Step] = []

        var path: String {
            var text = prefix
            for step in steps {
                switch step {
                case .key(let key): text += JSONPathText.key(key)
                case .index(let index): text += JSONPathText.index(index)
                }
            }
            return text
        }

        mutating func walk(_ node: JSONNode, inHeaders: Bool, into found: inout [(path: String, offset: Int, message: String)]) {
            switch node.kind {
            case .string(let text):
                if inHeaders, let problem = HeaderValueCheck.problem(in: text) {
                    found.append((path, node.offset, HeaderValueCheck.valueMessage(problem)))
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    steps.append(.index(index))
                    walk(element, inHeaders: inHeaders, into: &found)
                    steps.removeLast()
                }
            case .object(let members):
                for member in members {
                    if !inHeaders && HeaderValueCheck.skippedKeys.contains(member.key) { continue }
                    steps.append(.key(member.key))
                    defer { steps.removeLast() }
                    let entering = inHeaders || HeaderValueCheck.headerKeys.contains(member.key)
                    if inHeaders, let problem = HeaderValueCheck.problem(in: member.key) {
                        found.append((path, member.keyOffset, "a header or cookie name cannot contain \(problem)"))
                    }
                    walk(
                        member.value, inHeaders: entering || (!inHeaders && HeaderValueCheck.headerValueKeys.contains(member.key)),
                        into: &found)
                }
            case .null, .bool, .number:
                break
            }
        }
    }

    /// The one wording, so the compiler's own check of literal values (which also covers stubs
    /// built in Swift) and this one read the same and a loader reports the problem once.
    static func valueMessage(_ problem: String) -> String {
        "a header value cannot contain \(problem) (it would split the response head)"
    }

    /// `a CR`, `an LF`, `a NUL byte`, or nil.
    static func problem(in text: String) -> String? {
        for byte in text.utf8 {
            switch byte {
            case 13: return "a CR (\\r)"
            case 10: return "an LF (\\n)"
            case 0: return "a NUL byte"
            default: continue
            }
        }
        return nil
    }
}
