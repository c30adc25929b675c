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

    static let sessionKeys = ["request", "response", "redirectTo", "description", "mount", "resource", "websocket", "proxy", "on", "scenario"]
    static let sessionSuggestions = sessionKeys + ["include", "file_root", "context"]
    /// Keys that make an entry a settings entry rather than a session.
    static let settingsOnlyKeys = ["include", "context", "file_root", "env"]
    static let settingsKeys = ["include", "context", "file_root", "env", "request", "response"]
    static let unsupportedSessionKeys: [String: String] = [:]
    static let requestKeys = ["uri", "method", "version", "headers", "queries", "cookies", "forms", "text", "file", "json", "json_paths", "struct", "xpaths"]
    static let unsupportedRequestKeys: [String: String] = [
        "path_resource": "path_resource (Java classpath) has no meaning here; use file",
    ]
    static let responseKeys = ["text", "file", "json", "status", "headers", "cookies", "version", "latency", "attachment", "seq", "cycle", "cors", "proxy", "record", "replay"]
        + liveResponseKeys
    static let unsupportedResponseKeys: [String: String] = [
        "path_resource": "path_resource (Java classpath) has no meaning here; use file",
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
                let hint = Suggestion.closest(to: member.key, among: candidates) == nil
                    ? "; expected one of \(allowed.joined(separator: ", "))"
                    : Suggestion.didYouMean(member.key, among: candidates)
                report(memberPath(), "unknown key" + hint, at: member.keyOffset)
                continue
            }
            accepted += 1
        }
        return Fields(members: list, count: accepted)
    }

    // MARK: - File

    /// Decodes a file whose sessions all get `scope`.
    mutating func decodeFile(_ root: JSONNode, scope: StubScope) -> Decoded {
        guard let elements = root.elements else {
            if root.members != nil {
                report("", "expected an array of sessions like [{\"request\": …, \"response\": …}], got an object; wrap it in [ … ]", at: root.offset)
            } else {
                expected("an array of sessions", at: "", got: root)
            }
            return Decoded()
        }
        var decoded = Decoded()
        decoded.sessions.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path = "[\(index)]"
            guard let list = element.members else {
                expected("an object (a session or a settings entry)", at: path, got: element)
                continue
            }
            if list.contains(where: { Self.settingsOnlyKeys.contains($0.key) }) {
                if let entry = decodeSettings(element, index: index, at: path) { decoded.settings.append((decoded.sessions.count, entry)) }
            } else if let session = decodeSession(element, index: index, scope: scope, at: path) {
                decoded.sessions.append(session)
            }
        }
        return decoded
    }

    private mutating func decodeSettings(_ node: JSONNode, index: Int, at path: String) -> SettingsEntry? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: Self.settingsKeys, unsupported: Self.unsupportedSessionKeys) else { return nil }
        guard let includeNode = fields["include"] else {
            report(path, "a settings entry needs \"include\" (the file or glob its context, file_root, env, request and response apply to)", at: node.offset)
            return nil
        }
        let include = string(includeNode, at: path + ".include")
        if let include, include.isEmpty { report(path + ".include", "expected a file name or glob, got an empty string", at: includeNode.offset) }
        let context = fields["context"].flatMap { string($0, at: path + ".context") }
        let fileRoot = fields["file_root"].flatMap { string($0, at: path + ".file_root") }
        let env = fields["env"].flatMap { string($0, at: path + ".env") }
        let request = fields["request"].flatMap { decodeRequest($0, at: path + ".request") }
        let response = fields["response"].flatMap { decodeResponse($0, at: path + ".response") }
        guard diagnostics.count == before, let include else { return nil }
        return SettingsEntry(
            index: index, include: include, includeOffset: includeNode.offset, context: context, fileRoot: fileRoot, env: env,
            request: request, response: response)
    }

    private mutating func decodeSession(
        _ node: JSONNode, index: Int, scope: StubScope, at path: String
    ) -> StubDefinition? {
        let before = diagnostics.count
        guard let fields = members(
            node, at: path, allowed: Self.sessionKeys, unsupported: Self.unsupportedSessionKeys,
            suggest: Self.sessionSuggestions) else { return nil }
        if fields["mount"] != nil || fields["resource"] != nil {
            return decodeServingSession(fields, node: node, index: index, scope: scope, at: path, before: before)
        }
        if let websocket = fields["websocket"] {
            return decodeWebSocketSession(websocket, fields: fields, node: node, index: index, scope: scope, at: path)
        }
        let request = fields["request"].flatMap { decodeRequest($0, at: path + ".request") }
        let response = fields["response"].flatMap { decodeResponse($0, at: path + ".response") }
        let redirectTo = fields["redirectTo"].flatMap { textValue($0, at: path + ".redirectTo") }
        let description = fields["description"].flatMap { string($0, at: path + ".description", trim: false) }
        let onComplete = fields["on"].flatMap { eventSettings($0, at: path + ".on") }
        if let proxy = fields["proxy"] {
            return proxySession(proxy, fields: fields, node: node, index: index, scope: scope, description: description, onComplete: onComplete, before: before, at: path)
        }
        if fields["response"] != nil && fields["redirectTo"] != nil {
            report(path, "a session has either \"response\" or \"redirectTo\", not both", at: node.offset)
        } else if fields["response"] == nil && fields["redirectTo"] == nil && diagnostics.count == before {
            report(path, "a session needs \"response\" (or \"request\" with \"redirectTo\")", at: node.offset)
        } else if fields["redirectTo"] != nil && fields["request"] == nil {
            report(path + ".redirectTo", "redirectTo needs a \"request\" to match", at: fields["redirectTo"]?.offset)
        }
        let scenario = fields["scenario"].flatMap { decodeScenario($0, at: path + ".scenario") }
        guard diagnostics.count == before else { return nil }
        var session = StubDefinition(
            request: request, response: response, redirectTo: redirectTo, description: description, scope: scope,
            reference: StubReference(file: file, index: index))
        session.onComplete = onComplete
        session.scenario = scenario
        return session
    }

    /// `"scenario": {"name": "cart", "requires": "Started", "next": "HasItem"}` (a Rehearsal
    /// extension, WireMock's stateful scenarios).
    private mutating func decodeScenario(_ node: JSONNode, at path: String) -> StubScenario? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: ["name", "requires", "next"]) else { return nil }
        guard let nameNode = fields["name"] else {
            report(path, "a scenario needs \"name\" (and \"requires\" and/or \"next\")", at: node.offset)
            return nil
        }
        let name = string(nameNode, at: path + ".name")
        if let name, name.isEmpty { report(path + ".name", "expected a scenario name, got an empty string", at: nameNode.offset) }
        let requires = fields["requires"].flatMap { string($0, at: path + ".requires") }
        let next = fields["next"].flatMap { string($0, at: path + ".next") }
        if fields["requires"] == nil && fields["next"] == nil {
            report(path, "a scenario needs \"requires\" (the state it answers in) and/or \"next\" (the state it moves to)", at: node.offset)
        }
        guard diagnostics.count == before, let name else { return nil }
        return StubScenario(name: name, requires: requires, next: next)
    }

    /// Sessions posted to the admin API: one session object or an array of them; settings
    /// entries are refused (an include names files on the server's disk).
    mutating func decodeAdminSessions(_ root: JSONNode, scope: StubScope) -> [StubDefinition] {
        if root.members != nil {
            return decodeSession(root, index: 0, scope: scope, at: "").map { [$0] } ?? []
        }
        guard let elements = root.elements else {
            expected("a session object or an array of them", at: "", got: root)
            return []
        }
        var sessions: [StubDefinition] = []
        for (index, element) in elements.enumerated() {
            if let list = element.members, let key = list.first(where: { Self.settingsOnlyKeys.contains($0.key) })?.key {
                report("[\(index)]" + JSONPathText.key(key), "settings entries (include, context, file_root, env) are not accepted here; post sessions", at: element.offset)
                continue
            }
            if let session = decodeSession(element, index: index, scope: scope, at: "[\(index)]") { sessions.append(session) }
        }
        return sessions
    }

    /// A request matcher object on its own (journal filters, the admin API's queries).
    mutating func decodeRequestMatcher(_ node: JSONNode) -> RequestPattern? {
        decodeRequest(node, at: "")
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

    // MARK: - Request

    mutating func decodeRequest(_ node: JSONNode, at path: String) -> RequestPattern? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: Self.requestKeys, unsupported: Self.unsupportedRequestKeys) else { return nil }
        var pattern = RequestPattern()
        pattern.uri = fields["uri"].flatMap { textMatcher($0, at: path + ".uri", allowPath: true) }
        pattern.method = fields["method"].flatMap { textMatcher($0, at: path + ".method") }
        pattern.version = fields["version"].flatMap { textMatcher($0, at: path + ".version") }
        pattern.headers = keyed(fields["headers"], at: path + ".headers")
        pattern.queries = keyed(fields["queries"], at: path + ".queries")
        pattern.cookies = keyed(fields["cookies"], at: path + ".cookies")
        pattern.forms = keyed(fields["forms"], at: path + ".forms")
        pattern.text = fields["text"].flatMap { textMatcher($0, at: path + ".text", allowBody: true) }
        pattern.file = fields["file"].flatMap { fileMatcher($0, at: path + ".file") }
        pattern.json = fields["json"]?.value
        pattern.jsonPaths = keyed(fields["json_paths"], at: path + ".json_paths")
        pattern.xpaths = keyed(fields["xpaths"], at: path + ".xpaths")
        if let structure = fields["struct"] {
            func structPath() -> String { path + ".struct" }
            if let parts = members(structure, at: structPath(), allowed: ["json", "xml"]) {
                if parts.count != 1 {
                    report(structPath(), "expected exactly one of \"json\" or \"xml\"", at: structure.offset)
                } else if let json = parts["json"] {
                    pattern.structure = .json(json.value)
                } else if let xml = parts["xml"], let text = string(xml, at: structPath() + ".xml") {
                    pattern.structure = .xml(text)
                }
            }
        }
        return diagnostics.count == before ? pattern : nil
    }

    private mutating func keyed(_ node: JSONNode?, at path: String) -> KeyedMatchers {
        guard let node else { return [:] }
        guard let list = node.members else {
            expected("an object of names to values", at: path, got: node)
            return [:]
        }
        var result = KeyedMatchers()
        for (offset, member) in list.enumerated() {
            func memberPath() -> String { path + JSONPathText.key(member.key) }
            guard !list[..<offset].contains(where: { $0.key == member.key }) else {
                report(memberPath(), "repeated key", at: member.keyOffset)
                continue
            }
            if member.key.isEmpty { report(memberPath(), "a name cannot be empty", at: member.keyOffset) }
            if let matcher = textMatcher(member.value, at: memberPath()) { result.append(member.key, matcher) }
        }
        return result
    }

    /// moco's text container: a string (equality) or `{"operator": "argument"}`.
    private mutating func textMatcher(_ node: JSONNode, at path: String, allowPath: Bool = false, allowBody: Bool = false) -> TextMatcher? {
        switch node.kind {
        case .string, .number, .bool:
            return scalarText(node, at: path).map(TextMatcher.equal)
        case .object(let list):
            var allowed = Self.operators
            if allowBody { allowed += ["json", "xml"] }
            guard list.count == 1, let member = list.first else {
                report(path, "expected a string or one operator such as {\"match\": \"…\"}; operators: \(allowed.joined(separator: ", "))", at: node.offset)
                return nil
            }
            func operatorPath() -> String { path + JSONPathText.key(member.key) }
            guard allowed.contains(where: { $0.utf8.count == member.key.utf8.count && $0 == member.key }) else {
                if member.key == "json" || member.key == "xml" {
                    report(operatorPath(), "the \(member.key) operator applies to the body only (text or file)", at: member.keyOffset)
                } else if member.key == "template" {
                    report(operatorPath(), "templates belong in responses; a request matches with \(Self.operators.joined(separator: ", "))", at: member.keyOffset)
                } else {
                    report(operatorPath(), "unknown operator\(Suggestion.didYouMean(member.key, among: allowed)); operators: \(allowed.joined(separator: ", "))", at: member.keyOffset)
                }
                return nil
            }
            if member.key == "path" && !allowPath {
                report(operatorPath(), "the path operator applies to uri only", at: member.keyOffset)
                return nil
            }
            switch member.key {
            case "exist":
                return boolean(member.value, at: operatorPath()).map(TextMatcher.exist)
            case "json":
                // A JSON document written as a string (moco) or directly as JSON (friendlier).
                if let text = member.value.stringValue {
                    do throws(JSONSyntaxError) {
                        return .json(try JSONParser.parse(Array(text.utf8)).value)
                    } catch {
                        report(operatorPath(), "the expected JSON is not valid: \(error.description)", at: member.value.offset)
                        return nil
                    }
                }
                return .json(member.value.value)
            default:
                guard let argument = scalarText(member.value, at: operatorPath()) else { return nil }
                switch member.key {
                case "match": return .match(argument)
                case "startsWith": return .startsWith(argument)
                case "endsWith": return .endsWith(argument)
                case "contain": return .contain(argument)
                case "path": return .path(argument)
                case "xml": return .xml(argument)
                default: return nil
                }
            }
        default:
            expected("a string or an operator object", at: path, got: node)
            return nil
        }
    }

    private mutating func fileMatcher(_ node: JSONNode, at path: String) -> FileMatcher? {
        if node.stringValue != nil {
            return string(node, at: path).map { FileMatcher(path: $0) }
        }
        guard let fields = members(node, at: path, allowed: ["name", "charset", "json", "xml"], what: "a file name or {\"name\": …, \"charset\": …}") else { return nil }
        if let json = fields["json"] {
            guard fields.count == 1 else { report(path, "\"json\" stands alone: {\"json\": \"expected.json\"}", at: node.offset); return nil }
            return string(json, at: path + ".json").map { FileMatcher(path: $0, comparison: .json) }
        }
        if let xml = fields["xml"] {
            guard fields.count == 1 else { report(path, "\"xml\" stands alone: {\"xml\": \"expected.xml\"}", at: node.offset); return nil }
            return string(xml, at: path + ".xml").map { FileMatcher(path: $0, comparison: .xml) }
        }
        guard let name = fields["name"] else {
            report(path, "expected \"name\" (the file to compare the body with)", at: node.offset)
            return nil
        }
        let charset = fields["charset"].flatMap { string($0, at: path + ".charset") }
        return string(name, at: path + ".name").map { FileMatcher(path: $0, charset: charset) }
    }

    // MARK: - Response

    mutating func decodeResponse(_ node: JSONNode, at path: String, extraKeys: [String] = []) -> ResponseDefinition? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: extraKeys.isEmpty ? Self.responseKeys : Self.responseKeys + extraKeys, unsupported: Self.unsupportedResponseKeys) else { return nil }
        var response = ResponseDefinition()
        let bodyKeys = fields.count > 1 ? ["text", "file", "json"].filter { fields[$0] != nil } : []
        if bodyKeys.count > 1 {
            report(path, "a response has one body; found \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and "))", at: node.offset)
        }
        if fields["attachment"] != nil && !bodyKeys.isEmpty {
            report(path + ".attachment", "an attachment carries the body; remove \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and ")) or the attachment", at: fields["attachment"]?.offset)
        }
        if fields["seq"] != nil && fields["cycle"] != nil {
            report(path, "use either \"seq\" or \"cycle\", not both", at: node.offset)
        }
        response.body = decodeBody(fields, at: path)
        if let status = fields["status"] { response.status = statusCode(status, at: path + ".status") }
        if let headers = fields["headers"] {
            if let list = headers.members {
                for (offset, member) in list.enumerated() {
                    func memberPath() -> String { path + ".headers" + JSONPathText.key(member.key) }
                    guard !list[..<offset].contains(where: { Self.sameHeaderName($0.key, member.key) }) else {
                        report(memberPath(), "repeated header", at: member.keyOffset)
                        continue
                    }
                    if let value = textValue(member.value, at: memberPath(), acceptScalars: true) {
                        response.headers.append(ResponseHeader(name: member.key, value: value))
                    }
                }
            } else {
                expected("an object of header names to values", at: path + ".headers", got: headers)
            }
        }
        if let cookies = fields["cookies"] {
            if let list = cookies.members {
                for member in list {
                    if let cookie = decodeCookie(member.key, member.value, at: path + ".cookies" + JSONPathText.key(member.key)) {
                        response.cookies.append(cookie)
                    }
                }
            } else {
                expected("an object of cookie names to values", at: path + ".cookies", got: cookies)
            }
        }
        if let version = fields["version"] { response.version = textValue(version, at: path + ".version") }
        if let latency = fields["latency"] { response.latency = duration(latency, at: path + ".latency") }
        if let attachment = fields["attachment"] {
            func attachmentPath() -> String { path + ".attachment" }
            if let parts = members(attachment, at: attachmentPath(), allowed: ["filename", "text", "file", "json"]) {
                let filename = parts["filename"].flatMap { string($0, at: attachmentPath() + ".filename") }
                if parts["filename"] == nil { report(attachmentPath(), "an attachment needs a \"filename\"", at: attachment.offset) }
                let bodies = ["text", "file", "json"].filter { parts[$0] != nil }
                if bodies.count != 1 {
                    report(attachmentPath(), "an attachment needs exactly one of \"text\", \"file\" or \"json\"", at: attachment.offset)
                } else if let filename, let body = decodeBody(parts, at: attachmentPath()) {
                    response.attachment = Attachment(filename: filename, body: body)
                }
            }
        }
        for key in ["seq", "cycle"] {
            guard let list = fields[key] else { continue }
            func listPath() -> String { path + "." + key }
            guard let elements = list.elements else {
                expected("an array of responses", at: listPath(), got: list)
                continue
            }
            if elements.isEmpty { report(listPath(), "expected at least one response", at: list.offset) }
            var responses: [ResponseDefinition] = []
            for (offset, element) in elements.enumerated() {
                if let decoded = decodeResponse(element, at: "\(listPath())[\(offset)]") { responses.append(decoded) }
            }
            response.sequence = key == "seq" ? .seq(responses) : .cycle(responses)
        }
        if let cors = fields["cors"] { response.cors = decodeCORS(cors, at: path + ".cors") }
        decodeUpstreamKeys(fields, into: &response, node: node, at: path)
        decodeLiveKeys(fields, into: &response, node: node, at: path)
        return diagnostics.count == before ? response : nil
    }

    /// Names equal when lower-cased (ASCII names, the only valid ones, without allocating).
    static func sameHeaderName(_ a: String, _ b: String) -> Bool {
        if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) { return HTTPHeaders.sameName(a, b) }
        return a.lowercased() == b.lowercased()
    }

    private mutating func decodeBody(_ fields: Fields, at path: String) -> ResponseBody? {
        if let text = fields["text"] {
            return textValue(text, at: path + ".text").map(ResponseBody.text)
        }
        if let json = fields["json"] {
            return .json(json.value)
        }
        if let file = fields["file"] {
            return fileSource(file, at: path + ".file").map(ResponseBody.file)
        }
        return nil
    }

    mutating func statusCode(_ node: JSONNode, at path: String) -> Int? {
        switch node.kind {
        case .number(let number):
            if let value = number.intValue { return value }
        case .string(let text):
            if let value = Int(text.trimmingASCIIWhitespace()) { return value }
        default: break
        }
        expected("a number or numeric string", at: path, got: node)
        return nil
    }

    /// A response string: plain (trimmed) or `{"template": "…"}` /
    /// `{"template": {"with": "…", "vars": {…}}}`.
    mutating func textValue(_ node: JSONNode, at path: String, acceptScalars: Bool = false) -> TextValue? {
        switch node.kind {
        case .string(let text):
            return .literal(text.trimmedAsMoco(trimsText))
        case .number, .bool:
            guard acceptScalars else {
                expected("a string or {\"template\": …}", at: path, got: node)
                return nil
            }
            return scalarText(node, at: path).map(TextValue.literal)
        case .object:
            guard let fields = members(node, at: path, allowed: ["template"], what: "a string or {\"template\": …}") else { return nil }
            guard let template = fields["template"] else {
                report(path, "expected {\"template\": \"…\"}", at: node.offset)
                return nil
            }
            return templateValue(template, at: path + ".template")
        default:
            expected("a string or {\"template\": …}", at: path, got: node)
            return nil
        }
    }

    private mutating func templateValue(_ node: JSONNode, at path: String) -> TextValue? {
        if let text = node.stringValue { return .template(text.trimmedAsMoco(trimsText)) }
        guard let fields = members(node, at: path, allowed: ["with", "vars"], what: "a template string or {\"with\": …, \"vars\": …}") else { return nil }
        guard let with = fields["with"] else {
            report(path, "expected \"with\" (the template text)", at: node.offset)
            return nil
        }
        guard let source = string(with, at: path + ".with") else { return nil }
        let vars = fields["vars"].map { templateVariables($0, at: path + ".vars") } ?? [:]
        return .template(source, vars: vars)
    }

    static let extractorNames = ["json_path", "jsonPath", "jsonPaths", "json_paths", "xpath", "xpaths", "header", "headers", "query", "queries", "form", "forms", "cookie", "cookies"]

    static func extractor(_ kind: String, _ argument: String) -> TemplateVariable? {
        switch kind {
        case "json_path", "jsonPath", "jsonPaths", "json_paths": .jsonPath(argument)
        case "xpath", "xpaths": .xpath(argument)
        case "header", "headers": .header(argument)
        case "query", "queries": .query(argument)
        case "form", "forms": .form(argument)
        case "cookie", "cookies": .cookie(argument)
        default: nil
        }
    }

    private mutating func templateVariables(_ node: JSONNode, at path: String) -> TemplateVariables {
        guard let list = node.members else {
            expected("an object of variable names to values", at: path, got: node)
            return [:]
        }
        var result = TemplateVariables()
        for member in list {
            func memberPath() -> String { path + JSONPathText.key(member.key) }
            if Template.reservedNames.contains(member.key) {
                report(memberPath(), "\(quoted(member.key)) is reserved (req, now and random are built in)", at: member.keyOffset)
                continue
            }
            if member.key.isEmpty || !member.key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) || member.key.first!.isNumber {
                report(memberPath(), "a variable name is letters, digits and _ (not starting with a digit)", at: member.keyOffset)
                continue
            }
            switch member.value.kind {
            case .string, .number, .bool:
                if let text = scalarText(member.value, at: memberPath()) { result.entries.append(.init(name: member.key, value: .literal(text))) }
            case .object(let extractor):
                let kinds = Self.extractorNames
                guard extractor.count == 1, let only = extractor.first else {
                    report(memberPath(), "expected one extractor such as {\"json_path\": \"$.id\"}", at: member.value.offset)
                    continue
                }
                guard Self.extractorNames.contains(only.key) else {
                    report(memberPath() + JSONPathText.key(only.key), "unknown extractor\(Suggestion.didYouMean(only.key, among: kinds)); extractors: json_path, xpath, header, query, form, cookie", at: only.keyOffset)
                    continue
                }
                guard let argument = string(only.value, at: memberPath() + JSONPathText.key(only.key)) else { continue }
                guard let variable = Self.extractor(only.key, argument) else { continue }
                if case .jsonPath(let text) = variable {
                    do throws(JSONPath.SyntaxError) { _ = try JSONPath(text) } catch {
                        report(memberPath() + JSONPathText.key(only.key), error.description, at: only.value.offset)
                        continue
                    }
                }
                if case .xpath(let text) = variable {
                    do throws(XPathExpression.SyntaxError) { _ = try XPathExpression(text) } catch {
                        report(memberPath() + JSONPathText.key(only.key), error.description, at: only.value.offset)
                        continue
                    }
                }
                result.entries.append(.init(name: member.key, value: variable))
            default:
                expected("a string or an extractor such as {\"json_path\": \"$.id\"}", at: memberPath(), got: member.value)
            }
        }
        return result
    }

    private mutating func fileSource(_ node: JSONNode, at path: String) -> FileSource? {
        if node.stringValue != nil {
            return string(node, at: path).map { FileSource(name: .literal($0)) }
        }
        guard let fields = members(node, at: path, allowed: ["name", "charset", "template"], what: "a file name, {\"name\": …, \"charset\": …} or {\"template\": …}") else { return nil }
        if let template = fields["template"] {
            // {"template": "greeting.txt"}: the file's content is a template.
            guard fields.count == 1 else {
                report(path, "\"template\" names a template file and stands alone; to build the name from the request write {\"name\": {\"template\": \"…\"}}", at: node.offset)
                return nil
            }
            func templatePath() -> String { path + ".template" }
            if let name = template.stringValue {
                return FileSource(name: .literal(name.trimmedAsMoco(trimsText)), rendersContent: true)
            }
            guard let parts = members(template, at: templatePath(), allowed: ["with", "vars"], what: "a template file name or {\"with\": …, \"vars\": …}") else { return nil }
            guard let with = parts["with"], let name = string(with, at: templatePath() + ".with") else {
                report(templatePath(), "expected \"with\" (the template file's name)", at: template.offset)
                return nil
            }
            let vars = parts["vars"].map { templateVariables($0, at: templatePath() + ".vars") } ?? [:]
            return FileSource(name: .literal(name), rendersContent: true, vars: vars)
        }
        guard let nameNode = fields["name"] else {
            report(path, "expected \"name\" (the file to serve)", at: node.offset)
            return nil
        }
        let charset = fields["charset"].flatMap { string($0, at: path + ".charset") }
        return textValue(nameNode, at: path + ".name").map { FileSource(name: $0, charset: charset) }
    }

    private mutating func decodeCookie(_ name: String, _ node: JSONNode, at path: String) -> ResponseCookie? {
        if node.stringValue != nil || node.members == nil {
            return scalarText(node, at: path).map { ResponseCookie(name: name, value: .literal($0)) }
        }
        guard let fields = members(node, at: path, allowed: ["value", "path", "domain", "secure", "httpOnly", "maxAge", "sameSite", "template"]) else { return nil }
        var cookie = ResponseCookie(name: name, value: .literal(""))
        if let template = fields["template"] {
            if fields["value"] != nil { report(path, "a cookie has \"value\" or \"template\", not both", at: node.offset) }
            if let value = templateValue(template, at: path + ".template") { cookie.value = value }
        } else if let value = fields["value"] {
            if let text = scalarText(value, at: path + ".value") { cookie.value = .literal(text) }
        } else {
            report(path, "a cookie object needs \"value\" (or \"template\")", at: node.offset)
        }
        cookie.path = fields["path"].flatMap { string($0, at: path + ".path") }
        cookie.domain = fields["domain"].flatMap { string($0, at: path + ".domain") }
        cookie.secure = fields["secure"].flatMap { boolean($0, at: path + ".secure") } ?? false
        cookie.httpOnly = fields["httpOnly"].flatMap { boolean($0, at: path + ".httpOnly") } ?? false
        cookie.maxAge = fields["maxAge"].flatMap { duration($0, at: path + ".maxAge") }
        if let sameSite = fields["sameSite"], let text = string(sameSite, at: path + ".sameSite") {
            switch text.lowercased() {
            case "strict": cookie.sameSite = .strict
            case "lax": cookie.sameSite = .lax
            case "none": cookie.sameSite = ResponseCookie.SameSite.none
            default: report(path + ".sameSite", "expected \"Strict\", \"Lax\" or \"None\", got \(quoted(text))", at: sameSite.offset)
            }
        }
        return cookie
    }

    static let units: [String: Duration] = [
        "nanosecond": .nanoseconds(1), "microsecond": .microseconds(1), "millisecond": .milliseconds(1),
        "second": .seconds(1), "minute": .seconds(60), "hour": .seconds(3600), "day": .seconds(86_400),
    ]

    static let maximumDurationSeconds = StubDurationLimit.maximumSeconds
    static let maximumDurationDescription = StubDurationLimit.maximumDescription

    /// `amount` × `unitSeconds` as a Duration, or nil when it is longer than the maximum
    /// (checked in floating point first: `Duration * Double` traps when it overflows).
    static func boundedDuration(_ amount: Double, unitSeconds: Double) -> Duration? {
        let seconds = amount * unitSeconds
        guard seconds.isFinite, seconds >= 0, seconds <= maximumDurationSeconds else { return nil }
        let nanoseconds = (seconds * 1e9).rounded()
        return .nanoseconds(Int64(nanoseconds))
    }

    /// Milliseconds (`500`, `"500"`) or `{"duration": 1, "unit": "second"}`.
    mutating func duration(_ node: JSONNode, at path: String) -> Duration? {
        func milliseconds(_ text: String) -> Duration? {
            guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
            return Self.boundedDuration(value, unitSeconds: 0.001)
        }
        func tooLarge(_ text: String) {
            report(path, "\(text) milliseconds is too long; a duration is at most \(Self.maximumDurationDescription)", at: node.offset)
        }
        switch node.kind {
        case .number(let number):
            if let value = milliseconds(number.text) { return value }
            if let value = Double(number.text), value >= 0 { tooLarge(number.text); return nil }
            report(path, "expected a non-negative number of milliseconds, got \(number.text)", at: node.offset)
            return nil
        case .string(let text):
            let trimmed = text.trimmingASCIIWhitespace()
            if let value = milliseconds(trimmed) { return value }
            if let value = Double(trimmed), value >= 0 { tooLarge(trimmed); return nil }
            expected("a number of milliseconds or {\"duration\": …, \"unit\": …}", at: path, got: node)
            return nil
        case .object:
            guard let fields = members(node, at: path, allowed: ["duration", "unit"]) else { return nil }
            guard let amountNode = fields["duration"], let unitNode = fields["unit"] else {
                report(path, "expected {\"duration\": 1, \"unit\": \"second\"}", at: node.offset)
                return nil
            }
            var amount: Double?
            switch amountNode.kind {
            case .number(let number): amount = number.doubleValue
            case .string(let text): amount = Double(text.trimmingASCIIWhitespace())
            default: break
            }
            guard let amount, amount >= 0, !amount.isNaN else {
                expected("a non-negative number", at: path + ".duration", got: amountNode)
                return nil
            }
            guard let unitText = string(unitNode, at: path + ".unit") else { return nil }
            var key = unitText.lowercased()
            if key.hasSuffix("s") { key.removeLast() }
            guard let unit = Self.units[key] else {
                let names = ["nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day"]
                report(path + ".unit", "unknown unit \(quoted(unitText))\(Suggestion.didYouMean(key, among: names)); units: \(names.joined(separator: ", "))", at: unitNode.offset)
                return nil
            }
            let unitSeconds = Double(unit.components.seconds) + Double(unit.components.attoseconds) / 1e18
            guard let bounded = Self.boundedDuration(amount, unitSeconds: unitSeconds) else {
                report(path + ".duration", "\(amountNode.value.scalarText) \(unitText) is too long; a duration is at most \(Self.maximumDurationDescription)", at: amountNode.offset)
                return nil
            }
            return bounded
        default:
            expected("a number of milliseconds or {\"duration\": …, \"unit\": …}", at: path, got: node)
            return nil
        }
    }
}

