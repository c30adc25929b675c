import OpenAPI

/// `stubserver start --openapi`: each request the app sends and each response a stub sends,
/// checked against the API's OpenAPI document as the exchange happens. Runs on the event
/// loop, so every check is bounded: bodies over `maxBodyBytes` are not parsed, schema
/// `pattern`s run on the regex step budget, at most `maxViolations` are kept per exchange and
/// each message is cut at `maxMessageLength` characters.
///
/// ```swift
/// var options = StubServer.Options()
/// options.openAPI = try OpenAPILoader().load("Stubs/openapi.yaml")
/// let server = try StubServer(settingsFile: "Stubs/settings.json", options: options)
/// // … after the app ran …
/// XCTAssertEqual(try server.contractViolations(), [])
/// ```
struct RuntimeContractCheck: Sendable {
    let api: OpenAPIDocument
    let validator: SchemaValidator
    var maxViolations = 10
    var maxMessageLength = 300
    var maxBodyBytes = 1024 * 1024

    init(api: OpenAPIDocument) {
        self.api = api
        validator = SchemaValidator(api)
    }

    /// A violation before the exchange has a sequence number and a status (the journal adds them).
    struct Finding: Sendable {
        var side: ContractViolation.Side
        var location: String
        var message: String
    }

    /// The operation a request stands for (the most specific template for its method), or nil.
    func operation(for request: HTTPRequest, path: String) -> (APIOperation, [String: String])? {
        let method = request.method.uppercased()
        return api.operations(matchingPath: path).first { $0.operation.method == method }.map { ($0.operation, $0.variables) }
    }

