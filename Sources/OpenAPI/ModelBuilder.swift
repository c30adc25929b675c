import Foundation
import RehearsalJSON

/// Builds the operation model from the loaded documents, collecting every problem.
struct ModelBuilder {
    let sources: DocumentSet
    var diagnostics: [OpenAPIDiagnostic] = []

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    init(sources: DocumentSet) { self.sources = sources }

    mutating func fail(_ location: DocumentLocation, _ message: String) {
        diagnostics.append(sources.diagnostic(location, message))
    }

    func child(_ location: DocumentLocation, _ key: String) -> DocumentLocation {
        sources.location(location.document, location.pointer + "/" + DocumentSet.escape(key))
    }

    /// The object at `location` after following `$ref`s, or nil (reported) when it is not an object.
    mutating func object(_ location: DocumentLocation, what: String) -> (DocumentLocation, JSONNode)? {
        switch sources.dereference(location) {
        case .failure(let failure):
            fail(location, failure.message)
            return nil
        case .success(let (target, node)):
            guard node.members != nil else {
                fail(target, "expected \(what) (an object), got \(node.kindDescription)")
                return nil
            }
            return (target, node)
        }
    }

    func member(_ node: JSONNode, _ key: String) -> JSONNode? {
        node.members?.first { $0.key == key }?.value
    }

    /// Whether `key` is `true` (absent or anything else: false).
    func flag(_ node: JSONNode, _ key: String) -> Bool {
        if case .bool(true)? = member(node, key)?.kind { return true }
        return false
    }

    /// The members of the object under `key`; nil when absent, or (reported) when not an object.
    mutating func objectMembers(_ key: String, of parent: JSONNode, at location: DocumentLocation, holding what: String)
        -> [JSONNode.Member]?
    {
        guard let node = member(parent, key) else { return nil }
        guard let members = node.members else {
            fail(location, "expected an object of \(what), got \(node.kindDescription)")
            return nil
        }
        return members
    }

    mutating func build() -> OpenAPIDocument? {
        let top = sources.location(0, "")
        let root = sources.documents[0].root
        guard root.members != nil else {
            fail(top, "expected an OpenAPI document (an object), got \(root.kindDescription)")
            return nil
        }
        let dialect: SchemaDialect
        let version: String
        if let text = member(root, "openapi")?.stringValue {
            version = text
            if text.hasPrefix("3.0.") || text == "3.0" {
                dialect = .openAPI30
            } else if text.hasPrefix("3.1.") || text == "3.1" {
                dialect = .openAPI31
            } else {
                fail(child(top, "openapi"), "unsupported OpenAPI version \(PathText.quoted(text)); expected 3.0.x or 3.1.x")
                return nil
            }
        } else if member(root, "swagger") != nil {
            fail(child(top, "swagger"), "Swagger 2.0 documents are not supported; convert to OpenAPI 3 (e.g. with swagger2openapi)")
            return nil
        } else {
            fail(top, "missing \"openapi\" (the OpenAPI version, e.g. \"3.1.0\")")
            return nil
        }
        let title = member(root, "info").flatMap { member($0, "title") }?.stringValue
        var basePaths: [String] = []
        if let servers = member(root, "servers") {
            if let elements = servers.elements {
                for (index, server) in elements.enumerated() {
                    if let base = basePath(server) {
                        if !basePaths.contains(base) { basePaths.append(base) }
                    } else {
                        fail(sources.location(0, "/servers/\(index)"), "expected a server object with a \"url\" string")
                    }
                }
            } else {
                fail(child(top, "servers"), "expected an array, got \(servers.kindDescription)")
            }
        }
        if basePaths.isEmpty { basePaths = [""] }
        var operations: [APIOperation] = []
        if let paths = member(root, "paths") {
            guard let members = paths.members else {
                fail(child(top, "paths"), "expected an object, got \(paths.kindDescription)")
                return nil
            }
            for entry in members {
                let itemLocation = child(child(top, "paths"), entry.key)
                guard entry.key.hasPrefix("/") else {
                    fail(itemLocation, "a path must start with \"/\"; got \(PathText.quoted(entry.key))")
                    continue
                }
                let template: PathTemplate
                switch PathTemplate.parse(entry.key) {
                case .failure(let failure):
                    fail(itemLocation, failure.message)
                    continue
                case .success(let parsed): template = parsed
                }
                operations += pathItem(itemLocation, path: entry.key, template: template)
            }
        }
        return OpenAPIDocument(
            version: version, dialect: dialect, title: title, basePaths: basePaths, operations: operations, sources: sources)
    }

