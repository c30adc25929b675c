import Foundation

/// What a template sees about the request being answered.
struct TemplateContext {
    let view: RequestView
    /// `{name}` captures of the stub's `uri` `path` matcher; nil when it has none.
    let pathVariables: [String: String]?
    let now: Date

    init(view: RequestView, pathVariables: [String: String]?, now: Date = Date()) {
        self.view = view
        self.pathVariables = pathVariables
        self.now = now
    }
}

/// A value during template evaluation.
enum TemplateValue {
    case string(String)
    case number(Double, text: String?)
    case bool(Bool)
    case json(JSONValue)
    case list([TemplateValue])
    /// A name-indexed view of the request (`req`, `req.headers`, …).
    case namespace(Namespace)
    case null

    enum Namespace {
        case request, headers, queries, forms, cookies, path, client
    }

    static func from(_ json: JSONValue) -> TemplateValue {
        switch json {
        case .string(let text): .string(text)
        case .number(let number): .number(number.doubleValue, text: number.isInteger ? number.text : nil)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .array, .object: .json(json)
        }
    }
}

/// Evaluates expressions of one template against one request.
struct TemplateEvaluator {
    let context: TemplateContext
    let variables: [String: TemplateValue]

    func evaluate(_ expression: TemplateExpression) throws(TemplateRenderError) -> TemplateValue {
        switch expression {
        case .string(let text):
            return .string(text)
        case .number(let value, let text):
            return .number(value, text: text)
        case .variable(let name):
            if name == "req" { return .namespace(.request) }
            guard let value = variables[name] else { throw TemplateRenderError("\(name) is not defined", isMissing: true) }
            return value
        case .member(let base, let name):
            return try member(name, of: try evaluate(base), expression: expression)
        case .index(let base, let keyExpression):
            let key = try evaluate(keyExpression)
            return try index(try evaluate(base), key: key, expression: expression)
        case .call(.variable(let name), let arguments):
            let values = try arguments.map { (argument) throws(TemplateRenderError) in try evaluate(argument) }
            return try TemplateFunctions.call(name, values, now: context.now)
        case .call(let callee, _):
            throw TemplateRenderError("\(callee.display) cannot be called")
        case .orDefault(let value, let fallback):
            do {
                let result = try evaluate(value)
                if case .null = result { return try fallback.map { (f) throws(TemplateRenderError) in try evaluate(f) } ?? .string("") }
                return result
            } catch {
                // `!` supplies a value whenever the left side cannot produce one.
                return try fallback.map { (f) throws(TemplateRenderError) in try evaluate(f) } ?? .string("")
            }
        }
    }

    private func member(_ name: String, of base: TemplateValue, expression: TemplateExpression) throws(TemplateRenderError) -> TemplateValue
    {
        switch base {
        case .namespace(.request):
            let view = context.view
            switch name {
            case "method": return .string(view.request.method)
            case "uri": return .string(view.path)
            case "version": return .string(view.request.version.description)
            case "content": return .string(view.bodyText)
            case "headers": return .namespace(.headers)
            case "queries": return .namespace(.queries)
            case "forms": return .namespace(.forms)
            case "cookies": return .namespace(.cookies)
            case "path":
                guard context.pathVariables != nil else {
                    throw TemplateRenderError("req.path needs a \"uri\": {\"path\": \"…/{name}\"} matcher in the request")
                }
                return .namespace(.path)
            case "client": return .namespace(.client)
            case "json":
                switch view.json {
                case .success(let value): return .from(value)
                case .failure(let error):
                    throw TemplateRenderError("req.json: the request body is not JSON (\(error.description))", isMissing: true)
                }
            case "xml":
                return try XMLSupport.templateValue(for: view)
            default:
                throw TemplateRenderError("req has no '\(name)'")
            }
        case .namespace(.client):
            switch name {
            case "address": return .string(context.view.request.remoteAddress)
            case "port": return .number(Double(context.view.request.remotePort), text: String(context.view.request.remotePort))
            default: throw TemplateRenderError("req.client has no '\(name)'")
            }
        case .namespace:
            return try index(base, key: .string(name), expression: expression)
        case .json(.object(let object)):
            guard let value = object[name] else { throw TemplateRenderError("\(expression.display) is missing", isMissing: true) }
            return .from(value)
        case .null:
            throw TemplateRenderError("\(expression.display) is missing: its parent is null", isMissing: true)
        default:
            throw TemplateRenderError("\(expression.display): cannot read '\(name)' of \(kindName(base))")
        }
    }

