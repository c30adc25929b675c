import OpenAPI

/// The response side: is every status the stub answers declared, its headers, and does its
/// body meet the response schema?
extension StubContractChecker {
    /// Headers the server or HTTP itself sets; documents rarely declare them.
    static let transportHeaders: Set<String> = [
        "content-type", "content-length", "date", "server", "connection", "transfer-encoding", "cache-control", "vary",
        "access-control-allow-origin", "set-cookie", "location",
    ]

    mutating func checkResponse(_ response: ResponseDefinition, scope: StubScope, operations: [APIOperation], site: Site, path: String) {
        if let sequence = response.sequence {
            let key: String
            if case .seq = sequence { key = ".seq" } else { key = ".cycle" }
            for (index, element) in sequence.responses.enumerated() {
                var merged = element
                if merged.status == nil { merged.status = response.status }
                merged.headers = response.headers + element.headers
                checkResponse(merged, scope: scope, operations: operations, site: site, path: path + key + "[\(index)]")
            }
            if response.body == nil { return }
        }
        // What the stub sends is decided elsewhere: an upstream, a recording, a broken connection.
        if response.proxy != nil || response.replay != nil || response.fault != nil || response.websocket != nil { return }
        let status = response.status ?? 200
        for operation in operations {
            guard let declared = operation.response(for: status) else {
                let list = operation.responses.map(\.status.description).joined(separator: ", ")
                add(
                    .drift, site, response.status == nil ? path : path + ".status",
                    "undeclared status \(status)\(response.status == nil ? " (the default)" : ""): \(operation.name) declares \(list.isEmpty ? "no responses" : list)"
                )
                continue
            }
            checkHeaders(response, declared: declared, operation: operation, site: site, path: path)
            checkBody(response, scope: scope, declared: declared, status: status, operation: operation, site: site, path: path)
        }
    }

    mutating func checkHeaders(_ response: ResponseDefinition, declared: Response, operation: APIOperation, site: Site, path: String) {
        for header in response.headers {
            let lower = header.name.lowercased()
            let headerPath = path + ".headers" + JSONPathText.key(header.name)
            guard let match = declared.headers.first(where: { $0.name.lowercased() == lower }) else {
                if !Self.transportHeaders.contains(lower) {
                    add(
                        .warning, site, headerPath,
                        "undeclared response header \(PathText.quoted(header.name)): \(operation.name) \(declared.status) declares \(declared.headers.isEmpty ? "no headers" : declared.headers.map(\.name).joined(separator: ", "))"
                    )
                }
                continue
            }
            guard case .literal(let value) = header.value, let schema = match.schema else { continue }
            for violation in validator.validate(
                Self.typed(value, as: validator.declaredType(of: schema)), against: schema, direction: .response)
            {
                add(
                    .drift, site, headerPath,
                    "response header \(PathText.quoted(header.name)) = \(PathText.quoted(value)): \(violation.message) (schema \(violation.schemaLocation))"
                )
            }
        }
        for match in declared.headers
        where match.required && !response.headers.contains(where: { $0.name.lowercased() == match.name.lowercased() }) {
            if Self.transportHeaders.contains(match.name.lowercased()) { continue }
            add(
                .warning, site, path,
                "the required response header \(PathText.quoted(match.name)) of \(operation.name) \(declared.status) is missing")
        }
    }

    /// The body the stub sends, as far as it is known before a request arrives.
    enum KnownBody {
        case none
        case json(JSONValue, path: String, file: (name: String, root: JSONNode, bytes: [UInt8])?)
        case text(String, path: String)
        case templated(String, path: String)
        case unknown(reason: String, path: String)
    }

    mutating func checkBody(
        _ response: ResponseDefinition, scope: StubScope, declared: Response, status: Int, operation: APIOperation, site: Site, path: String
    ) {
        let explicitType = response.headers.last { $0.name.lowercased() == "content-type" }.flatMap { header -> String? in
            if case .literal(let value) = header.value { return value }
            return nil
        }
        var body = response.body
        var bodyPath = path
        if let attachment = response.attachment {
            body = attachment.body
            bodyPath += ".attachment"
        }
        var contentType: String
        switch body {
        case .json?: contentType = explicitType ?? "application/json"
        case .text?: contentType = explicitType ?? "text/plain"
        case .file(let source)?:
            if case .literal(let name) = source.name {
                contentType = explicitType ?? ContentTypes.forFile(named: name, charset: nil)
            } else {
                contentType = explicitType ?? "unknown"
            }
        case nil:
            contentType = explicitType ?? (response.sse != nil ? "text/event-stream" : "")
        }
        if response.record != nil { contentType = "text/plain" }
        let hasBody = body != nil || response.sse != nil
        guard hasBody else {
            if !declared.content.isEmpty {
                add(
                    .warning, site, path,
                    "empty body, but \(operation.name) \(declared.status) declares \(declared.content.map(\.name).joined(separator: ", "))")
            }
            return
        }
        if declared.content.isEmpty {
            add(.drift, site, bodyPath, "\(operation.name) \(declared.status) declares no body, but the stub sends one")
            return
        }
        guard contentType != "unknown" else {
            add(.warning, site, bodyPath + ".file", "the file name is a template: the body is not checked")
            return
        }
        guard let media = declared.content(for: contentType) else {
            add(
                .drift, site, explicitType == nil ? bodyPath : path + ".headers",
                "content type \(MediaType.essence(contentType)) is not declared for \(operation.name) \(declared.status) (declared: \(declared.content.map(\.name).joined(separator: ", ")))"
            )
            return
        }
        guard let schema = media.schema, MediaType.isJSON(contentType) || MediaType.isJSON(media.name) else { return }
        switch knownBody(body, scope: scope, path: bodyPath, site: site) {
        case .none: return
        case .unknown(let reason, let where_):
            add(.warning, site, where_, "\(reason): the body is not checked")
        case .text(let text, let where_):
            guard let value = try? JSONValue(parsing: text) else {
                add(.drift, site, where_, "the body is not JSON, but \(operation.name) \(declared.status) declares \(media.name)")
                return
            }
            report(
                validator.validate(value, against: schema, direction: .response), operation: operation, status: declared.status, site: site,
                path: where_, file: nil)
        case .templated(let text, let where_):
            guard let value = Self.placeholderJSON(text) else {
                add(
                    .warning, site, where_,
                    "the template does not read as JSON with its placeholders standing in for values: the body is not checked")
                return
            }
            let violations = validator.validate(value, against: schema, direction: .response)
            report(violations, operation: operation, status: declared.status, site: site, path: where_, file: nil)
            if violations.isEmpty {
                add(.note, site, where_, "a template: checked with each ${…} standing for a value of unknown content that meets its schema")
            }
        case .json(let value, let where_, let file):
            report(
                validator.validate(value, against: schema, direction: .response), operation: operation, status: declared.status, site: site,
                path: where_, file: file)
        }
    }

