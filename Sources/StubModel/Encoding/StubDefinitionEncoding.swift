/// `StubDefinition` back to moco's session JSON: what `StubServerClient` posts to
/// `/__admin/stubs` and what `GET /__admin/stubs` lists. Decoding the result gives the same
/// definition (moco trims string values, so leading and trailing spaces are not kept). The
/// settings a file's include passed down (`StubScope`) are not part of a session and are left out.
///
/// ```swift
/// StubDefinition(request: .get("/ping"), response: .text("pong")).mocoJSON.compactText
/// // {"request":{"method":"GET","uri":"/ping"},"response":{"text":"pong"}}
/// ```
/// `StubDefinition` back to moco's session JSON: what `StubServerClient` posts to
/// `/__admin/stubs` and what `GET /__admin/stubs` lists. Decoding the result gives the same
/// definition (moco trims string values, so leading and trailing spaces are not kept). The
/// settings a file's include passed down (`StubScope`) are not part of a session and are left out.
/// A part the JSON cannot express throws `StubEncodingError` instead of being dropped.
///
/// ```swift
/// try StubDefinition(request: .get("/ping"), response: .text("pong")).encodedMocoJSON().compactText
/// // {"request":{"method":"GET","uri":"/ping"},"response":{"text":"pong"}}
/// ```
extension StubDefinition {
    /// The session as moco JSON; throws when a part cannot be written (see `StubEncodingError`).
    public func encodedMocoJSON() throws(StubEncodingError) -> JSONValue {
        var object = JSONObject()
        if let description { object.set("description", .string(description)) }
        if let mount {
            try requireAlone("mount", allowing: [])
            var value: JSONObject = ["dir": .string(mount.dir), "uri": .string(mount.uri)]
            if !mount.includes.isEmpty { value.set("includes", .array(mount.includes.map(JSONValue.string))) }
            if !mount.excludes.isEmpty { value.set("excludes", .array(mount.excludes.map(JSONValue.string))) }
            // The mount's response keys are written beside dir and uri.
            if let response, case .object(let keys) = try response.encodedMocoJSON(at: "mount") {
                for member in keys { value.set(member.key, member.value) }
            }
            object.set("mount", .object(value))
            return .object(object)
        }
        if let resource {
            try requireAlone("resource", allowing: [])
            if response != nil {
                throw StubEncodingError(
                    path: "response", reason: "a resource session has no response of its own; put responses in the resource's entries")
            }
            object.set("resource", try resource.encodedMocoJSON(isSub: false, at: "resource"))
            return .object(object)
        }
        if let endpoint = response?.websocket {
            var bare = ResponseDefinition()
            bare.websocket = endpoint
            guard response == bare, request == RequestPattern(method: .equal("GET"), uri: .equal(endpoint.uri)) else {
                throw StubEncodingError(
                    path: "response.websocket",
                    reason: "a websocket endpoint stands alone; build the session with StubDefinition.websocket(_:)")
            }
            try requireAlone("websocket", allowing: ["request", "response"])
            object.set("websocket", try endpoint.encodedMocoJSON(at: "websocket"))
            return .object(object)
        }
        if let request { object.set("request", request.mocoJSON) }
        if let response { object.set("response", try response.encodedMocoJSON(at: "response")) }
        if let redirectTo { object.set("redirectTo", redirectTo.mocoJSON) }
        if let scenario {
            var value = JSONObject()
            value.set("name", .string(scenario.name))
            if let requires = scenario.requires { value.set("requires", .string(requires)) }
            if let next = scenario.next { value.set("next", .string(next)) }
            object.set("scenario", .object(value))
        }
        if let onComplete { object.set("on", ["complete": try onComplete.encodedMocoJSON(at: "on.complete")]) }
        return .object(object)
    }

    /// moco's mount, resource and websocket sessions carry nothing but their own key (and a
    /// description): the decoder would refuse or ignore anything else.
    private func requireAlone(_ kind: String, allowing: Set<String>) throws(StubEncodingError) {
        let others: [(String, Bool)] = [
            ("request", request != nil), ("redirectTo", redirectTo != nil), ("on", onComplete != nil), ("scenario", scenario != nil),
            ("mount", mount != nil && kind != "mount"), ("resource", resource != nil && kind != "resource"),
        ]
        for (key, present) in others where present && !allowing.contains(key) {
            throw StubEncodingError(path: key, reason: "a \(kind) session cannot also have \"\(key)\"")
        }
    }

