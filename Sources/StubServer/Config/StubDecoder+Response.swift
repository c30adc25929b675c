// moco's `response` object: body, status, headers, cookies, response files.
extension StubDecoder {
    mutating func decodeResponse(_ node: JSONNode, at path: String, extraKeys: [String] = []) -> ResponseDefinition? {
        let before = diagnostics.count
        guard
            let fields = members(
                node, at: path, allowed: extraKeys.isEmpty ? Self.responseKeys : Self.responseKeys + extraKeys,
                unsupported: Self.unsupportedResponseKeys)
        else { return nil }
        var response = ResponseDefinition()
        let bodyKeys = fields.count > 1 ? ["text", "file", "json"].filter { fields[$0] != nil } : []
        if bodyKeys.count > 1 {
            report(path, "a response has one body; found \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and "))", at: node.offset)
        }
        if fields["attachment"] != nil && !bodyKeys.isEmpty {
            report(
                path + ".attachment",
                "an attachment carries the body; remove \(bodyKeys.map { "\"\($0)\"" }.joined(separator: " and ")) or the attachment",
                at: fields["attachment"]?.offset)
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

    private mutating func fileSource(_ node: JSONNode, at path: String) -> FileSource? {
        if node.stringValue != nil {
            return string(node, at: path).map { FileSource(name: .literal($0)) }
        }
        guard
            let fields = members(
                node, at: path, allowed: ["name", "charset", "template"],
                what: "a file name, {\"name\": …, \"charset\": …} or {\"template\": …}")
        else { return nil }
        if let template = fields["template"] {
            // {"template": "greeting.txt"}: the file's content is a template.
            guard fields.count == 1 else {
                report(
                    path,
                    "\"template\" names a template file and stands alone; to build the name from the request write {\"name\": {\"template\": \"…\"}}",
                    at: node.offset)
                return nil
            }
            func templatePath() -> String { path + ".template" }
            if let name = template.stringValue {
                return FileSource(name: .literal(name.trimmedAsMoco(trimsText)), rendersContent: true)
            }
            guard
                let parts = members(
                    template, at: templatePath(), allowed: ["with", "vars"], what: "a template file name or {\"with\": …, \"vars\": …}")
            else { return nil }
            guard let with = parts["with"], let name = string(with, at: templatePath() + ".with") else {
                report(templatePath(), "expected \"with\" (the template file's name)", at: template.offset)
                return nil
            }
            let vars = parts["vars"].map { templateVariables($0, at: templatePath() + ".vars") } ?? [:]
            return FileSource(name: .literal(name), rendersContent: true, vars: vars)
        }
        guard let nameNode = required("name", in: fields, of: node, at: path, meaning: "the file to serve") else { return nil }
        let charset = fields["charset"].flatMap { string($0, at: path + ".charset") }
        return textValue(nameNode, at: path + ".name").map { FileSource(name: $0, charset: charset) }
    }

    private mutating func decodeCookie(_ name: String, _ node: JSONNode, at path: String) -> ResponseCookie? {
        if node.stringValue != nil || node.members == nil {
            return scalarText(node, at: path).map { ResponseCookie(name: name, value: .literal($0)) }
        }
        guard
            let fields = members(
                node, at: path, allowed: ["value", "path", "domain", "secure", "httpOnly", "maxAge", "sameSite", "template"])
        else { return nil }
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
}
