// moco's `websocket` session: endpoint, ping/pongs, message sessions and replies.
extension StubDecoder {
    /// `{"websocket": {"uri": …, "connected": …, "pingpongs": […], "sessions": […]}}`.
    mutating func decodeWebSocketSession(
        _ node: JSONNode, fields session: Fields, node sessionNode: JSONNode, index: Int, scope: StubScope, at path: String
    ) -> StubDefinition? {
        let before = diagnostics.count
        for other in ["request", "response", "redirectTo", "proxy", "on", "scenario"] where session[other] != nil {
            report(
                path + "." + other, "a websocket session stands alone; \(quoted(other)) does not go with \"websocket\"",
                at: sessionNode.offset)
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
            forEachPair(
                in: list, at: wsPath() + ".pingpongs", keys: ("ping", "pong"), shape: "{\"ping\": \"…\", \"pong\": \"…\"}",
                arrayOf: "{\"ping\": …, \"pong\": …}"
            ) { decoder, pairPath, ping, pong in
                if let ping = decoder.controlText(ping, at: pairPath + ".ping"),
                    let pong = decoder.controlText(pong, at: pairPath + ".pong")
                {
                    endpoint.pingPongs.append(.init(ping: ping, pong: pong))
                }
            }
        }
        if let list = fields["sessions"] {
            forEachPair(
                in: list, at: wsPath() + ".sessions", keys: ("request", "response"),
                shape: "{\"request\": \"…\", \"response\": {…}}", arrayOf: "{\"request\": …, \"response\": …}"
            ) { decoder, sessionPath, request, response in
                let message = decoder.messageContent(request, at: sessionPath + ".request")
                let reply = decoder.webSocketReply(response, at: sessionPath + ".response")
                if let message, let reply { endpoint.sessions.append(.init(request: message, response: reply)) }
            }
        }
        let description = session["description"].flatMap { string($0, at: path + ".description", trim: false) }
        guard diagnostics.count == before else { return nil }
        var definition = StubDefinition.websocket(endpoint, description: description)
        definition.scope = scope
        definition.reference = StubReference(file: file, index: index)
        return definition
    }

    /// Calls `body` with each element of the array `list` that is an object of exactly the two
    /// `keys` (`pingpongs`, `sessions`), its path and the two values; reports the elements that
    /// are not (expected `shape`), and a `list` that is not an array of them.
    private mutating func forEachPair(
        in list: JSONNode, at path: String, keys: (String, String), shape: String, arrayOf: String,
        _ body: (inout StubDecoder, String, JSONNode, JSONNode) -> Void
    ) {
        guard let elements = list.elements else {
            expected("an array of " + arrayOf, at: path, got: list)
            return
        }
        for (offset, element) in elements.enumerated() {
            let elementPath = path + "[\(offset)]"
            guard let pair = members(element, at: elementPath, allowed: [keys.0, keys.1]) else { continue }
            guard let first = pair[keys.0], let second = pair[keys.1] else {
                report(elementPath, "expected " + shape, at: element.offset)
                continue
            }
            body(&self, elementPath, first, second)
        }
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
            diagnostics.count == before
        else { return nil }
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
            report(
                path, "a reply has one of \"text\" or \"file\", not \(bodies.map { quoted($0) }.joined(separator: " and "))",
                at: node.offset)
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
            } else if let parts = members(
                broadcast, at: path + ".broadcast", allowed: ["text", "content", "file", "group"],
                what: "a string or {\"text\": …, \"group\": …}")
            {
                let group = parts["group"].flatMap { string($0, at: path + ".broadcast.group") }
                let bodies = ["text", "content", "file"].filter { parts[$0] != nil }
                if bodies.count != 1 {
                    report(path + ".broadcast", "expected exactly one of \"content\", \"text\" or \"file\"", at: broadcast.offset)
                } else if bodies[0] == "file" {
                    if let name = fileName(parts["file"]!, at: path + ".broadcast.file") {
                        reply.broadcast = .init(content: .file(name), group: group)
                    }
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
