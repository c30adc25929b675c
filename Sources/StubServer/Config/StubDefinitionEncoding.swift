/// `StubDefinition` back to moco's session JSON: what `StubServerClient` posts to
/// `/__admin/stubs` and what `GET /__admin/stubs` lists. Decoding the result gives the same
/// definition (moco trims string values, so leading and trailing spaces are not kept). The
/// settings a file's include passed down (`StubScope`) are not part of a session and are left out.
///
/// ```swift
/// StubDefinition(request: .get("/ping"), response: .text("pong")).mocoJSON.compactText
/// // {"request":{"method":"GET","uri":"/ping"},"response":{"text":"pong"}}
/// ```
extension StubDefinition {
    public var mocoJSON: JSONValue {
        var object = JSONObject()
        if let description { object.set("description", .string(description)) }
        if let request { object.set("request", request.mocoJSON) }
        if let response { object.set("response", response.mocoJSON) }
        if let redirectTo { object.set("redirectTo", redirectTo.mocoJSON) }
        if let scenario {
            var value = JSONObject()
            value.set("name", .string(scenario.name))
            if let requires = scenario.requires { value.set("requires", .string(requires)) }
            if let next = scenario.next { value.set("next", .string(next)) }
            object.set("scenario", .object(value))
        }
        return .object(object)
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
        for entry in entries { object.set(entry.key, entry.matcher.mocoJSON) }
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
            object.set(entry.name, value)
        }
        return .object(object)
    }
}

extension ResponseDefinition {
    /// moco's response object.
    public var mocoJSON: JSONValue {
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
            for cookie in cookies { list.set(cookie.name, cookie.mocoJSON) }
            object.set("cookies", .object(list))
        }
        if let version { object.set("version", version.mocoJSON) }
        if let latency { object.set("latency", Self.milliseconds(latency)) }
        if let attachment {
            var value: JSONObject = ["filename": .string(attachment.filename)]
            attachment.body.write(into: &value)
            object.set("attachment", .object(value))
        }
        switch sequence {
        case .seq(let responses): object.set("seq", .array(responses.map(\.mocoJSON)))
        case .cycle(let responses): object.set("cycle", .array(responses.map(\.mocoJSON)))
        case nil: break
        }
        return .object(object)
    }

    static func milliseconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
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
    var mocoJSON: JSONValue {
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
        if let maxAge { object.set("maxAge", ResponseDefinition.milliseconds(maxAge)) }
        if let sameSite { object.set("sameSite", .string(sameSite.rawValue)) }
        return .object(object)
    }
}
