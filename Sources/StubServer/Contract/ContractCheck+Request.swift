import OpenAPI

/// The request side: does the API know every condition the stub puts on a request, and can a
/// request the stub requires be valid?
extension StubContractChecker {
    /// Headers every HTTP exchange may carry; OpenAPI forbids declaring some of them as parameters.
    static let standardHeaders: Set<String> = [
        "accept", "accept-encoding", "accept-language", "authorization", "cache-control", "connection", "content-length",
        "content-type", "cookie", "host", "origin", "referer", "user-agent", "if-none-match", "if-modified-since", "x-requested-with",
    ]

    mutating func checkRequest(_ request: RequestPattern, candidates: [OperationLookup.Match], site: Site) {
        for match in candidates {
            for (name, value) in match.variables.sorted(by: { $0.key < $1.key }) {
                guard let parameter = match.operation.parameter(name, in: .path) else { continue }
                for problem in problems(value, parameter: parameter, key: name) {
                    add(
                        .drift, site, ".request.uri",
                        "path variable {\(name)} of \(match.operation.name) = \(PathText.quoted(value)): \(problem)")
                }
            }
        }
        checkParameters(request.queries, in: .query, candidates: candidates, site: site, path: ".request.queries")
        checkParameters(request.headers, in: .header, candidates: candidates, site: site, path: ".request.headers")
        checkParameters(request.cookies, in: .cookie, candidates: candidates, site: site, path: ".request.cookies")
        checkBody(request, candidates: candidates.map(\.operation), site: site)
    }

    /// The parameter a stub's key stands for: its name, `name[prop]` of a `deepObject`, or a
    /// property of an exploded `form` object; with the schema its value must meet.
    func parameter(for key: String, in location: Parameter.Location, of operation: APIOperation) -> (Parameter, DocumentLocation?)? {
        if let parameter = operation.parameter(key, in: location) { return (parameter, parameter.schema) }
        guard location == .query else { return nil }
        for parameter in operation.parameters where parameter.location == .query {
            guard let schema = parameter.schema else { continue }
            if parameter.style == .deepObject, key.hasPrefix(parameter.name + "["), key.hasSuffix("]") {
                let property = String(key.dropFirst(parameter.name.count + 1).dropLast())
                let properties = validator.propertySchemas(of: schema)
                if properties.isEmpty { return (parameter, nil) }
                if let found = properties.first(where: { $0.name == property }) { return (parameter, found.schema) }
            }
            if parameter.style == .form, parameter.explode, validator.declaredType(of: schema) == "object",
                let found = validator.propertySchemas(of: schema).first(where: { $0.name == key })
            {
                return (parameter, found.schema)
            }
        }
        return nil
    }

    mutating func checkParameters(
        _ matchers: KeyedMatchers, in location: Parameter.Location, candidates: [OperationLookup.Match], site: Site, path: String
    ) {
        for entry in matchers {
            let entryPath = path + JSONPathText.key(entry.key)
            if location == .header && Self.standardHeaders.contains(entry.key.lowercased()) { continue }
            let declaring = candidates.compactMap { match in
                parameter(for: entry.key, in: location, of: match.operation).map { (match.operation, $0.0, $0.1) }
            }
            if declaring.isEmpty {
                let names = Self.unique(candidates.flatMap { $0.operation.parameters.filter { $0.location == location }.map(\.name) })
                let operations = Self.unique(candidates.map(\.operation.name)).joined(separator: ", ")
                let known = names.isEmpty ? "none" : names.joined(separator: ", ")
                let message = "undeclared \(location.rawValue) parameter \(PathText.quoted(entry.key)): \(operations) declares \(known)"
                // Query and path parameters are the API's interface; headers and cookies often carry
                // what the document leaves to security schemes and proxies.
                add(location == .query ? .drift : .warning, site, entryPath, message)
                continue
            }
            for (operation, parameter, schema) in declaring {
                switch entry.value {
                case .equal(let value):
                    for problem in problems(value, parameter: parameter, key: entry.key, schema: schema) {
                        add(
                            .drift, site, entryPath,
                            "\(location.rawValue) parameter \(PathText.quoted(entry.key)) of \(operation.name) = \(PathText.quoted(value)): \(problem)"
                        )
                    }
                case .exist(false) where parameter.required:
                    add(
                        .warning, site, entryPath,
                        "requires the \(location.rawValue) parameter \(PathText.quoted(entry.key)) to be absent, but \(operation.name) requires it: no valid request matches this stub"
                    )
                default:
                    break
                }
                if parameter.deprecated {
                    add(
                        .warning, site, entryPath,
                        "the \(location.rawValue) parameter \(PathText.quoted(entry.key)) of \(operation.name) is deprecated")
                }
            }
        }
    }

