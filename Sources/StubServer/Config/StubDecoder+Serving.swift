/// Decoding of the sessions that serve more than one path — `mount` and REST `resource` —
/// and of the response key `cors`.
extension StubDecoder {
    static let mountKeys = ["dir", "uri", "includes", "excludes"]
    static let resourceKeys = ["name", "get", "post", "put", "delete", "head", "patch", "resource"]
    static let resourceEntryKeys = ["id", "request", "response"]
    /// moco's names and their `Access-Control-*` aliases.
    static let corsKeys: [(name: String, alias: String)] = [
        ("allowOrigin", "Access-Control-Allow-Origin"), ("allowMethods", "Access-Control-Allow-Methods"),
        ("allowHeaders", "Access-Control-Allow-Headers"), ("maxAge", "Access-Control-Max-Age"),
        ("exposeHeaders", "Access-Control-Expose-Headers"), ("allowCredentials", "Access-Control-Allow-Credentials"),
    ]

    /// `{"mount": {…}}` or `{"resource": {…}}` (with an optional `description`).
    mutating func decodeServingSession(_ fields: Fields, node: JSONNode, index: Int, scope: StubScope, at path: String, before: Int)
        -> StubDefinition?
    {
        let kind = fields["mount"] != nil ? "mount" : "resource"
        for other in ["request", "response", "redirectTo", "mount", "resource", "websocket", "proxy", "on", "scenario"]
        where other != kind && fields[other] != nil {
            let hint =
                kind == "mount" && other == "response" ? "; write the response keys (headers, status, latency…) inside the mount" : ""
            report(path + "." + other, "a \(kind) session cannot also have \(quoted(other))\(hint)", at: fields[other]?.offset)
        }
        let description = fields["description"].flatMap { string($0, at: path + ".description", trim: false) }
        var definition = StubDefinition(
            request: nil, response: nil, redirectTo: nil, description: description, scope: scope,
            reference: StubReference(file: file, index: index))
        if let mount = fields["mount"] {
            guard let (point, response) = decodeMount(mount, at: path + ".mount") else { return nil }
            definition.mount = point
            definition.response = response
        } else if let resource = fields["resource"] {
            definition.resource = decodeResource(resource, isSub: false, at: path + ".resource")
        }
        return diagnostics.count == before ? definition : nil
    }

    private mutating func decodeMount(_ node: JSONNode, at path: String) -> (MountDefinition, ResponseDefinition)? {
        let before = diagnostics.count
        let response = decodeResponse(node, at: path, extraKeys: Self.mountKeys)
        guard let list = node.members else { return nil }
        let fields = Fields(members: list, count: list.count)
        guard let dirNode = fields["dir"], let uriNode = fields["uri"] else {
            report(
                path,
                "a mount needs \"dir\" (the directory) and \"uri\" (where it is served), e.g. {\"dir\": \"www\", \"uri\": \"/static\"}",
                at: node.offset)
            return nil
        }
        let dir = string(dirNode, at: path + ".dir")
        let uri = string(uriNode, at: path + ".uri")
        if let dir, dir.isEmpty { report(path + ".dir", "expected a directory name, got an empty string", at: dirNode.offset) }
        if let response, response.body != nil || response.attachment != nil {
            report(path, "a mount serves its files as the body; remove text, file, json or attachment", at: node.offset)
        }
        let includes = stringList(fields["includes"], at: path + ".includes")
        let excludes = stringList(fields["excludes"], at: path + ".excludes")
        for (key, list, listNode) in [("includes", includes, fields["includes"]), ("excludes", excludes, fields["excludes"])] {
            for (offset, glob) in list.enumerated() {
                do throws(GlobPattern.SyntaxError) { _ = try GlobPattern(glob) } catch {
                    report(path + ".\(key)[\(offset)]", error.description, at: listNode?.elements?[offset].offset)
                }
            }
        }
        guard diagnostics.count == before, let dir, let uri, let response else { return nil }
        return (MountDefinition(dir: dir, uri: uri, includes: includes, excludes: excludes), response)
    }