    /// The request against its operation; an unknown path or method is one finding.
    func check(_ request: HTTPRequest, path: String) -> [Finding] {
        var found: [Finding] = []
        guard let (operation, variables) = operation(for: request, path: path) else {
            let methods = Self.unique(api.operations(matchingPath: path).map(\.operation.method))
            let message =
                methods.isEmpty
                ? "no operation of \(api.name) has the path \(path)"
                : "\(path) has no \(request.method.uppercased()) operation (it has \(methods.joined(separator: ", ")))"
            return [Finding(side: .request, location: "operation", message: message)]
        }
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
            guard let parameter = operation.parameter(name, in: .path) else { continue }
            for problem in problems([value], parameter) {
                found.append(Finding(side: .request, location: "path.\(name)", message: problem))
            }
        }
        let pairs = request.rawQuery.map(PercentDecoding.decodePairs) ?? []
        var queryValues: [String: [String]] = [:]
        for (name, value) in pairs { queryValues[name, default: []].append(value) }
        let declaresQuery = operation.parameters.contains { $0.location == .query }
        for parameter in operation.parameters {
            switch parameter.location {
            case .query:
                found += checkValues(
                    queryValues[parameter.name] ?? [], of: parameter, location: "query", kind: "query parameter",
                    absenceExcused: carriesProperties(of: parameter, in: queryValues))
            case .header:
                found += checkValues(request.headers.values(for: parameter.name), of: parameter, location: "header", kind: "header")
            case .path, .cookie:
                continue
            }
        }
        // Only an operation that declares query parameters says which ones it takes.
        if declaresQuery {
            for name in Self.unique(pairs.map(\.0)) where !declares(name, operation) {
                let known = operation.parameters.filter { $0.location == .query }.map(\.name).joined(separator: ", ")
                found.append(
                    Finding(
                        side: .request, location: "query.\(name)",
                        message: "undeclared query parameter \"\(name)\" (\(operation.name) declares \(known))"))
            }
        }
        found += checkRequestBody(request, operation)
        return found
    }

    /// The response a stub sent for `request`: its status declared, a JSON body against the schema.
    func check(_ response: HTTPResponse, for request: HTTPRequest, path: String) -> [Finding] {
        guard let (operation, _) = operation(for: request, path: path) else { return [] }
        guard let declared = operation.response(for: response.status) else {
            let statuses = operation.responses.map(\.status.description).joined(separator: ", ")
            return [
                Finding(
                    side: .response, location: "status",
                    message: "undeclared status \(response.status) (\(operation.name) declares \(statuses))")
            ]
        }
        guard !response.body.isEmpty, !declared.content.isEmpty else { return [] }
        return checkContent(
            response.body, contentType: response.headers["Content-Type"], declared: declared.content, lookup: declared.content(for:),
            of: "\(operation.name) \(response.status)", side: .response)
    }

    private func checkRequestBody(_ request: HTTPRequest, _ operation: APIOperation) -> [Finding] {
        guard let body = operation.requestBody else {
            return []
        }
        guard !request.body.isEmpty else {
            return body.required
                ? [Finding(side: .request, location: "body", message: "missing the required request body of \(operation.name)")] : []
        }
        return checkContent(
            request.body, contentType: request.headers["Content-Type"], declared: body.content, lookup: body.content(for:),
            of: "the body of \(operation.name)", side: .request)
    }

    /// A body's content type among those `declared` (found with `lookup`), then a JSON body
    /// against its schema. `subject` names the body in the message (`the body of GET /pets`).
    private func checkContent(
        _ body: [UInt8], contentType: String?, declared: [MediaType], lookup: (String) -> MediaType?, of subject: String,
        side: ContractViolation.Side
    ) -> [Finding] {
        let contentType = contentType ?? "application/octet-stream"
        guard let media = lookup(contentType) else {
            let types = declared.map(\.name).joined(separator: ", ")
            return [
                Finding(
                    side: side, location: "header.Content-Type",
                    message: "content type \(contentType) is not declared for \(subject) (declared: \(types))")
            ]
        }
        guard MediaType.isJSON(contentType), let schema = media.schema else { return [] }
        return checkJSON(body, schema, side: side, direction: side == .request ? .request : .response)
    }

    private func checkJSON(_ bytes: [UInt8], _ schema: DocumentLocation, side: ContractViolation.Side, direction: SchemaValidator.Direction)
        -> [Finding]
    {
        // The body is already buffered; parsing a huge one would hold the event loop.
        guard bytes.count <= maxBodyBytes else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            return [Finding(side: side, location: "body", message: "not JSON: \(error)")]
        }
        return validator.validate(value, against: schema, direction: direction).map {
            Finding(side: side, location: "body $\($0.instancePath)", message: "\($0.message) (schema \($0.schemaLocation))")
        }
    }

    /// A query parameter's or header's values: missing while required (unless `absenceExcused`),
    /// or each read the way its schema's type says. `kind` names the parameter in the message.
    private func checkValues(
        _ values: [String], of parameter: Parameter, location: String, kind: String, absenceExcused: @autoclosure () -> Bool = false
    ) -> [Finding] {
        let location = "\(location).\(parameter.name)"
        guard !values.isEmpty else {
            guard parameter.required && !absenceExcused() else { return [] }
            return [Finding(side: .request, location: location, message: "missing the required \(kind) \"\(parameter.name)\"")]
        }
        return problems(values, parameter).map { Finding(side: .request, location: location, message: $0) }
    }

    /// Problems of a parameter's values read the way its schema's type says.
    private func problems(_ values: [String], _ parameter: Parameter) -> [String] {
        guard let schema = parameter.schema else { return [] }
        let type = validator.declaredType(of: schema)
        if type == "object" { return [] }
        if type == "array", let items = validator.itemSchema(of: schema) {
            let pieces =
                parameter.location == .query && parameter.explode && parameter.style == .form
                ? values : values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let itemType = validator.declaredType(of: items)
            return pieces.flatMap {
                validator.validate(StubContractChecker.typed($0, as: itemType), against: items, direction: .request).map(\.description)
            }
        }
        return values.flatMap {
            validator.validate(StubContractChecker.typed($0, as: type), against: schema, direction: .request).map(\.description)
        }
    }

    /// A query name the operation takes: a parameter, `name[prop]` of a deepObject, or a
    /// property of an exploded form object.
    private func declares(_ name: String, _ operation: APIOperation) -> Bool {
        if operation.parameter(name, in: .query) != nil { return true }
        return operation.parameters.contains { parameter in
            guard parameter.location == .query else { return false }
            if parameter.style == .deepObject { return name.hasPrefix(parameter.name + "[") }
            guard parameter.style == .form, parameter.explode, let schema = parameter.schema, validator.declaredType(of: schema) == "object"
            else { return false }
            return validator.propertySchemas(of: schema).contains { $0.name == name }
        }
    }

    /// A required object parameter sent as `name[prop]=…` or as its exploded properties.
    private func carriesProperties(of parameter: Parameter, in values: [String: [String]]) -> Bool {
        if parameter.style == .deepObject { return values.keys.contains { $0.hasPrefix(parameter.name + "[") } }
        guard parameter.style == .form, parameter.explode, let schema = parameter.schema, validator.declaredType(of: schema) == "object"
        else { return false }
        return validator.propertySchemas(of: schema).contains { values[$0.name] != nil }
    }

    /// Keeps the first `maxViolations`, each message cut at `maxMessageLength`.
    func bounded(_ findings: [Finding]) -> [Finding] {
        var kept = Array(findings.prefix(maxViolations))
        for index in kept.indices where kept[index].message.count > maxMessageLength {
            kept[index].message = String(kept[index].message.prefix(maxMessageLength - 1)) + "…"
        }
        if findings.count > maxViolations, var last = kept.popLast() {
            last.message += " (and \(findings.count - maxViolations) more)"
            kept.append(last)
        }
        return kept
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