    /// Schema violations of a parameter value written as text, read the way its style says.
    func problems(_ raw: String, parameter: Parameter, key: String, schema: DocumentLocation? = nil) -> [String] {
        guard let schema = schema ?? parameter.schema else { return [] }
        var text = raw
        switch parameter.style {
        case .label where text.hasPrefix("."): text.removeFirst()
        case .matrix where text.hasPrefix(";"):
            text.removeFirst()
            if text.hasPrefix(parameter.name + "=") { text.removeFirst(parameter.name.count + 1) }
        default: break
        }
        let type = validator.declaredType(of: schema)
        if type == "array", let items = validator.itemSchema(of: schema) {
            // A stub's query value is one of the repeated values when exploded; otherwise the whole list.
            let pieces: [String]
            if parameter.location == .query && parameter.explode && (parameter.style == .form) {
                pieces = [text]
            } else {
                let separator: Character =
                    parameter.style == .spaceDelimited
                    ? " " : parameter.style == .pipeDelimited ? "|" : (parameter.style == .label ? "." : ",")
                pieces = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            }
            return pieces.flatMap { piece in
                validator.validate(Self.typed(piece, as: validator.declaredType(of: items)), against: items, direction: .request).map(
                    \.message)
            }
        }
        if type == "object" { return [] } // object values in one string (`a,1,b,2`) are left alone
        return validator.validate(Self.typed(text, as: type), against: schema, direction: .request).map(\.message)
    }

    /// A parameter's text as the JSON value its schema's type reads it as (`"2"` → `2` for an
    /// integer); text that does not read as that type stays a string, so the type check fails.
    static func typed(_ text: String, as type: String?) -> JSONValue {
        switch type {
        case "integer", "number":
            if let number = JSONNumber(text) { return .number(number) }
        case "boolean":
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        case "null":
            if text.isEmpty || text == "null" { return .null }
        default:
            break
        }
        return .string(text)
    }

    static let formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"]

    mutating func checkBody(_ request: RequestPattern, candidates: [APIOperation], site: Site) {
        var bodyJSON: JSONValue?
        var bodyPath = ""
        if let json = request.json {
            bodyJSON = json
            bodyPath = ".request.json"
        } else if case .json(let json)? = request.text {
            bodyJSON = json
            bodyPath = ".request.text.json"
        }
        let hasForms = !request.forms.isEmpty
        let hasBody = hasForms || bodyJSON != nil || request.text != nil || request.file != nil || request.structure != nil
        guard hasBody else { return }
        let withBody = candidates.filter { $0.requestBody != nil }
        if withBody.isEmpty {
            let path = hasForms ? ".request.forms" : bodyPath.isEmpty ? ".request" : bodyPath
            add(
                .drift, site, path,
                "\(Self.unique(candidates.map(\.name)).joined(separator: ", ")) takes no request body, but the stub requires one")
            return
        }
        if hasForms {
            for operation in withBody {
                guard let body = operation.requestBody else { continue }
                guard let media = Self.formTypes.lazy.compactMap({ body.content(for: $0) }).first else {
                    add(
                        .drift, site, ".request.forms",
                        "\(operation.name) takes \(body.content.map(\.name).joined(separator: ", ")), not form fields")
                    continue
                }
                guard let schema = media.schema else { continue }
                let properties = validator.propertySchemas(of: schema)
                for entry in request.forms {
                    let entryPath = ".request.forms" + JSONPathText.key(entry.key)
                    guard let property = properties.first(where: { $0.name == entry.key }) else {
                        if !properties.isEmpty {
                            add(
                                .drift, site, entryPath,
                                "undeclared form field \(PathText.quoted(entry.key)): \(operation.name) takes \(properties.map(\.name).joined(separator: ", "))"
                            )
                        }
                        continue
                    }
                    if case .equal(let value) = entry.value {
                        for violation in validator.validate(
                            Self.typed(value, as: validator.declaredType(of: property.schema)), against: property.schema,
                            direction: .request)
                        {
                            add(
                                .drift, site, entryPath,
                                "form field \(PathText.quoted(entry.key)) of \(operation.name) = \(PathText.quoted(value)): \(violation.message) (schema \(violation.schemaLocation))"
                            )
                        }
                    }
                }
            }
        }
        if let bodyJSON {
            for operation in withBody {
                guard let body = operation.requestBody else { continue }
                guard let media = body.content(for: "application/json") else {
                    add(.drift, site, bodyPath, "\(operation.name) takes \(body.content.map(\.name).joined(separator: ", ")), not JSON")
                    continue
                }
                guard let schema = media.schema else { continue }
                for violation in validator.validate(bodyJSON, against: schema, direction: .request) {
                    add(
                        .drift, site, bodyPath + violation.instancePath,
                        "request body of \(operation.name): \(violation.message) (schema \(violation.schemaLocation))")
                }
            }
        }
    }
}