    private mutating func stringList(_ node: JSONNode?, at path: String) -> [String] {
        guard let node else { return [] }
        guard let elements = node.elements else {
            expected("an array of strings", at: path, got: node)
            return []
        }
        return elements.enumerated().compactMap { offset, element in string(element, at: "\(path)[\(offset)]") }
    }

    private mutating func decodeResource(_ node: JSONNode, isSub: Bool, at path: String) -> ResourceDefinition? {
        let before = diagnostics.count
        let allowed = isSub ? Self.resourceKeys + ["id"] : Self.resourceKeys
        guard let fields = members(node, at: path, allowed: allowed) else { return nil }
        var name = ""
        if let nameNode = fields["name"], let text = string(nameNode, at: path + ".name") {
            name = text
            let bare = text.hasPrefix("/") ? String(text.dropFirst()) : text
            if bare.isEmpty || bare.contains("/") {
                report(
                    path + ".name", "expected a resource name such as \"items\" (one path segment), got \(quoted(text))",
                    at: nameNode.offset)
            }
        } else if fields["name"] == nil {
            report(path, "a resource needs a \"name\" (its path segment, e.g. \"items\")", at: node.offset)
        }
        var resource = ResourceDefinition(name: name)
        if isSub {
            if let idNode = fields["id"] {
                resource.id = scalarText(idNode, at: path + ".id")
                if let id = resource.id, id.isEmpty || id.contains("/") {
                    report(path + ".id", "expected the parent's id (one path segment) or \"*\"", at: idNode.offset)
                }
            } else {
                report(path, "a sub-resource needs \"id\": the parent's id, or \"*\" for any", at: node.offset)
            }
        }
        func entries(_ key: String, idRule: IDRule) -> [ResourceEntry] {
            guard let list = fields[key] else { return [] }
            guard let elements = list.elements else {
                expected("an array of entries like {\"id\": \"1\", \"response\": {…}}", at: path + "." + key, got: list)
                return []
            }
            return elements.enumerated().compactMap { offset, element in
                decodeResourceEntry(element, method: key.uppercased(), idRule: idRule, at: "\(path).\(key)[\(offset)]")
            }
        }
        resource.get = entries("get", idRule: .optional)
        resource.post = entries("post", idRule: .forbidden)
        resource.put = entries("put", idRule: .required)
        resource.delete = entries("delete", idRule: .required)
        resource.head = entries("head", idRule: .optional)
        resource.patch = entries("patch", idRule: .required)
        if let subs = fields["resource"] {
            if let elements = subs.elements {
                resource.resources = elements.enumerated().compactMap { offset, element in
                    decodeResource(element, isSub: true, at: "\(path).resource[\(offset)]")
                }
            } else {
                expected(
                    "an array of sub-resources like {\"id\": \"*\", \"name\": \"parts\", \"get\": […]}", at: path + ".resource", got: subs)
            }
        }
        return diagnostics.count == before ? resource : nil
    }

    enum IDRule { case optional, required, forbidden }