    /// `https://api.example.com/v1/` → `/v1`; `{var}`s take their defaults.
    func basePath(_ server: JSONNode) -> String? {
        guard var url = member(server, "url")?.stringValue else { return nil }
        if let variables = member(server, "variables")?.members {
            for variable in variables {
                if let value = member(variable.value, "default")?.stringValue {
                    url = url.replacingOccurrences(of: "{\(variable.key)}", with: value)
                }
            }
        }
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        if let query = url.firstIndex(where: { $0 == "?" || $0 == "#" }) { url = String(url[..<query]) }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    mutating func pathItem(_ location: DocumentLocation, path: String, template: PathTemplate) -> [APIOperation] {
        guard let (itemLocation, item) = object(location, what: "a path item") else { return [] }
        let shared = parameters(child(itemLocation, "parameters"), in: item)
        var operations: [APIOperation] = []
        for method in Self.methods {
            guard member(item, method) != nil else { continue }
            guard let (operationLocation, node) = object(child(itemLocation, method), what: "an operation") else { continue }
            var merged = shared
            for parameter in parameters(child(operationLocation, "parameters"), in: node) {
                merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                merged.append(parameter)
            }
            for name in template.variableNames where !merged.contains(where: { $0.location == .path && $0.name == name }) {
                fail(operationLocation, "the path variable {\(name)} has no parameter with \"in\": \"path\"")
            }
            var requestBody: RequestBody?
            if member(node, "requestBody") != nil,
                let (bodyLocation, body) = object(child(operationLocation, "requestBody"), what: "a request body")
            {
                requestBody = RequestBody(
                    required: flag(body, "required"),
                    content: content(child(bodyLocation, "content"), in: body), location: bodyLocation)
            }
            var responses: [Response] = []
            if let responsesNode = member(node, "responses") {
                if let entries = responsesNode.members {
                    for entry in entries {
                        let responseLocation = child(child(operationLocation, "responses"), entry.key)
                        guard let status = Self.status(entry.key) else {
                            fail(
                                responseLocation,
                                "expected a status code (200), a range (2XX) or \"default\"; got \(PathText.quoted(entry.key))")
                            continue
                        }
                        guard let (target, response) = object(responseLocation, what: "a response") else { continue }
                        responses.append(
                            Response(
                                status: status, headers: headers(child(target, "headers"), in: response),
                                content: content(child(target, "content"), in: response), location: target))
                    }
                } else {
                    fail(child(operationLocation, "responses"), "expected an object, got \(responsesNode.kindDescription)")
                }
            }
            operations.append(
                APIOperation(
                    method: method.uppercased(), path: path, template: template, operationID: member(node, "operationId")?.stringValue,
                    parameters: merged, requestBody: requestBody, responses: responses, location: operationLocation,
                    jsonPath: sources.jsonPath(operationLocation)))
        }
        return operations
    }

    static func status(_ key: String) -> Response.Status? {
        if key == "default" { return .default }
        let bytes = Array(key.utf8)
        guard bytes.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[0]) else { return nil }
        if bytes[1] == UInt8(ascii: "X") || bytes[1] == UInt8(ascii: "x") {
            guard bytes[2] == UInt8(ascii: "X") || bytes[2] == UInt8(ascii: "x") else { return nil }
            return .range(Int(bytes[0] - UInt8(ascii: "0")))
        }
        return Int(key).map { .code($0) }
    }

    mutating func parameters(_ location: DocumentLocation, in parent: JSONNode) -> [Parameter] {
        guard let list = member(parent, "parameters") else { return [] }
        guard let elements = list.elements else {
            fail(location, "expected an array of parameters, got \(list.kindDescription)")
            return []
        }
        var result: [Parameter] = []
        for index in elements.indices {
            guard let (target, node) = object(sources.location(location.document, location.pointer + "/\(index)"), what: "a parameter")
            else { continue }
            guard let name = member(node, "name")?.stringValue else {
                fail(target, "a parameter needs a \"name\" string")
                continue
            }
            guard let place = member(node, "in")?.stringValue.flatMap(Parameter.Location.init(rawValue:)) else {
                fail(target, "parameter \(PathText.quoted(name)): \"in\" must be \"path\", \"query\", \"header\" or \"cookie\"")
                continue
            }
            let defaultStyle: Parameter.Style = (place == .query || place == .cookie) ? .form : .simple
            var style = defaultStyle
            if let written = member(node, "style") {
                guard let parsed = written.stringValue.flatMap(Parameter.Style.init(rawValue:)) else {
                    fail(
                        child(target, "style"),
                        "unknown style \(written.shortDescription); expected matrix, label, form, simple, spaceDelimited, pipeDelimited or deepObject"
                    )
                    continue
                }
                style = parsed
            }
            var explode = style == .form
            if let written = member(node, "explode"), case .bool(let flag) = written.kind { explode = flag }
            let required = flag(node, "required")
            if place == .path && !required {
                fail(target, "path parameter \(PathText.quoted(name)) must have \"required\": true")
            }
            var schema: DocumentLocation?
            if member(node, "schema") != nil {
                schema = child(target, "schema")
            } else if let contentNode = member(node, "content"), let first = contentNode.members?.first,
                member(first.value, "schema") != nil
            {
                schema = child(child(child(target, "content"), first.key), "schema")
            }
            let deprecated = flag(node, "deprecated")
            result.append(
                Parameter(
                    name: name, location: place, required: required, style: style, explode: explode, deprecated: deprecated, schema: schema,
                    documentLocation: target))
        }
        return result
    }

    mutating func content(_ location: DocumentLocation, in parent: JSONNode) -> [MediaType] {
        guard let entries = objectMembers("content", of: parent, at: location, holding: "media types") else { return [] }
        return entries.map { entry in
            let entryLocation = child(location, entry.key)
            return MediaType(
                name: entry.key, schema: member(entry.value, "schema") != nil ? child(entryLocation, "schema") : nil,
                location: entryLocation)
        }
    }

    mutating func headers(_ location: DocumentLocation, in parent: JSONNode) -> [Header] {
        guard let entries = objectMembers("headers", of: parent, at: location, holding: "headers") else { return [] }
        var result: [Header] = []
        for entry in entries {
            guard let (target, header) = object(child(location, entry.key), what: "a header") else { continue }
            let required = flag(header, "required")
            result.append(
                Header(name: entry.key, required: required, schema: member(header, "schema") != nil ? child(target, "schema") : nil))
        }
        return result
    }
}
