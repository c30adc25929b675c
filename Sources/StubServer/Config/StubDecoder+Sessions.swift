// The top of a configuration file: its settings entries and sessions (and the admin API's posted sessions).
extension StubDecoder {
    /// Decodes a file whose sessions all get `scope`.
    mutating func decodeFile(_ root: JSONNode, scope: StubScope) -> Decoded {
        guard let elements = root.elements else {
            if root.members != nil {
                report(
                    "", "expected an array of sessions like [{\"request\": …, \"response\": …}], got an object; wrap it in [ … ]",
                    at: root.offset)
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
            report(
                path, "a settings entry needs \"include\" (the file or glob its context, file_root, env, request and response apply to)",
                at: node.offset)
            return nil
        }
        let include = string(includeNode, at: path + ".include")
        if let include, include.isEmpty {
            report(path + ".include", "expected a file name or glob, got an empty string", at: includeNode.offset)
        }
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
        guard
            let fields = members(
                node, at: path, allowed: Self.sessionKeys, unsupported: Self.unsupportedSessionKeys,
                suggest: Self.sessionSuggestions)
        else { return nil }
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
            return proxySession(
                proxy, fields: fields, node: node, index: index, scope: scope, description: description, onComplete: onComplete,
                before: before, at: path)
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
                report(
                    "[\(index)]" + JSONPathText.key(key),
                    "settings entries (include, context, file_root, env) are not accepted here; post sessions", at: element.offset)
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
}