    private mutating func decodeResourceEntry(_ node: JSONNode, method: String, idRule: IDRule, at path: String) -> ResourceEntry? {
        let before = diagnostics.count
        guard let fields = members(node, at: path, allowed: Self.resourceEntryKeys) else { return nil }
        var id: String?
        if let idNode = fields["id"] {
            id = scalarText(idNode, at: path + ".id")
            if idRule == .forbidden {
                report(path + ".id", "\(method) goes to the collection and takes no \"id\"", at: idNode.offset)
            } else if let text = id, text.isEmpty || text.contains("/") {
                report(path + ".id", "expected an id (one path segment) or \"*\" for any", at: idNode.offset)
            }
        } else if idRule == .required {
            report(path, "\(method) needs an \"id\" (\"*\" for any)", at: node.offset)
        }
        var request: RequestPattern?
        if let requestNode = fields["request"] {
            request = decodeRequest(requestNode, at: path + ".request")
            if let requestFields = requestNode.members {
                for key in ["uri", "method"] {
                    if let member = requestFields.first(where: { $0.key == key }) {
                        report(
                            path + ".request." + key, "the resource sets the \(key); an entry's request adds other conditions",
                            at: member.keyOffset)
                    }
                }
            }
        }
        guard let responseNode = fields["response"] else {
            report(path, "a resource entry needs a \"response\"", at: node.offset)
            return nil
        }
        let response = decodeResponse(responseNode, at: path + ".response")
        guard diagnostics.count == before, let response else { return nil }
        return ResourceEntry(id: id, request: request, response: response)
    }

    /// `true` or an object of moco's keys (or their `Access-Control-*` aliases).
    mutating func decodeCORS(_ node: JSONNode, at path: String) -> CORSPolicy? {
        if case .bool(let flag) = node.kind {
            if !flag {
                report(path, "expected true or an object such as {\"allowOrigin\": \"*\"}; leave cors out to disable it", at: node.offset)
            }
            return flag ? CORSPolicy() : nil
        }
        guard let list = node.members else {
            expected("true or an object such as {\"allowOrigin\": \"*\"}", at: path, got: node)
            return nil
        }
        let before = diagnostics.count
        var policy = CORSPolicy()
        var seen: Set<String> = []
        for member in list {
            func memberPath() -> String { path + JSONPathText.key(member.key) }
            guard let key = Self.corsKeys.first(where: { $0.name == member.key || $0.alias.lowercased() == member.key.lowercased() }) else {
                let names = Self.corsKeys.map(\.name)
                report(
                    memberPath(),
                    "unknown key\(Suggestion.didYouMean(member.key, among: names)); cors keys: \(names.joined(separator: ", ")) (or their Access-Control-* names)",
                    at: member.keyOffset)
                continue
            }
            guard seen.insert(key.name).inserted else {
                report(memberPath(), "repeated key; \(key.name) and \(key.alias) are the same setting", at: member.keyOffset)
                continue
            }
            switch key.name {
            case "allowOrigin":
                if let text = string(member.value, at: memberPath()) {
                    if text.isEmpty {
                        report(memberPath(), "expected an origin such as \"https://app.example\" or \"*\"", at: member.value.offset)
                    }
                    policy.allowOrigin = text
                }
            case "allowMethods": policy.allowMethods = corsList(member.value, at: memberPath())
            case "allowHeaders": policy.allowHeaders = corsList(member.value, at: memberPath())
            case "exposeHeaders": policy.exposeHeaders = corsList(member.value, at: memberPath())
            case "maxAge": policy.maxAge = duration(member.value, at: memberPath())
            default: policy.allowCredentials = boolean(member.value, at: memberPath())
            }
        }
        return diagnostics.count == before ? policy : nil
    }

    /// A list of names; a single string is accepted as a one-element list. An entry may hold
    /// several names (`"Content-Type, Authorization"`, as moco users write them): it is sent as
    /// written, joined to the others with a comma. Only line breaks are refused (they would end
    /// the header line).
    private mutating func corsList(_ node: JSONNode, at path: String) -> [String]? {
        if node.stringValue != nil { return string(node, at: path).map { [$0] } }
        guard let elements = node.elements else {
            expected("an array of strings", at: path, got: node)
            return nil
        }
        var values: [String] = []
        for (offset, element) in elements.enumerated() {
            guard let text = string(element, at: "\(path)[\(offset)]") else { continue }
            if text.isEmpty || text.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
                report("\(path)[\(offset)]", "expected a name (or names separated by commas) without line breaks", at: element.offset)
                continue
            }
            values.append(text)
        }
        return values
    }
}
