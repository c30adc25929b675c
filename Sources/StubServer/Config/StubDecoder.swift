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

    static let sessionKeys = ["request", "response", "redirectTo", "description", "mount", "resource"]
    static let sessionSuggestions = sessionKeys + ["include", "file_root", "context"]
    /// Keys that make an entry a settings entry rather than a session.
    static let settingsOnlyKeys = ["include", "context", "file_root", "env"]
    static let settingsKeys = ["include", "context", "file_root", "env", "request", "response"]
    static let unsupportedSessionKeys: [String: String] = [
        "proxy": "proxy is not supported by stubserver",
        "websocket": "websocket is not supported by stubserver",
        "on": "events (on.complete) are not supported by stubserver",
    ]
    static let requestKeys = ["uri", "method", "version", "headers", "queries", "cookies", "forms", "text", "file", "json", "json_paths", "struct", "xpaths"]
    static let unsupportedRequestKeys: [String: String] = [
        "path_resource": "path_resource (Java classpath) has no meaning here; use file",
    ]
    static let responseKeys = ["text", "file", "json", "status", "headers", "cookies", "version", "latency", "attachment", "seq", "cycle", "cors"]
    static let unsupportedResponseKeys: [String: String] = [
        "path_resource": "path_resource (Java classpath) has no meaning here; use file",
        "proxy": "proxy is not supported by stubserver",
        "record": "record/replay is not supported by stubserver",
        "replay": "record/replay is not supported by stubserver",
        "sse": "server-sent events are not supported by stubserver",
    ]
    static let operators = ["match", "startsWith", "endsWith", "contain", "exist", "path"]

    // MARK: - Diagnostics

    mutating func report(_ path: String, _ message: String, at offset: Int?) {
        let position = offset.map { SourcePosition.locate(offset: $0, in: bytes) }
        diagnostics.append(ConfigDiagnostic(file: file, path: path, message: message, position: position))
    }

    mutating func expected(_ what: String, at path: @autoclosure () -> String, got node: JSONNode) {
        report(path(), "expected \(what), got \(node.shortDescription)", at: node.offset)
    }

    /// The members of an object, checking for unknown and repeated keys.
    mutating func members(
        _ node: JSONNode, at path: @autoclosure () -> String, allowed: [String], unsupported: [String: String] = [:], what: String = "an object",
        suggest: [String]? = nil
    ) -> Fields? {
        guard let list = node.members else {
            expected(what, at: path(), got: node)
            return nil
        }
        var accepted = 0
        for (offset, member) in list.enumerated() {
            func memberPath() -> String { path() + JSONPathText.key(member.key) }
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
            func path() -> String { "[\(index)]" }
            guard let list = element.members else {
                expected("an object (a session or a settings entry)", at: path(), got: element)
                continue
            }
            if list.contains(where: { Self.settingsOnlyKeys.contains($0.key) }) {
                if let entry = decodeSettings(element, index: index, at: path()) { decoded.settings.append((decoded.sessions.count, entry)) }
            } else if let session = decodeSession(element, index: index, scope: scope, at: path()) {
                decoded.sessions.append(session)
            }
        }
        return decoded
    }

    private mutating func decodeSettings(_ node: JSONNode, index: Int, at path: @autoclosure () -> String) -> SettingsEntry? {
        let before = diagnostics.count
        guard let fields = members(node, at: path(), allowed: Self.settingsKeys, unsupported: Self.unsupportedSessionKeys) else { return nil }
        guard let includeNode = fields["include"] else {
            report(path(), "a settings entry needs \"include\" (the file or glob its context, file_root, env, request and response apply to)", at: node.offset)
            return nil
        }
        let include = string(includeNode, at: path() + ".include")
        if let include, include.isEmpty { report(path() + ".include", "expected a file name or glob, got an empty string", at: includeNode.offset) }
        let context = fields["context"].flatMap { string($0, at: path() + ".context") }
        let fileRoot = fields["file_root"].flatMap { string($0, at: path() + ".file_root") }
        let env = fields["env"].flatMap { string($0, at: path() + ".env") }
        let request = fields["request"].flatMap { decodeRequest($0, at: path() + ".request") }
        let response = fields["response"].flatMap { decodeResponse($0, at: path() + ".response") }
        guard diagnostics.count == before, let include else { return nil }
        return SettingsEntry(
            index: index, include: include, includeOffset: includeNode.offset, context: context, fileRoot: fileRoot, env: env,
            request: request, response: response)
    }

    private mutating func decodeSession(
        _ node: JSONNode, index: Int, scope: StubScope, at path: @autoclosure () -> String
    ) -> StubDefinition? {
        let before = diagnostics.count
        guard let fields = members(
            node, at: path(), allowed: Self.sessionKeys, unsupported: Self.unsupportedSessionKeys,
            suggest: Self.sessionSuggestions) else { return nil }
        if fields["mount"] != nil || fields["resource"] != nil {
            return decodeServingSession(fields, node: node, index: index, scope: scope, at: path(), before: before)
        }
        let request = fields["request"].flatMap { decodeRequest($0, at: path() + ".request") }
        let response = fields["response"].flatMap { decodeResponse($0, at: path() + ".response") }
        let redirectTo = fields["redirectTo"].flatMap { textValue($0, at: path() + ".redirectTo") }
        let description = fields["description"].flatMap { string($0, at: path() + ".description", trim: false) }
        if fields["response"] != nil && fields["redirectTo"] != nil {
            report(path(), "a session has either \"response\" or \"redirectTo\", not both", at: node.offset)
        } else if fields["response"] == nil && fields["redirectTo"] == nil && diagnostics.count == before {
            report(path(), "a session needs \"response\" (or \"request\" with \"redirectTo\")", at: node.offset)
        } else if fields["redirectTo"] != nil && fields["request"] == nil {
            report(path() + ".redirectTo", "redirectTo needs a \"request\" to match", at: fields["redirectTo"]?.offset)
        }
        guard diagnostics.count == before else { return nil }
        return StubDefinition(
            request: request, response: response, redirectTo: redirectTo, description: description, scope: scope,
            reference: StubReference(file: file, index: index))
    }

    // MARK: - Scalars

    /// A string, trimmed as moco trims its text containers.
    mutating func string(_ node: JSONNode, at path: @autoclosure () -> String, trim: Bool = true) -> String? {
        guard let text = node.stringValue else {
            expected("a string", at: path(), got: node)
            return nil
        }
        return trim ? text.trimmingASCIIWhitespace() : text
    }

    /// A string; numbers and booleans are accepted as their text (`"page": 2`).
    mutating func scalarText(_ node: JSONNode, at path: @autoclosure () -> String) -> String? {
        switch node.kind {
        case .string(let text): return text.trimmingASCIIWhitespace()
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        default:
            expected("a string", at: path(), got: node)
            return nil
        }
    }

    mutating func boolean(_ node: JSONNode, at path: @autoclosure () -> String) -> Bool? {
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
        expected("true or false", at: path(), got: node)
        return nil
    }

    // MARK: - Request

    mutating func decodeRequest(_ node: JSONNode, at path: @autoclosure () -> String) -> RequestPattern? {
        let before = diagnostics.count
        guard let fields = members(node, at: path(), allowed: Self.requestKeys, unsupported: Self.unsupportedRequestKeys) else { return nil }
        var pattern = RequestPattern()
        pattern.uri = fields["uri"].flatMap { textMatcher($0, at: path() + ".uri", allowPath: true) }
        pattern.method = fields["method"].flatMap { textMatcher($0, at: path() + ".method") }
        pattern.version = fields["version"].flatMap { textMatcher($0, at: path() + ".version") }
        pattern.headers = keyed(fields["headers"], at: path() + ".headers")
        pattern.queries = keyed(fields["queries"], at: path() + ".queries")
        pattern.cookies = keyed(fields["cookies"], at: path() + ".cookies")
        pattern.forms = keyed(fields["forms"], at: path() + ".forms")
        pattern.text = fields["text"].flatMap { textMatcher($0, at: path() + ".text", allowBody: true) }
        pattern.file = fields["file"].flatMap { fileMatcher($0, at: path() + ".file") }
        pattern.json = fields["json"]?.value
        pattern.jsonPaths = keyed(fields["json_paths"], at: path() + ".json_paths")
        pattern.xpaths = keyed(fields["xpaths"], at: path() + ".xpaths")
        if let structure = fields["struct"] {
            func structPath() -> String { path() + ".struct" }
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

    private mutating func keyed(_ node: JSONNode?, at path: @autoclosure () -> String) -> KeyedMatchers {
        guard let node else { return [:] }
        guard let list = node.members else {
            expected("an object of names to values", at: path(), got: node)
            return [:]
        }
        var result = KeyedMatchers()
        for (offset, member) in list.enumerated() {
            func memberPath() -> String { path() + JSONPathText.key(member.key) }
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
    private mutating func textMatcher(_ node: JSONNode, at path: @autoclosure () -> String, allowPath: Bool = false, allowBody: Bool = false) -> TextMatcher? {
        switch node.kind {
        case .string, .number, .bool:
            return scalarText(node, at: path()).map(TextMatcher.equal)
        case .object(let list):
            var allowed = Self.operators
            if allowBody { allowed += ["json", "xml"] }
            guard list.count == 1, let member = list.first else {
                report(path(), "expected a string or one operator such as {\"match\": \"…\"}; operators: \(allowed.joined(separator: ", "))", at: node.offset)
                return nil
            }
            func operatorPath() -> String { path() + JSONPathText.key(member.key) }
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
            expected("a string or an operator object", at: path(), got: node)
            return nil
        }
    }

    private mutating func fileMatcher(_ node: JSONNode, at path: @autoclosure () -> String) -> FileMatcher? {
        if node.stringValue != nil {
            return string(node, at: path()).map { FileMatcher(path: $0) }
        }
        guard let fields = members(node, at: path(), allowed: ["name", "charset", "json", "xml"], what: "a file name or {\"name\": …, \"charset\": …}") else { return nil }
        if let json = fields["json"] {
            guard fields.count == 1 else { report(path(), "\"json\" stands alone: {\"json\": \"expected.json\"}", at: node.offset); return nil }
            return string(json, at: path() + ".json").map { FileMatcher(path: $0, comparison: .json) }
        }
        if let xml = fields["xml"] {
            guard fields.count == 1 else { report(path(), "\"xml\" stands alone: {\"xml\": \"expected.xml\"}", at: node.offset); return nil }
            return string(xml, at: path() + ".xml").map { FileMatcher(path: $0, comparison: .xml) }
        }
        guard let name = fields["name"] else {
            report(path(), "expected \"name\" (the file to compare the body with)", at: node.offset)
            return nil
        }
        let charset = fields["charset"].flatMap { string($0, at: path() + ".charset") }
        return string(name, at: path() + ".name").map { FileMatcher(path: $0, charset: charset) }
    }

    // MARK: - Response

    mutating func decodeResponse(_ node: JSONNode, at path: @autoclosure () -> String, extraKeys: [String] = []) -> ResponseDefinition? {
        let before = diagnostics.count
        guard let fields = members(node, at: path(), allowed: extraKeys.isEmpty ? Self.responseKeys : Self.responseKeys + extraKeys, unsupported: Self.unsupportedResponseKeys) else { return nil }
        var response = ResponseDefinition()
        let bodyKeys = fields.count > 1 ? ["text", "file", "json"].filter { fields[$0] != nil } : []
        if bodyKeys.count > 1 {
            report(path(), "a response has one body; found \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and "))", at: node.offset)
        }
        if fields["attachment"] != nil && !bodyKeys.isEmpty {
            report(path() + ".attachment", "an attachment carries the body; remove \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and ")) or the attachment", at: fields["attachment"]?.offset)
        }
        if fields["seq"] != nil && fields["cycle"] != nil {
            report(path(), "use either \"seq\" or \"cycle\", not both", at: node.offset)
        }
        response.body = decodeBody(fields, at: path())
        if let status = fields["status"] { response.status = statusCode(status, at: path() + ".status") }
        if let headers = fields["headers"] {
            if let list = headers.members {
                for (offset, member) in list.enumerated() {
                    func memberPath() -> String { path() + ".headers" + JSONPathText.key(member.key) }
                    guard !list[..<offset].contains(where: { Self.sameHeaderName($0.key, member.key) }) else {
                        report(memberPath(), "repeated header", at: member.keyOffset)
                        continue
                    }
                    if let value = textValue(member.value, at: memberPath(), acceptScalars: true) {
                        response.headers.append(ResponseHeader(name: member.key, value: value))
                    }
                }
            } else {
                expected("an object of header names to values", at: path() + ".headers", got: headers)
            }
        }
        if let cookies = fields["cookies"] {
            if let list = cookies.members {
                for member in list {
                    if let cookie = decodeCookie(member.key, member.value, at: path() + ".cookies" + JSONPathText.key(member.key)) {
                        response.cookies.append(cookie)
                    }
                }
            } else {
                expected("an object of cookie names to values", at: path() + ".cookies", got: cookies)
            }
        }
        if let version = fields["version"] { response.version = textValue(version, at: path() + ".version") }
        if let latency = fields["latency"] { response.latency = duration(latency, at: path() + ".latency") }
        if let attachment = fields["attachment"] {
            func attachmentPath() -> String { path() + ".attachment" }
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
            func listPath() -> String { path() + "." + key }
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
        if let cors = fields["cors"] { response.cors = decodeCORS(cors, at: path() + ".cors") }
        return diagnostics.count == before ? response : nil
    }

    /// Names equal when lower-cased (ASCII names, the only valid ones, without allocating).
    static func sameHeaderName(_ a: String, _ b: String) -> Bool {
        if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) { return HTTPHeaders.sameName(a, b) }
        return a.lowercased() == b.lowercased()
    }

    private mutating func decodeBody(_ fields: Fields, at path: @autoclosure () -> String) -> ResponseBody? {
        if let text = fields["text"] {
            return textValue(text, at: path() + ".text").map(ResponseBody.text)
        }
        if let json = fields["json"] {
            return .json(json.value)
        }
        if let file = fields["file"] {
            return fileSource(file, at: path() + ".file").map(ResponseBody.file)
        }
        return nil
    }

    private mutating func statusCode(_ node: JSONNode, at path: @autoclosure () -> String) -> Int? {
        switch node.kind {
        case .number(let number):
            if let value = number.intValue { return value }
        case .string(let text):
            if let value = Int(text.trimmingASCIIWhitespace()) { return value }
        default: break
        }
        expected("a number or numeric string", at: path(), got: node)
        return nil
    }

    /// A response string: plain (trimmed) or `{"template": "…"}` /
    /// `{"template": {"with": "…", "vars": {…}}}`.
    private mutating func textValue(_ node: JSONNode, at path: @autoclosure () -> String, acceptScalars: Bool = false) -> TextValue? {
        switch node.kind {
        case .string(let text):
            return .literal(text.trimmingASCIIWhitespace())
        case .number, .bool:
            guard acceptScalars else {
                expected("a string or {\"template\": …}", at: path(), got: node)
                return nil
            }
            return scalarText(node, at: path()).map(TextValue.literal)
        case .object:
            guard let fields = members(node, at: path(), allowed: ["template"], what: "a string or {\"template\": …}") else { return nil }
            guard let template = fields["template"] else {
                report(path(), "expected {\"template\": \"…\"}", at: node.offset)
                return nil
            }
            return templateValue(template, at: path() + ".template")
        default:
            expected("a string or {\"template\": …}", at: path(), got: node)
            return nil
        }
    }

    private mutating func templateValue(_ node: JSONNode, at path: @autoclosure () -> String) -> TextValue? {
        if let text = node.stringValue { return .template(text.trimmingASCIIWhitespace()) }
        guard let fields = members(node, at: path(), allowed: ["with", "vars"], what: "a template string or {\"with\": …, \"vars\": …}") else { return nil }
        guard let with = fields["with"] else {
            report(path(), "expected \"with\" (the template text)", at: node.offset)
            return nil
        }
        guard let source = string(with, at: path() + ".with") else { return nil }
        let vars = fields["vars"].map { templateVariables($0, at: path() + ".vars") } ?? [:]
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

    private mutating func templateVariables(_ node: JSONNode, at path: @autoclosure () -> String) -> TemplateVariables {
        guard let list = node.members else {
            expected("an object of variable names to values", at: path(), got: node)
            return [:]
        }
        var result = TemplateVariables()
        for member in list {
            func memberPath() -> String { path() + JSONPathText.key(member.key) }
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

    private mutating func fileSource(_ node: JSONNode, at path: @autoclosure () -> String) -> FileSource? {
        if node.stringValue != nil {
            return string(node, at: path()).map { FileSource(name: .literal($0)) }
        }
        guard let fields = members(node, at: path(), allowed: ["name", "charset", "template"], what: "a file name, {\"name\": …, \"charset\": …} or {\"template\": …}") else { return nil }
        if let template = fields["template"] {
            // {"template": "greeting.txt"}: the file's content is a template.
            guard fields.count == 1 else {
                report(path(), "\"template\" names a template file and stands alone; to build the name from the request write {\"name\": {\"template\": \"…\"}}", at: node.offset)
                return nil
            }
            func templatePath() -> String { path() + ".template" }
            if let name = template.stringValue {
                return FileSource(name: .literal(name.trimmingASCIIWhitespace()), rendersContent: true)
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
            report(path(), "expected \"name\" (the file to serve)", at: node.offset)
            return nil
        }
        let charset = fields["charset"].flatMap { string($0, at: path() + ".charset") }
        return textValue(nameNode, at: path() + ".name").map { FileSource(name: $0, charset: charset) }
    }

    private mutating func decodeCookie(_ name: String, _ node: JSONNode, at path: @autoclosure () -> String) -> ResponseCookie? {
        if node.stringValue != nil || node.members == nil {
            return scalarText(node, at: path()).map { ResponseCookie(name: name, value: .literal($0)) }
        }
        guard let fields = members(node, at: path(), allowed: ["value", "path", "domain", "secure", "httpOnly", "maxAge", "sameSite", "template"]) else { return nil }
        var cookie = ResponseCookie(name: name, value: .literal(""))
        if let template = fields["template"] {
            if fields["value"] != nil { report(path(), "a cookie has \"value\" or \"template\", not both", at: node.offset) }
            if let value = templateValue(template, at: path() + ".template") { cookie.value = value }
        } else if let value = fields["value"] {
            if let text = scalarText(value, at: path() + ".value") { cookie.value = .literal(text) }
        } else {
            report(path(), "a cookie object needs \"value\" (or \"template\")", at: node.offset)
        }
        cookie.path = fields["path"].flatMap { string($0, at: path() + ".path") }
        cookie.domain = fields["domain"].flatMap { string($0, at: path() + ".domain") }
        cookie.secure = fields["secure"].flatMap { boolean($0, at: path() + ".secure") } ?? false
        cookie.httpOnly = fields["httpOnly"].flatMap { boolean($0, at: path() + ".httpOnly") } ?? false
        cookie.maxAge = fields["maxAge"].flatMap { duration($0, at: path() + ".maxAge") }
        if let sameSite = fields["sameSite"], let text = string(sameSite, at: path() + ".sameSite") {
            switch text.lowercased() {
            case "strict": cookie.sameSite = .strict
            case "lax": cookie.sameSite = .lax
            case "none": cookie.sameSite = ResponseCookie.SameSite.none
            default: report(path() + ".sameSite", "expected \"Strict\", \"Lax\" or \"None\", got \(quoted(text))", at: sameSite.offset)
            }
        }
        return cookie
    }

    static let units: [String: Duration] = [
        "nanosecond": .nanoseconds(1), "microsecond": .microseconds(1), "millisecond": .milliseconds(1),
        "second": .seconds(1), "minute": .seconds(60), "hour": .seconds(3600), "day": .seconds(86_400),
    ]

    /// The longest latency, cookie max age or CORS max age: far beyond any use, and small
    /// enough that every later conversion (nanoseconds in a UInt64 timer, dates) is exact.
    static let maximumDurationSeconds: Double = 100 * 365 * 86_400
    static let maximumDurationDescription = "100 years (3153600000 seconds)"

    /// `amount` × `unitSeconds` as a Duration, or nil when it is longer than the maximum
    /// (checked in floating point first: `Duration * Double` traps when it overflows).
    static func boundedDuration(_ amount: Double, unitSeconds: Double) -> Duration? {
        let seconds = amount * unitSeconds
        guard seconds.isFinite, seconds >= 0, seconds <= maximumDurationSeconds else { return nil }
        let nanoseconds = (seconds * 1e9).rounded()
        return .nanoseconds(Int64(nanoseconds))
    }

    /// Milliseconds (`500`, `"500"`) or `{"duration": 1, "unit": "second"}`.
    mutating func duration(_ node: JSONNode, at path: @autoclosure () -> String) -> Duration? {
        func milliseconds(_ text: String) -> Duration? {
            guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
            return Self.boundedDuration(value, unitSeconds: 0.001)
        }
        func tooLarge(_ text: String) {
            report(path(), "\(text) milliseconds is too long; a duration is at most \(Self.maximumDurationDescription)", at: node.offset)
        }
        switch node.kind {
        case .number(let number):
            if let value = milliseconds(number.text) { return value }
            if let value = Double(number.text), value >= 0 { tooLarge(number.text); return nil }
            report(path(), "expected a non-negative number of milliseconds, got \(number.text)", at: node.offset)
            return nil
        case .string(let text):
            let trimmed = text.trimmingASCIIWhitespace()
            if let value = milliseconds(trimmed) { return value }
            if let value = Double(trimmed), value >= 0 { tooLarge(trimmed); return nil }
            expected("a number of milliseconds or {\"duration\": …, \"unit\": …}", at: path(), got: node)
            return nil
        case .object:
            guard let fields = members(node, at: path(), allowed: ["duration", "unit"]) else { return nil }
            guard let amountNode = fields["duration"], let unitNode = fields["unit"] else {
                report(path(), "expected {\"duration\": 1, \"unit\": \"second\"}", at: node.offset)
                return nil
            }
            var amount: Double?
            switch amountNode.kind {
            case .number(let number): amount = number.doubleValue
            case .string(let text): amount = Double(text.trimmingASCIIWhitespace())
            default: break
            }
            guard let amount, amount >= 0, !amount.isNaN else {
                expected("a non-negative number", at: path() + ".duration", got: amountNode)
                return nil
            }
            guard let unitText = string(unitNode, at: path() + ".unit") else { return nil }
            var key = unitText.lowercased()
            if key.hasSuffix("s") { key.removeLast() }
            guard let unit = Self.units[key] else {
                let names = ["nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day"]
                report(path() + ".unit", "unknown unit \(quoted(unitText))\(Suggestion.didYouMean(key, among: names)); units: \(names.joined(separator: ", "))", at: unitNode.offset)
                return nil
            }
            let unitSeconds = Double(unit.components.seconds) + Double(unit.components.attoseconds) / 1e18
            guard let bounded = Self.boundedDuration(amount, unitSeconds: unitSeconds) else {
                report(path() + ".duration", "\(amountNode.value.scalarText) \(unitText) is too long; a duration is at most \(Self.maximumDurationDescription)", at: amountNode.offset)
                return nil
            }
            return bounded
        default:
            expected("a number of milliseconds or {\"duration\": …, \"unit\": …}", at: path(), got: node)
            return nil
        }
    }
}