    /// The session as moco JSON, for display (`GET /__admin/stubs`): a part that cannot be
    /// written shows as `{"error": "…"}` rather than vanishing. Post with `encodedMocoJSON()`.
    public var mocoJSON: JSONValue {
        do { return try encodedMocoJSON() } catch { return ["error": .string("cannot be written as moco JSON: \(error)")] }
    }
}

extension RequestPattern {
    /// moco's request matcher object.
    public var mocoJSON: JSONValue {
        var object = JSONObject()
        if let method { object.set("method", method.mocoJSON) }
        if let uri { object.set("uri", uri.mocoJSON) }
        if let version { object.set("version", version.mocoJSON) }
        for (key, keyed) in [("headers", headers), ("queries", queries), ("cookies", cookies), ("forms", forms)] where !keyed.isEmpty {
            object.set(key, keyed.mocoJSON)
        }
        if let text { object.set("text", text.mocoJSON) }
        if let file {
            switch file.comparison {
            case .json: object.set("file", ["json": .string(file.path)])
            case .xml: object.set("file", ["xml": .string(file.path)])
            case .exact:
                if let charset = file.charset {
                    object.set("file", ["name": .string(file.path), "charset": .string(charset)])
                } else {
                    object.set("file", .string(file.path))
                }
            }
        }
        if let json { object.set("json", json) }
        if !jsonPaths.isEmpty { object.set("json_paths", jsonPaths.mocoJSON) }
        if let structure {
            switch structure {
            case .json(let shape): object.set("struct", ["json": shape])
            case .xml(let text): object.set("struct", ["xml": .string(text)])
            }
        }
        if !xpaths.isEmpty { object.set("xpaths", xpaths.mocoJSON) }
        return .object(object)
    }
}

extension KeyedMatchers {
    var mocoJSON: JSONValue {
        var object = JSONObject()
        for entry in entries { object.set(entry.key, entry.value.mocoJSON) }
        return .object(object)
    }
}

extension TextMatcher {
    /// A string for equality, `{"operator": argument}` otherwise.
    public var mocoJSON: JSONValue {
        switch self {
        case .equal(let text): .string(text)
        case .match(let text): ["match": .string(text)]
        case .startsWith(let text): ["startsWith": .string(text)]
        case .endsWith(let text): ["endsWith": .string(text)]
        case .contain(let text): ["contain": .string(text)]
        case .exist(let flag): ["exist": .bool(flag)]
        case .path(let text): ["path": .string(text)]
        case .json(let value): ["json": value]
        case .xml(let text): ["xml": .string(text)]
        }
    }
}

extension TextValue {
    var mocoJSON: JSONValue {
        switch self {
        case .literal(let text): return .string(text)
        case .template(let text, let vars):
            if vars.isEmpty { return ["template": .string(text)] }
            return ["template": ["with": .string(text), "vars": vars.mocoJSON]]
        }
    }
}

extension TemplateVariables {
    var mocoJSON: JSONValue {
        var object = JSONObject()
        for entry in entries {
            let value: JSONValue
            switch entry.value {
            case .literal(let text): value = .string(text)
            case .jsonPath(let text): value = ["json_path": .string(text)]
            case .xpath(let text): value = ["xpath": .string(text)]
            case .header(let text): value = ["header": .string(text)]
            case .query(let text): value = ["query": .string(text)]
            case .form(let text): value = ["form": .string(text)]
            case .cookie(let text): value = ["cookie": .string(text)]
            }
            object.set(entry.key, value)
        }
        return .object(object)
    }
}

extension ResponseDefinition {
    /// moco's response object, for display; a part that cannot be written shows as `{"error": "…"}`.
    public var mocoJSON: JSONValue {
        do { return try encodedMocoJSON(at: "response") } catch { return ["error": .string("cannot be written as moco JSON: \(error)")] }
    }