    private func index(_ base: TemplateValue, key: TemplateValue, expression: TemplateExpression) throws(TemplateRenderError)
        -> TemplateValue
    {
        switch base {
        case .namespace(let namespace):
            guard case .string(let name) = key else {
                throw TemplateRenderError("\(expression.display): the key must be a string such as ['name']")
            }
            let view = context.view
            let found: String?
            switch namespace {
            case .headers: found = view.request.headers[name] // names compare case-insensitively
            case .queries: found = view.queries[name]?.first
            case .forms: found = view.forms[name]?.first
            case .cookies: found = view.cookies[name]?.first
            case .path: found = context.pathVariables?[name]
            case .request, .client: return try member(name, of: base, expression: expression)
            }
            guard let found else { throw TemplateRenderError("\(expression.display) is missing", isMissing: true) }
            return .string(found)
        case .json(.array(let elements)):
            let position = try Self.listPosition(key, expression: expression)
            guard position < elements.count else {
                throw TemplateRenderError("\(expression.display) is missing: the list has \(elements.count) elements", isMissing: true)
            }
            return .from(elements[position])
        case .json(.object(let object)):
            guard case .string(let name) = key else {
                throw TemplateRenderError("\(expression.display): the key must be a string")
            }
            guard let value = object[name] else { throw TemplateRenderError("\(expression.display) is missing", isMissing: true) }
            return .from(value)
        case .list(let elements):
            let position = try Self.listPosition(key, expression: expression)
            guard position < elements.count else {
                throw TemplateRenderError("\(expression.display) is missing: the list has \(elements.count) elements", isMissing: true)
            }
            return elements[position]
        case .null:
            throw TemplateRenderError("\(expression.display) is missing: its parent is null", isMissing: true)
        default:
            break
        }
        throw TemplateRenderError("\(expression.display): cannot index \(kindName(base))")
    }

    /// A list index from request data, checked: `Int(value)` traps on 1e300, infinity or NaN,
    /// and a client's JSON must never take the server down.
    static func listPosition(_ key: TemplateValue, expression: TemplateExpression) throws(TemplateRenderError) -> Int {
        guard case .number(let value, let text) = key else {
            throw TemplateRenderError("\(expression.display): a list index must be a whole number")
        }
        let shown = text ?? (value.isFinite ? DecimalPattern.mocoDefault.format(value) : "\(value)")
        guard value.isInfinite || value == value.rounded() else {
            throw TemplateRenderError("\(expression.display): a list index must be a whole number, got \(shown)")
        }
        guard value >= 0, let position = Int(exactly: value) else {
            throw TemplateRenderError("\(expression.display): the list index \(shown) is out of range")
        }
        return position
    }

    func kindName(_ value: TemplateValue) -> String {
        switch value {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .json(.array), .list: "a list"
        case .json: "an object"
        case .namespace: "a map"
        case .null: "null"
        }
    }

    /// Interpolation: strings as they are, numbers in moco's `#.#` format.
    func render(_ value: TemplateValue, for expression: TemplateExpression) throws(TemplateRenderError) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number, let text):
            if let text, !text.contains("."), !text.contains("e"), !text.contains("E") { return text }
            return DecimalPattern.mocoDefault.format(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null:
            throw TemplateRenderError("\(expression.display) is null; give a default with ${\(expression.display)!'…'}", isMissing: true)
        case .list:
            throw TemplateRenderError("\(expression.display) is a list; pick one value, e.g. ${\(expression.display)[0]}")
        case .json(.array):
            throw TemplateRenderError("\(expression.display) is a list; pick one value, e.g. ${\(expression.display)[0]}")
        case .json, .namespace:
            throw TemplateRenderError("\(expression.display) is an object; pick one of its values, e.g. ${\(expression.display).name}")
        }
    }

    /// The value of one `vars` entry for this request (missing values become null). Which
    /// extractors give a list is also what ``TemplateVariable/listKind`` says at load time.
    static func resolve(_ variable: TemplateVariable, in context: TemplateContext) -> TemplateValue {
        let view = context.view
        func list(_ values: [String]?) -> TemplateValue {
            guard let values, !values.isEmpty else { return .null }
            return .list(values.map(TemplateValue.string))
        }
        switch variable {
        case .literal(let text): return .string(text)
        case .header(let name): return list(view.request.headers.values(for: name))
        case .query(let name): return list(view.queries[name])
        // moco's form and cookie extractors read a name → value map: one value, not a list
        // (a repeated form field makes moco fail; the first value is the useful answer).
        case .form(let name): return view.forms[name]?.first.map(TemplateValue.string) ?? .null
        case .cookie(let name): return view.cookies[name]?.first.map(TemplateValue.string) ?? .null
        case .jsonPath(let path):
            guard let compiled = try? JSONPath(path), let json = view.jsonValue else { return .null }
            let results = compiled.evaluate(json)
            if compiled.isDefinite { return results.first.map(TemplateValue.from) ?? .null }
            return results.isEmpty ? .null : .list(results.map(TemplateValue.from))
        case .xpath(let expression):
            guard let values = XMLSupport.xpathValues(expression, in: view) else { return .null }
            return list(values)
        }
    }
}

extension TemplateVariable {
    /// For an extractor whose value is always a list (see `TemplateEvaluator.resolve`), what it is,
    /// for the load-time error; nil for a literal and a JSONPath that selects one value.
    var listKind: String? {
        switch self {
        case .literal: nil
        case .header: "a header extractor"
        case .query: "a query extractor"
        case .form, .cookie: nil // one value, as in moco
        case .xpath: "an xpath extractor"
        case .jsonPath(let path): (try? JSONPath(path)).map { $0.isDefinite ? nil : "a JSONPath that can select several values" } ?? nil
        }
    }
}