    mutating func report(
        _ violations: [SchemaViolation], operation: APIOperation, status: Response.Status, site: Site, path: String,
        file: (name: String, root: JSONNode, bytes: [UInt8])?
    ) {
        for violation in violations.prefix(20) {
            if let file {
                var place = ""
                if let offset = file.root.offset(atPath: violation.instancePath) {
                    place = " (\(file.name) \(SourcePosition.locate(offset: offset, in: file.bytes)))"
                }
                add(
                    .drift, site, path,
                    "response body of \(operation.name) \(status), \(file.name) $\(violation.instancePath)\(place): \(violation.message) (schema \(violation.schemaLocation))"
                )
            } else {
                add(
                    .drift, site, path + violation.instancePath,
                    "response body of \(operation.name) \(status): \(violation.message) (schema \(violation.schemaLocation))")
            }
        }
        if violations.count > 20 {
            add(.drift, site, path, "… and \(violations.count - 20) more violations of the response schema of \(operation.name) \(status)")
        }
    }

    mutating func knownBody(_ body: ResponseBody?, scope: StubScope, path: String, site: Site) -> KnownBody {
        switch body {
        case nil:
            return .none
        case .json(let value)?:
            // moco writes a JSON string value raw (`"json": "hi"` sends `hi`).
            if case .string(let text) = value { return .text(text, path: path + ".json") }
            return .json(value, path: path + ".json", file: nil)
        case .text(.literal(let text))?:
            return .text(text, path: path + ".text")
        case .text(.template(let text, _))?:
            return .templated(text, path: path + ".text")
        case .file(let source)?:
            guard case .literal(let name) = source.name else {
                return .unknown(reason: "the file name is a template", path: path + ".file")
            }
            let bytes: [UInt8]
            switch ConfinedFiles.locate(name, root: scope.fileRoot, fallback: scope.fallbackRoot) {
            case .failure(let failure):
                return .unknown(reason: "the file \(PathText.quoted(name)) cannot be read (\(failure.message))", path: path + ".file")
            case .success(let located):
                do throws(RegularFile.Failure) {
                    bytes = try RegularFile.read(located, cap: RegularFile.configCap, kind: "response body")
                } catch {
                    return .unknown(reason: "the file \(PathText.quoted(name)) cannot be read (\(error.message))", path: path + ".file")
                }
            }
            if source.rendersContent {
                return .templated(String(decoding: bytes, as: UTF8.self), path: path + ".file")
            }
            guard let root = try? JSONParser.parse(bytes) else {
                return .text(String(decoding: bytes, as: UTF8.self), path: path + ".file")
            }
            return .json(root.value, path: path + ".file", file: (name, root, bytes))
        }
    }

    /// The template as JSON, every `${…}` replaced by the unknown-value marker: inside a JSON
    /// string it becomes part of the string, elsewhere a whole value. Nil when it still is not
    /// JSON (FreeMarker directives, a placeholder that builds a key…).
    static func placeholderJSON(_ template: String) -> JSONValue? {
        guard !template.contains("<#") else { return nil }
        var out = ""
        var inString = false
        var escaped = false
        var index = template.startIndex
        while index < template.endIndex {
            let char = template[index]
            if char == "$", template[index...].hasPrefix("${") {
                var depth = 0
                var end = index
                while end < template.endIndex {
                    if template[end] == "{" { depth += 1 }
                    if template[end] == "}" { depth -= 1; if depth == 0 { break } }
                    end = template.index(after: end)
                }
                guard end < template.endIndex else { return nil }
                out += inString ? unknownMarker : "\"" + unknownMarker + "\""
                index = template.index(after: end)
                escaped = false
                continue
            }
            if inString {
                if escaped { escaped = false } else if char == "\\" { escaped = true } else if char == "\"" { inString = false }
            } else if char == "\"" {
                inString = true
            }
            out.append(char)
            index = template.index(after: index)
        }
        return try? JSONValue(parsing: out)
    }
}
