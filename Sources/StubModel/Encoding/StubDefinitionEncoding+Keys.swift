/// moco JSON for the keys added beside the core session: `cors`, `proxy`, `record`, `replay`,
/// `sse`, `dribble`, `fault`, `websocket`, `mount`, `resource` and `on.complete`. Each writes the
/// shape `StubDecoder` reads back to the same value; what it cannot express throws
/// `StubEncodingError` (mostly values the decoder would refuse, so a post would fail anyway).

extension CORSPolicy {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        if isPermissive { return .bool(true) }
        var object = JSONObject()
        if let allowOrigin { object.set("allowOrigin", .string(allowOrigin)) }
        if let allowMethods { object.set("allowMethods", .array(allowMethods.map(JSONValue.string))) }
        if let allowHeaders { object.set("allowHeaders", .array(allowHeaders.map(JSONValue.string))) }
        if let maxAge { object.set("maxAge", try ResponseDefinition.milliseconds(maxAge, at: path + ".maxAge")) }
        if let exposeHeaders { object.set("exposeHeaders", .array(exposeHeaders.map(JSONValue.string))) }
        if let allowCredentials { object.set("allowCredentials", .bool(allowCredentials)) }
        return .object(object)
    }
}

extension ProxyDefinition {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        if failover != nil && playback != nil {
            throw StubEncodingError(path: path, reason: "a proxy has \"failover\" or \"playback\", not both")
        }
        var object = JSONObject()
        switch target {
        case .url(let url):
            if failover == nil && playback == nil, case .literal(let text) = url { return .string(text) }
            object.set("url", url.mocoJSON)
        case .batch(let from, let to):
            // Written inside the response: the decoder reads it as the same batch target, and the
            // session keeps the request a session-level proxy derives from `from`.
            object.set("from", .string(from))
            object.set("to", .string(to))
        }
        if let failover { object.set("failover", try failover.encodedMocoJSON(at: path + ".failover")) }
        if let playback { object.set("playback", try playback.encodedMocoJSON(at: path + ".playback")) }
        return .object(object)
    }
}

extension SavedExchanges {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        if statuses.isEmpty {
            throw StubEncodingError(path: path + ".status", reason: "moco JSON needs at least one failover status (the default is [400])")
        }
        if let bad = statuses.first(where: { !(100...599).contains($0) }) {
            throw StubEncodingError(path: path + ".status", reason: "\(bad) is not a status code from 100 to 599")
        }
        if statuses == [400] { return .string(file) }
        return ["file": .string(file), "status": .array(statuses.map { .number(JSONNumber($0)) })]
    }
}

extension RecordDefinition {
    /// `alone`: a `record` key (which needs at least one part), not the record half of a `replay`.
    func encodedMocoJSON(at path: String, alone: Bool) throws(StubEncodingError) -> JSONValue {
        var object = JSONObject()
        if let group { object.set("group", .string(group)) }
        if let identifier { object.set("identifier", identifier.mocoJSON) }
        if let tape { object.set("tape", .string(tape)) }
        if alone && object.isEmpty {
            throw StubEncodingError(path: path, reason: "a record needs a group, an identifier or a tape")
        }
        return .object(object)
    }
}

extension ReplayDefinition {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        guard case .object(var object) = try record.encodedMocoJSON(at: path, alone: false) else { return .null }
        switch modifier {
        case .template(.template(let text, let vars))?:
            object.set("modifier", TextValue.template(text, vars: vars).mocoJSON)
        case .template(.literal)?:
            throw StubEncodingError(path: path + ".modifier", reason: "a replay modifier is a template; write .template(.template(\"…\"))")
        case .response(let response)?:
            object.set("modifier", try response.encodedMocoJSON(at: path + ".modifier"))
        case nil: break
        }
        return .object(object)
    }
}

extension ServerSentEvents {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        var object = JSONObject()
        switch (events.isEmpty, file) {
        case (false, nil):
            var list: [JSONValue] = []
            for (index, event) in events.enumerated() { list.append(try event.encodedMocoJSON(at: "\(path).events[\(index)]")) }
            guard let delay else { return .array(list) }
            object.set("events", .array(list))
            object.set("delay", try ResponseDefinition.milliseconds(delay, at: path + ".delay"))
        case (true, let file?):
            object.set("file", file.mocoJSON)
            if let delay { object.set("delay", try ResponseDefinition.milliseconds(delay, at: path + ".delay")) }
        case (false, .some):
            throw StubEncodingError(path: path, reason: "server-sent events come from \"events\" or \"file\", not both")
        case (true, nil):
            throw StubEncodingError(path: path, reason: "server-sent events need at least one event or a file")
        }
        return .object(object)
    }
}

extension SSEEvent {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        if data.isEmpty { throw StubEncodingError(path: path + ".data", reason: "an event needs at least one data line") }
        for (key, value) in [("event", event), ("id", id)] + data.map({ ("data", Optional($0)) }) {
            if let value, value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                throw StubEncodingError(
                    path: path + "." + key, reason: "an event field cannot contain a line break; give data as separate lines")
            }
        }
        var object = JSONObject()
        if let event { object.set("event", .string(event)) }
        object.set("data", data.count == 1 ? .string(data[0]) : .array(data.map(JSONValue.string)))
        if let id { object.set("id", .string(id)) }
        if let retry {
            guard retry > 0 else {
                throw StubEncodingError(path: path + ".retry", reason: "retry is a positive number of milliseconds, got \(retry)")
            }
            object.set("retry", .number(JSONNumber(retry)))
        }
        if let delay { object.set("delay", try ResponseDefinition.milliseconds(delay, at: path + ".delay")) }
        return .object(object)
    }
}