    /// moco's response object; `path` names it in errors.
    public func encodedMocoJSON(at path: String = "response") throws(StubEncodingError) -> JSONValue {
        var object = JSONObject()
        if let body { body.write(into: &object) }
        if let status { object.set("status", .number(JSONNumber(status))) }
        if !headers.isEmpty {
            var list = JSONObject()
            for header in headers { list.set(header.name, header.value.mocoJSON) }
            object.set("headers", .object(list))
        }
        if !cookies.isEmpty {
            var list = JSONObject()
            for cookie in cookies { list.set(cookie.name, try cookie.encodedMocoJSON(at: "\(path).cookies.\(cookie.name)")) }
            object.set("cookies", .object(list))
        }
        if let version { object.set("version", version.mocoJSON) }
        if let latency { object.set("latency", try Self.milliseconds(latency, at: path + ".latency")) }
        if let attachment {
            var value: JSONObject = ["filename": .string(attachment.filename)]
            attachment.body.write(into: &value)
            object.set("attachment", .object(value))
        }
        switch sequence {
        case .seq(let responses), .cycle(let responses):
            let key = if case .seq = sequence { "seq" } else { "cycle" }
            var list: [JSONValue] = []
            for (index, response) in responses.enumerated() { list.append(try response.encodedMocoJSON(at: "\(path).\(key)[\(index)]")) }
            object.set(key, .array(list))
        case nil: break
        }
        if let cors { object.set("cors", try cors.encodedMocoJSON(at: path + ".cors")) }
        if let proxy { object.set("proxy", try proxy.encodedMocoJSON(at: path + ".proxy")) }
        if let record { object.set("record", try record.encodedMocoJSON(at: path + ".record", alone: true)) }
        if let replay { object.set("replay", try replay.encodedMocoJSON(at: path + ".replay")) }
        if let sse { object.set("sse", try sse.encodedMocoJSON(at: path + ".sse")) }
        if let dribble { object.set("dribble", try dribble.encodedMocoJSON(at: path + ".dribble")) }
        if let fault { object.set("fault", .string(fault.rawValue)) }
        if websocket != nil {
            throw StubEncodingError(
                path: path + ".websocket",
                reason: "a websocket endpoint is a session of its own; build it with StubDefinition.websocket(_:)")
        }
        return .object(object)
    }

    /// Whole milliseconds as a number, anything finer as nanoseconds; durations the decoder
    /// refuses (negative, longer than its maximum) throw rather than overflow.
    static func milliseconds(_ duration: Duration, at path: String) throws(StubEncodingError) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0, Double(seconds) <= StubDurationLimit.maximumSeconds else {
            throw StubEncodingError(
                path: path, reason: "\(duration) is not a duration moco JSON can hold (0 up to \(StubDurationLimit.maximumDescription))")
        }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000 == 0 { return .number(JSONNumber(Int(nanoseconds / 1_000_000))) }
        return ["duration": .number(JSONNumber(Int(nanoseconds))), "unit": "nanosecond"]
    }
}

extension ResponseBody {
    func write(into object: inout JSONObject) {
        switch self {
        case .text(let text): object.set("text", text.mocoJSON)
        case .json(let value): object.set("json", value)
        case .file(let source): object.set("file", source.mocoJSON)
        }
    }
}

extension FileSource {
    var mocoJSON: JSONValue {
        if rendersContent {
            if vars.isEmpty { return ["template": .string(name.source)] }
            return ["template": ["with": .string(name.source), "vars": vars.mocoJSON]]
        }
        if charset == nil, case .literal(let text) = name { return .string(text) }
        var object: JSONObject = ["name": name.mocoJSON]
        if let charset { object.set("charset", .string(charset)) }
        return .object(object)
    }
}

extension ResponseCookie {
    func encodedMocoJSON(at jsonPath: String) throws(StubEncodingError) -> JSONValue {
        var object = JSONObject()
        switch value {
        case .literal(let text): object.set("value", .string(text))
        case .template(let text, let vars):
            object.set("template", vars.isEmpty ? .string(text) : ["with": .string(text), "vars": vars.mocoJSON])
        }
        if let path { object.set("path", .string(path)) }
        if let domain { object.set("domain", .string(domain)) }
        if secure { object.set("secure", .bool(true)) }
        if httpOnly { object.set("httpOnly", .bool(true)) }
        if let maxAge { object.set("maxAge", try ResponseDefinition.milliseconds(maxAge, at: jsonPath + ".maxAge")) }
        if let sameSite { object.set("sameSite", .string(sameSite.rawValue)) }
        return .object(object)
    }
}