// MARK: - Live responses: sse, dribble, fault, websocket

extension StubDecoder {
    static let liveResponseKeys = ["sse", "dribble", "fault"]

    /// `sse`, `dribble` and `fault` in a response object.
    fileprivate mutating func decodeLiveKeys(_ fields: Fields, into response: inout ResponseDefinition, node: JSONNode, at path: String) {
        let live = Self.liveResponseKeys.filter { fields[$0] != nil }
        if live.count > 1 {
            report(path, "use one of \(live.map { "\"\($0)\"" }.joined(separator: " and ")), not several", at: node.offset)
            return
        }
        let bodies = ["text", "file", "json", "attachment"].filter { fields[$0] != nil }
        if let sse = fields["sse"] {
            if !bodies.isEmpty {
                report(path + ".sse", "server-sent events are the body; remove \(bodies.map { "\"\($0)\"" }.joined(separator: " and "))", at: sse.offset)
            }
            response.sse = decodeSSE(sse, at: path + ".sse")
        }
        if let dribble = fields["dribble"] {
            response.dribble = decodeDribble(dribble, at: path + ".dribble")
        }
        if let fault = fields["fault"] {
            if !bodies.isEmpty || fields["seq"] != nil || fields["cycle"] != nil {
                report(path + ".fault", "a fault sends no response; remove the body (status, headers and latency may stay)", at: fault.offset)
            }
            if let text = string(fault, at: path + ".fault") {
                if let known = ResponseFault(rawValue: text) {
                    response.fault = known
                } else {
                    let names = ResponseFault.allCases.map(\.rawValue)
                    report(path + ".fault", "unknown fault \(quoted(text))\(Suggestion.didYouMean(text, among: names)); faults: \(names.joined(separator: ", "))", at: fault.offset)
                }
            }
        }
    }

    /// `[{event…}, …]`, `{"delay": …, "events": […]}` or `{"file": …, "delay": …}`.
    private mutating func decodeSSE(_ node: JSONNode, at path: String) -> ServerSentEvents? {
        if let elements = node.elements {
            return ServerSentEvents(events: decodeSSEEvents(elements, node: node, at: path))
        }
        guard let fields = members(node, at: path, allowed: ["events", "file", "delay"],
                                   what: "an array of events, {\"events\": […], \"delay\": …} or {\"file\": …}") else { return nil }
        var sse = ServerSentEvents()
        sse.delay = fields["delay"].flatMap { duration($0, at: path + ".delay") }
        switch (fields["events"], fields["file"]) {
        case (let events?, nil):
            if let elements = events.elements {
                sse.events = decodeSSEEvents(elements, node: events, at: path + ".events")
            } else {
                expected("an array of events", at: path + ".events", got: events)
            }
        case (nil, let file?):
            sse.file = textValue(file, at: path + ".file")
        case (.some, .some):
            report(path, "use either \"events\" or \"file\", not both", at: node.offset)
        case (nil, nil):
            report(path, "expected \"events\" (an array) or \"file\" (a file of events)", at: node.offset)
        }
        return sse
    }

    private mutating func decodeSSEEvents(_ elements: [JSONNode], node: JSONNode, at path: String) -> [SSEEvent] {
        if elements.isEmpty { report(path, "expected at least one event", at: node.offset) }
        var events: [SSEEvent] = []
        for (index, element) in elements.enumerated() {
            func eventPath() -> String { path + "[\(index)]" }
            guard let fields = members(element, at: eventPath(), allowed: ["event", "data", "id", "retry", "delay"],
                                       what: "an event object like {\"event\": \"tick\", \"data\": \"1\"}") else { continue }
            var event = SSEEvent(data: [])
            switch fields["data"]?.kind {
            case .array(let lines)?:
                for (offset, line) in lines.enumerated() {
                    if let text = scalarText(line, at: eventPath() + ".data[\(offset)]") { event.data.append(text) }
                }
                if lines.isEmpty { report(eventPath() + ".data", "expected at least one data line", at: fields["data"]?.offset) }
            case .some:
                if let text = scalarText(fields["data"]!, at: eventPath() + ".data") { event.data = [text] }
            case nil:
                report(eventPath(), "an event needs \"data\"", at: element.offset)
            }
            event.event = fields["event"].flatMap { string($0, at: eventPath() + ".event") }
            event.id = fields["id"].flatMap { scalarText($0, at: eventPath() + ".id") }
            if let retry = fields["retry"] {
                if let value = statusCode(retry, at: eventPath() + ".retry") {
                    if value > 0 { event.retry = value } else { report(eventPath() + ".retry", "expected a positive number of milliseconds", at: retry.offset) }
                }
            }
            event.delay = fields["delay"].flatMap { duration($0, at: eventPath() + ".delay") }
            for (key, value) in [("event", event.event), ("id", event.id)] + event.data.map({ ("data", Optional($0)) }) {
                if let value, value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                    report(eventPath() + "." + key, "an event field cannot contain a line break; give data as an array of lines", at: fields[key]?.offset)
                }
            }
            events.append(event)
        }
        return events
    }

    /// `{"chunks": 10, "duration": 2000}` or `{"bytes_per_second": 4096}`.
    private mutating func decodeDribble(_ node: JSONNode, at path: String) -> Dribble? {
        guard let fields = members(node, at: path, allowed: ["chunks", "duration", "bytes_per_second"],
                                   what: "{\"chunks\": 10, \"duration\": 2000} or {\"bytes_per_second\": 4096}") else { return nil }
        if let rate = fields["bytes_per_second"] {
            if fields["chunks"] != nil || fields["duration"] != nil {
                report(path, "use either \"bytes_per_second\" or \"chunks\" with \"duration\"", at: node.offset)
                return nil
            }
            guard let value = statusCode(rate, at: path + ".bytes_per_second") else { return nil }
            guard value > 0 else {
                report(path + ".bytes_per_second", "expected a positive number of bytes", at: rate.offset)
                return nil
            }
            return .bytesPerSecond(value)
        }
        guard let durationNode = fields["duration"] else {
            report(path, "expected \"duration\" (with an optional \"chunks\", default 10) or \"bytes_per_second\"", at: node.offset)
            return nil
        }
        var chunks = 10
        if let count = fields["chunks"] {
            guard let value = statusCode(count, at: path + ".chunks") else { return nil }
            guard value > 0 else {
                report(path + ".chunks", "expected at least 1 chunk", at: count.offset)
                return nil
            }
            chunks = value
        }
        return duration(durationNode, at: path + ".duration").map { .chunks(chunks, over: $0) }
    }

    /// `{"websocket": {"uri": …, "connected": …, "pingpongs": […], "sessions": […]}}`.
    fileprivate mutating func decodeWebSocketSession(
        _ node: JSONNode, fields session: Fields, node sessionNode: JSONNode, index: Int, scope: StubScope, at path: String
    ) -> StubDefinition? {
        let before = diagnostics.count
        for other in ["request", "response", "redirectTo", "proxy", "on", "scenario"] where session[other] != nil {
            report(path + "." + other, "a websocket session stands alone; \(quoted(other)) does not go with \"websocket\"", at: sessionNode.offset)
        }
        func wsPath() -> String { path + ".websocket" }
        guard let fields = members(node, at: wsPath(), allowed: ["uri", "connected", "pingpongs", "sessions"]) else { return nil }
        var endpoint = WebSocketEndpoint(uri: "")
        if let uri = fields["uri"] {
            endpoint.uri = string(uri, at: wsPath() + ".uri") ?? ""
        } else {
            report(wsPath(), "a websocket needs \"uri\" (the path clients connect to)", at: node.offset)
        }
        endpoint.connected = fields["connected"].flatMap { messageContent($0, at: wsPath() + ".connected") }
        if let list = fields["pingpongs"] {
            if let elements = list.elements {
                for (offset, element) in elements.enumerated() {
                    func pairPath() -> String { wsPath() + ".pingpongs[\(offset)]" }
                    guard let pair = members(element, at: pairPath(), allowed: ["ping", "pong"]) else { continue }
                    guard let ping = pair["ping"], let pong = pair["pong"] else {
                        report(pairPath(), "expected {\"ping\": \"…\", \"pong\": \"…\"}", at: element.offset)
                        continue
                    }
                    if let ping = controlText(ping, at: pairPath() + ".ping"), let pong = controlText(pong, at: pairPath() + ".pong") {
                        endpoint.pingPongs.append(.init(ping: ping, pong: pong))
                    }
                }
            } else {
                expected("an array of {\"ping\": …, \"pong\": …}", at: wsPath() + ".pingpongs", got: list)
            }
        }
        if let list = fields["sessions"] {
            if let elements = list.elements {
                for (offset, element) in elements.enumerated() {
                    func sessionPath() -> String { wsPath() + ".sessions[\(offset)]" }
                    guard let parts = members(element, at: sessionPath(), allowed: ["request", "response"]) else { continue }
                    guard let request = parts["request"], let response = parts["response"] else {
                        report(sessionPath(), "expected {\"request\": \"…\", \"response\": {…}}", at: element.offset)
                        continue
                    }
                    let message = messageContent(request, at: sessionPath() + ".request")
                    let reply = webSocketReply(response, at: sessionPath() + ".response")
                    if let message, let reply { endpoint.sessions.append(.init(request: message, response: reply)) }
                }
            } else {
                expected("an array of {\"request\": …, \"response\": …}", at: wsPath() + ".sessions", got: list)
            }
        }
        let description = session["description"].flatMap { string($0, at: path + ".description", trim: false) }
        guard diagnostics.count == before else { return nil }
        var definition = StubDefinition.websocket(endpoint, description: description)
        definition.scope = scope
        definition.reference = StubReference(file: file, index: index)
        return definition
    }

    /// A ping or pong payload: text, written as a string or `{"text": …}`.
    private mutating func controlText(_ node: JSONNode, at path: String) -> String? {
        switch messageContent(node, at: path) {
        case .text(let text)?: return text
        case .file?:
            report(path, "a ping or pong is text (at most 125 bytes), not a file", at: node.offset)
            return nil
        case nil: return nil
        }
    }

    /// moco's text container: `"text"` or `{"text": …}` / `{"file": …}` (`content` is accepted
    /// for `text`).
    private mutating func messageContent(_ node: JSONNode, at path: String) -> WebSocketEndpoint.MessageContent? {
        if node.stringValue != nil { return string(node, at: path).map { .text($0) } }
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: ["text", "content", "file"], what: "a string, {\"text\": …} or {\"file\": …}"),
              diagnostics.count == before else { return nil }
        guard fields.count == 1 else {
            report(path, "expected exactly one of \"text\" or \"file\"", at: node.offset)
            return nil
        }
        if let file = fields["file"] { return fileName(file, at: path + ".file").map { .file($0) } }
        let key = fields["text"] != nil ? "text" : "content"
        return string(fields[key]!, at: path + "." + key).map { .text($0) }
    }

    /// `{"text"|"file": …, "group": …, "broadcast": …}`; `content` is accepted for `text`, as
    /// moco's websocket documentation writes it.
    /// A file name written as a string (`"file": "a.txt"`) or moco's `{"name": "a.txt"}`.
    private mutating func fileName(_ node: JSONNode, at path: String) -> String? {
        if node.stringValue != nil { return string(node, at: path) }
        guard let fields = members(node, at: path, allowed: ["name"], what: "a file name or {\"name\": …}") else { return nil }
        guard let name = fields["name"] else {
            report(path, "expected {\"name\": \"…\"}", at: node.offset)
            return nil
        }
        return string(name, at: path + ".name")
    }

    private mutating func webSocketReply(_ node: JSONNode, at path: String) -> WebSocketEndpoint.Reply? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: ["text", "content", "file", "group", "broadcast"]) else { return nil }
        let bodies = ["text", "content", "file"].filter { fields[$0] != nil }
        if bodies.count > 1 {
            report(path, "a reply has one of \"text\" or \"file\", not \(bodies.map { quoted($0) }.joined(separator: " and "))", at: node.offset)
            return nil
        }
        var reply = WebSocketEndpoint.Reply()
        if let key = bodies.first, let value = fields[key] {
            if key == "file" {
                reply.content = fileName(value, at: path + ".file").map { .file($0) }
            } else {
                reply.content = messageContent(value, at: path + "." + key)
            }
        }
        reply.group = fields["group"].flatMap { string($0, at: path + ".group") }
        if let broadcast = fields["broadcast"] {
            if broadcast.stringValue != nil {
                reply.broadcast = string(broadcast, at: path + ".broadcast").map { .init(text: $0) }
            } else if let parts = members(broadcast, at: path + ".broadcast", allowed: ["text", "content", "file", "group"],
                                          what: "a string or {\"text\": …, \"group\": …}") {
                let group = parts["group"].flatMap { string($0, at: path + ".broadcast.group") }
                let bodies = ["text", "content", "file"].filter { parts[$0] != nil }
                if bodies.count != 1 {
                    report(path + ".broadcast", "expected exactly one of \"content\", \"text\" or \"file\"", at: broadcast.offset)
                } else if bodies[0] == "file" {
                    if let name = fileName(parts["file"]!, at: path + ".broadcast.file") { reply.broadcast = .init(content: .file(name), group: group) }
                } else if let content = messageContent(parts[bodies[0]]!, at: path + ".broadcast." + bodies[0]) {
                    // moco's spelling: `"content": "text"` or `"content": {"file": …}`.
                    reply.broadcast = .init(content: content, group: group)
                }
            }
        }
        if reply.content == nil && reply.group == nil && reply.broadcast == nil && diagnostics.count == before {
            report(path, "expected \"text\", \"file\", \"group\" or \"broadcast\"", at: node.offset)
        }
        return reply
    }
}

extension String {
    func trimmedAsMoco(_ trims: Bool) -> String { trims ? trimmingASCIIWhitespace() : self }
}