extension Dribble {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        switch self {
        case .chunks(let count, let duration):
            guard count > 0 else { throw StubEncodingError(path: path + ".chunks", reason: "expected at least 1 chunk, got \(count)") }
            return [
                "chunks": .number(JSONNumber(count)), "duration": try ResponseDefinition.milliseconds(duration, at: path + ".duration"),
            ]
        case .bytesPerSecond(let rate):
            guard rate > 0 else {
                throw StubEncodingError(path: path + ".bytes_per_second", reason: "expected a positive number of bytes, got \(rate)")
            }
            return ["bytes_per_second": .number(JSONNumber(rate))]
        }
    }
}

extension WebSocketEndpoint {
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        var object: JSONObject = ["uri": .string(uri)]
        if let connected { object.set("connected", connected.mocoJSON) }
        if !pingPongs.isEmpty {
            object.set("pingpongs", .array(pingPongs.map { ["ping": .string($0.ping), "pong": .string($0.pong)] }))
        }
        if !sessions.isEmpty {
            var list: [JSONValue] = []
            for (index, session) in sessions.enumerated() {
                let reply = session.response
                if reply.content == nil && reply.group == nil && reply.broadcast == nil {
                    throw StubEncodingError(
                        path: "\(path).sessions[\(index)].response", reason: "a reply needs text, a file, a group or a broadcast")
                }
                var value = JSONObject()
                switch reply.content {
                case .text(let text)?: value.set("text", .string(text))
                case .file(let name)?: value.set("file", .string(name))
                case nil: break
                }
                if let group = reply.group { value.set("group", .string(group)) }
                if let broadcast = reply.broadcast {
                    var parts = JSONObject()
                    switch broadcast.content {
                    case .text(let text): parts.set("text", .string(text))
                    case .file(let name): parts.set("file", .string(name))
                    }
                    if let group = broadcast.group { parts.set("group", .string(group)) }
                    value.set("broadcast", .object(parts))
                }
                list.append(["request": session.request.mocoJSON, "response": .object(value)])
            }
            object.set("sessions", .array(list))
        }
        return .object(object)
    }
}

extension WebSocketEndpoint.MessageContent {
    var mocoJSON: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .file(let name): ["file": .string(name)]
        }
    }
}

extension ResourceDefinition {
    func encodedMocoJSON(isSub: Bool, at path: String) throws(StubEncodingError) -> JSONValue {
        var object: JSONObject = ["name": .string(name)]
        switch (isSub, id) {
        case (true, let id?): object.set("id", .string(id))
        case (true, nil): throw StubEncodingError(path: path, reason: "a sub-resource needs an id: the parent's, or \"*\" for any")
        case (false, .some): throw StubEncodingError(path: path + ".id", reason: "only a sub-resource has an id")
        case (false, nil): break
        }
        for (key, entries) in [("get", get), ("post", post), ("put", put), ("delete", delete), ("head", head), ("patch", patch)]
        where !entries.isEmpty {
            var list: [JSONValue] = []
            for (index, entry) in entries.enumerated() {
                var value = JSONObject()
                if let id = entry.id { value.set("id", .string(id)) }
                if let request = entry.request { value.set("request", request.mocoJSON) }
                value.set("response", try entry.response.encodedMocoJSON(at: "\(path).\(key)[\(index)].response"))
                list.append(.object(value))
            }
            object.set(key, .array(list))
        }
        if !resources.isEmpty {
            var list: [JSONValue] = []
            for (index, sub) in resources.enumerated() {
                list.append(try sub.encodedMocoJSON(isSub: true, at: "\(path).resource[\(index)]"))
            }
            object.set("resource", .array(list))
        }
        return .object(object)
    }
}

extension EventDefinition {
    /// The object under `on.complete`.
    func encodedMocoJSON(at path: String) throws(StubEncodingError) -> JSONValue {
        let key = method.rawValue.lowercased()
        if method == .get && (content != nil || json != nil) {
            throw StubEncodingError(path: path + ".get", reason: "a get event has no body; use .post for content or json")
        }
        if content != nil && json != nil {
            throw StubEncodingError(path: path + ".post", reason: "a post event has content or json, not both")
        }
        var action: JSONObject = ["url": url.mocoJSON]
        if let content { action.set("content", content.mocoJSON) }
        if let json { action.set("json", json) }
        if !headers.isEmpty {
            var list = JSONObject()
            for header in headers { list.set(header.name, header.value.mocoJSON) }
            action.set("headers", .object(list))
        }
        var object: JSONObject = [key: .object(action)]
        if async { object.set("async", .bool(true)) }
        if let latency {
            guard async else { throw StubEncodingError(path: path + ".latency", reason: "latency applies to async events only") }
            object.set("latency", try ResponseDefinition.milliseconds(latency, at: path + ".latency"))
        }
        return .object(object)
    }
}
