import Foundation

/// Decoding of the keys that reach live backends or keep state: `proxy` (response and session
/// level), `record`, `replay` and `on.complete` events. Kept apart from the core decoder.
extension StubDecoder {
    /// `proxy`, `record` and `replay` inside a response.
    mutating func decodeUpstreamKeys(_ fields: Fields, into response: inout ResponseDefinition, node: JSONNode, at path: String) {
        let exclusive = ["proxy", "record", "replay"].filter { fields[$0] != nil }
        if exclusive.count > 1 {
            report(
                path,
                "a response uses one of \"proxy\", \"record\" and \"replay\"; found \(exclusive.map { "\"\($0)\"" }.joined(separator: " and "))",
                at: node.offset)
        }
        let bodies = ["text", "file", "json", "attachment", "seq", "cycle", "sse"].filter { fields[$0] != nil }
        if let key = exclusive.first, !bodies.isEmpty {
            report(path, "\"\(key)\" produces the body; remove \(bodies.map { "\"\($0)\"" }.joined(separator: " and "))", at: node.offset)
        }
        if let proxy = fields["proxy"] { response.proxy = proxyDefinition(proxy, sessionLevel: false, at: path + ".proxy") }
        if let record = fields["record"] { response.record = recordDefinition(record, at: path + ".record") }
        if let replay = fields["replay"] { response.replay = replayDefinition(replay, at: path + ".replay") }
    }

    // MARK: proxy

    /// `{"proxy": {"from": "/legacy", "to": "http://backend/"}}` as a whole session: matches
    /// every uri under `from` (and the settings `context`).
    mutating func proxySession(
        _ proxy: JSONNode, fields: Fields, node: JSONNode, index: Int, scope: StubScope, description: String?, onComplete: EventDefinition?,
        before: Int, at path: String
    ) -> StubDefinition? {
        for key in ["request", "response", "redirectTo"] where fields[key] != nil {
            report(
                path + "." + key,
                "a session-level proxy stands alone (it matches every uri under \"from\"); put \"proxy\" inside a response to combine it with a request",
                at: fields[key]?.offset)
        }
        guard let definition = proxyDefinition(proxy, sessionLevel: true, at: path + ".proxy"), diagnostics.count == before,
            case .batch(let from, _) = definition.target
        else { return nil }
        var request = RequestPattern()
        request.uri = .match(NSRegularExpressionEscaping.escape(Self.normalizedPrefix(from)) + "(/.*)?")
        var response = ResponseDefinition()
        response.proxy = definition
        var session = StubDefinition(
            request: request, response: response, redirectTo: nil, description: description, scope: scope,
            reference: StubReference(file: file, index: index))
        session.onComplete = onComplete
        return session
    }

    /// `/api/` → `/api`, `api` → `/api`, `/` → "" (everything).
    static func normalizedPrefix(_ from: String) -> String {
        var text = from
        while text.hasSuffix("/") { text.removeLast() }
        if text.isEmpty { return "" }
        return text.hasPrefix("/") ? text : "/" + text
    }

    mutating func proxyDefinition(_ node: JSONNode, sessionLevel: Bool, at path: String) -> ProxyDefinition? {
        if node.stringValue != nil {
            guard !sessionLevel else {
                report(
                    path,
                    "a session-level proxy needs \"from\" and \"to\"; a single url belongs in a response: {\"response\": {\"proxy\": …}}",
                    at: node.offset)
                return nil
            }
            guard let url = string(node, at: path) else { return nil }
            guard checkURL(url, at: path, offset: node.offset) else { return nil }
            return ProxyDefinition(url: url)
        }
        let before = diagnostics.count
        guard
            let fields = members(
                node, at: path, allowed: ["url", "from", "to", "failover", "playback"],
                what: "a URL or {\"url\": …} / {\"from\": …, \"to\": …}")
        else { return nil }
        let target: ProxyDefinition.Target?
        if let urlNode = fields["url"] {
            if sessionLevel {
                report(
                    path + ".url",
                    "a session-level proxy needs \"from\" and \"to\"; a single url belongs in a response: {\"response\": {\"proxy\": …}}",
                    at: urlNode.offset)
            }
            if fields["from"] != nil || fields["to"] != nil {
                report(path, "use either \"url\" or \"from\" with \"to\", not both", at: node.offset)
            }
            let url = textValue(urlNode, at: path + ".url")
            if case .literal(let text)? = url { _ = checkURL(text, at: path + ".url", offset: urlNode.offset) }
            target = url.map(ProxyDefinition.Target.url)
        } else if fields["from"] != nil || fields["to"] != nil {
            guard let fromNode = fields["from"], let toNode = fields["to"] else {
                report(
                    path,
                    fields["from"] == nil
                        ? "\"to\" needs \"from\" (the uri prefix to forward)" : "\"from\" needs \"to\" (the upstream URL prefix)",
                    at: node.offset)
                return nil
            }
            let from = string(fromNode, at: path + ".from")
            let to = string(toNode, at: path + ".to")
            if let from, from.isEmpty {
                report(path + ".from", "expected a uri prefix such as \"/api\", got an empty string", at: fromNode.offset)
            }
            if let to { _ = checkURL(to, at: path + ".to", offset: toNode.offset) }
            target = from.flatMap { from in to.map { ProxyDefinition.Target.batch(from: from, to: $0) } }
        } else {
            report(path, "a proxy needs \"url\", or \"from\" and \"to\"", at: node.offset)
            return nil
        }
        if fields["failover"] != nil && fields["playback"] != nil {
            report(path, "use either \"failover\" or \"playback\", not both", at: node.offset)
        }
        let failover = fields["failover"].flatMap { savedExchanges($0, at: path + ".failover") }
        let playback = fields["playback"].flatMap { savedExchanges($0, at: path + ".playback") }
        guard diagnostics.count == before, let target else { return nil }
        return ProxyDefinition(target: target, failover: failover, playback: playback)
    }

    private mutating func checkURL(_ url: String, at path: String, offset: Int) -> Bool {
        do throws(UpstreamError) {
            _ = try UpstreamURL(url)
            return true
        } catch {
            if case .invalidURL(_, let reason) = error {
                report(path, "expected an absolute http:// or https:// URL, got \(quoted(url)): \(reason)", at: offset)
            }
            return false
        }
    }

    /// `"failover.json"` or `{"file": "failover.json", "status": [502, 503]}`.
    private mutating func savedExchanges(_ node: JSONNode, at path: String) -> SavedExchanges? {
        if node.stringValue != nil {
            guard let file = string(node, at: path) else { return nil }
            if file.isEmpty { report(path, "expected a file name, got an empty string", at: node.offset); return nil }
            return SavedExchanges(file: file)
        }
        guard let fields = members(node, at: path, allowed: ["file", "status"], what: "a file name or {\"file\": …, \"status\": […]}")
        else { return nil }
        guard let fileNode = required("file", in: fields, of: node, at: path, meaning: "where exchanges are saved") else { return nil }
        guard let file = string(fileNode, at: path + ".file") else { return nil }
        if file.isEmpty { report(path + ".file", "expected a file name, got an empty string", at: fileNode.offset) }
        var statuses = [400]
        if let statusNode = fields["status"] {
            let list = statusNode.elements ?? [statusNode]
            statuses = []
            for (offset, element) in list.enumerated() {
                let elementPath = statusNode.elements == nil ? path + ".status" : path + ".status[\(offset)]"
                if let code = statusCode(element, at: elementPath) {
                    if (100...599).contains(code) {
                        statuses.append(code)
                    } else {
                        report(elementPath, "expected a status code from 100 to 599, got \(code)", at: element.offset)
                    }
                }
            }
            if list.isEmpty { report(path + ".status", "expected at least one status code", at: statusNode.offset) }
        }
        return SavedExchanges(file: file, statuses: statuses)
    }

    // MARK: record / replay

    /// `"identifier"` (default group) or `{"group": …, "identifier": …, "tape": …}`.
    mutating func recordDefinition(_ node: JSONNode, at path: String, extraKeys: [String] = []) -> RecordDefinition? {
        if node.stringValue != nil {
            guard let identifier = string(node, at: path) else { return nil }
            if identifier.isEmpty { report(path, "expected an identifier, got an empty string", at: node.offset); return nil }
            return RecordDefinition(identifier: .literal(identifier))
        }
        guard
            let fields = members(
                node, at: path, allowed: ["group", "identifier", "tape"] + extraKeys,
                what: "an identifier or {\"group\": …, \"identifier\": …, \"tape\": …}")
        else { return nil }
        let before = diagnostics.count
        let group = fields["group"].flatMap { string($0, at: path + ".group") }
        if let group, group.isEmpty { report(path + ".group", "expected a group name, got an empty string", at: fields["group"]?.offset) }
        let identifier = fields["identifier"].flatMap { textValue($0, at: path + ".identifier") }
        let tape = fields["tape"].flatMap { string($0, at: path + ".tape") }
        if let tape, tape.isEmpty { report(path + ".tape", "expected a file name, got an empty string", at: fields["tape"]?.offset) }
        if group == nil && identifier == nil && tape == nil && extraKeys.isEmpty {
            report(path, "expected \"group\", \"identifier\" or \"tape\"", at: node.offset)
        }
        guard diagnostics.count == before else { return nil }
        return RecordDefinition(group: group, identifier: identifier, tape: tape)
    }

    mutating func replayDefinition(_ node: JSONNode, at path: String) -> ReplayDefinition? {
        let before = diagnostics.count
        guard let record = recordDefinition(node, at: path, extraKeys: ["modifier"]) else { return nil }
        var modifier: ReplayDefinition.Modifier?
        if let fields = node.members.map({ Fields(members: $0, count: $0.count) }), let modifierNode = fields["modifier"] {
            func modifierPath() -> String { path + ".modifier" }
            if modifierNode.stringValue != nil {
                modifier = string(modifierNode, at: modifierPath()).map { .template(.template($0)) }
            } else if let members = modifierNode.members, members.count == 1, members[0].key == "template" {
                modifier = textValue(modifierNode, at: modifierPath()).map { .template($0) }
            } else if modifierNode.members != nil {
                modifier = decodeResponse(modifierNode, at: modifierPath()).map { .response($0) }
            } else {
                expected("a template string, {\"template\": …} or a response object", at: modifierPath(), got: modifierNode)
            }
        }
        guard diagnostics.count == before else { return nil }
        return ReplayDefinition(record: record, modifier: modifier)
    }

    // MARK: events

    /// `{"complete": {"get"|"post": {…}, "async": "true", "latency": …}}`.
    mutating func eventSettings(_ node: JSONNode, at path: String) -> EventDefinition? {
        guard let on = members(node, at: path, allowed: ["complete"]) else { return nil }
        guard let complete = on["complete"] else {
            report(path, "expected {\"complete\": {\"get\": …} or {\"post\": …}}", at: node.offset)
            return nil
        }
        func completePath() -> String { path + ".complete" }
        let before = diagnostics.count
        guard let fields = members(complete, at: completePath(), allowed: ["get", "post", "async", "latency"]) else { return nil }
        let methods = ["get", "post"].filter { fields[$0] != nil }
        guard methods.count == 1, let methodKey = methods.first, let action = fields[methodKey] else {
            report(
                completePath(),
                methods.isEmpty ? "expected \"get\" or \"post\" (the call to fire)" : "expected one of \"get\" and \"post\", not both",
                at: complete.offset)
            return nil
        }
        let async = fields["async"].flatMap { boolean($0, at: completePath() + ".async") } ?? false
        let latency = fields["latency"].flatMap { duration($0, at: completePath() + ".latency") }
        if fields["latency"] != nil && !async {
            report(
                completePath() + ".latency", "latency applies to async events only; add \"async\": \"true\"", at: fields["latency"]?.offset)
        }
        func actionPath() -> String { completePath() + "." + methodKey }
        let allowed = methodKey == "get" ? ["url", "headers"] : ["url", "content", "json", "headers"]
        guard let parts = members(action, at: actionPath(), allowed: allowed) else { return nil }
        guard let urlNode = parts["url"] else {
            report(actionPath(), "expected \"url\" (where to send the event)", at: action.offset)
            return nil
        }
        let url = textValue(urlNode, at: actionPath() + ".url")
        if case .literal(let text)? = url { _ = checkURL(text, at: actionPath() + ".url", offset: urlNode.offset) }
        if parts["content"] != nil && parts["json"] != nil {
            report(actionPath(), "a post has \"content\" or \"json\", not both", at: action.offset)
        }
        if methodKey == "post" && parts["content"] == nil && parts["json"] == nil {
            report(actionPath(), "a post needs \"content\" or \"json\" (the body to send)", at: action.offset)
        }
        let content = parts["content"].flatMap { textValue($0, at: actionPath() + ".content") }
        let json = parts["json"]?.value
        var headers: [ResponseHeader] = []
        if let headerNode = parts["headers"] {
            if let list = headerNode.members {
                for member in list {
                    if let value = textValue(
                        member.value, at: actionPath() + ".headers" + JSONPathText.key(member.key), acceptScalars: true)
                    {
                        headers.append(ResponseHeader(name: member.key, value: value))
                    }
                }
            } else {
                expected("an object of header names to values", at: actionPath() + ".headers", got: headerNode)
            }
        }
        guard diagnostics.count == before, let url else { return nil }
        return EventDefinition(
            method: methodKey == "get" ? .get : .post, url: url, content: content, json: json, headers: headers, async: async,
            latency: latency)
    }
}
