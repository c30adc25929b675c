import Foundation

/// A moco template, parsed once when the configuration loads and rendered per request.
///
/// Text outside `${…}` is copied as is; each `${expression}` is evaluated against the request
/// (`req.method`, `req.queries['page']`, `req.json.user.name`, `req.path.id`, …), the functions
/// `now('yyyy-MM-dd')` and `random(…)`, and the template's `vars`.
struct Template: Sendable {
    enum Segment: Sendable {
        case text(String)
        /// The expression and the offset of its `${` in the template.
        case expression(TemplateExpression, offset: Int)
    }

    let source: String
    let segments: [Segment]
    /// Names of `vars`, resolved per request.
    let variables: TemplateVariables

    /// True when the template has no `${…}` and no variables: it always renders its source.
    var isConstant: Bool { segments.allSatisfy { if case .text = $0 { true } else { false } } }

    /// What the template renders to when that does not depend on the request: its text and
    /// `${name}`s of literal `vars` only (`"src/${dir}/a.json"` with `"vars": {"dir": "x"}`).
    /// nil when any expression reads the request, the clock, a random number or an extractor.
    var constantRendering: String? {
        var literals: [String: String] = [:]
        for entry in variables.entries {
            if case .literal(let text) = entry.value { literals[entry.key] = text }
        }
        var out = ""
        for segment in segments {
            switch segment {
            case .text(let text): out += text
            case .expression(.variable(let name), _):
                guard let value = literals[name] else { return nil }
                out += value
            case .expression(.string(let text), _): out += text
            case .expression: return nil
            }
        }
        return out
    }

    /// Variables this template's expressions may read besides `req`, `now` and `random`.
    static let reservedNames: Set<String> = ["req", "now", "random"]

    init(_ source: String, variables: TemplateVariables = [:]) throws(TemplateSyntaxError) {
        self.source = source
        self.variables = variables
        var names = Set<String>()
        var lists: [String: String] = [:]
        for entry in variables.entries {
            if let kind = entry.value.listKind { lists[entry.key] = kind }
            if Template.reservedNames.contains(entry.key) {
                throw TemplateSyntaxError(
                    message: "the variable name '\(entry.key)' is reserved (req, now and random are built in)", offset: 0)
            }
            names.insert(entry.key)
        }
        segments = try Template.parseSegments(source)
        for segment in segments {
            if case .expression(let expression, let offset) = segment {
                try TemplateChecker(variables: names).check(expression, offset: offset)
                try Template.checkNotAList(expression, offset: offset, lists: lists)
            }
        }
    }

    /// `${agent}` where `agent` is a `vars` extractor that always gives a list (a header, query,
    /// cookie or XPath, or a JSONPath that can select several values) would fail on every request
    /// with "is a list": say so at load time, with the fix. A default (`${agent!'x'}`) changes
    /// nothing, since it applies only when nothing was found.
    private static func checkNotAList(
        _ expression: TemplateExpression, offset: Int, lists: [String: String]
    ) throws(TemplateSyntaxError) {
        var shown = expression
        if case .orDefault(let value, _) = expression { shown = value }
        guard case .variable(let name) = shown, let kind = lists[name] else { return }
        throw TemplateSyntaxError(
            message: "'\(name)' is a list (\(kind) gives every value it finds), so ${\(expression.display)} would fail on "
                + "every request; pick one value: ${\(name)[0]}",
            offset: offset)
    }

    /// `#`/`@` after `<` (or `</`): a FreeMarker directive or macro call.
    private static func directive(at index: Int, in characters: [Character]) -> String? {
        var position = index
        if position < characters.count, characters[position] == "/" { position += 1 }
        guard position + 1 < characters.count else { return nil }
        let next = characters[position + 1]
        guard next.isLetter else { return nil }
        switch characters[position] {
        case "#": return "directives"
        case "@": return "macro calls"
        default: return nil
        }
    }

    private static func parseSegments(_ source: String) throws(TemplateSyntaxError) -> [Segment] {
        var segments: [Segment] = []
        var text = ""
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            if characters[index] == "$", index + 1 < characters.count, characters[index + 1] == "{" {
                let start = index + 2
                var end = start
                var quote: Character?
                var depth = 0
                while end < characters.count {
                    let character = characters[end]
                    if let open = quote {
                        if character == "\\" { end += 1 } else if character == open { quote = nil }
                    } else if character == "'" || character == "\"" {
                        quote = character
                    } else if character == "{" {
                        depth += 1
                    } else if character == "}" {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    end += 1
                }
                guard end < characters.count else {
                    throw TemplateSyntaxError(message: "'${' is never closed with '}'", offset: index)
                }
                if !text.isEmpty {
                    segments.append(.text(text))
                    text = ""
                }
                let inner = String(characters[start..<end])
                segments.append(.expression(try TemplateExpressionParser.parse(inner[...], base: start), offset: index))
                index = end + 1
            } else {
                if characters[index] == "<", let directive = Self.directive(at: index + 1, in: characters) {
                    throw TemplateSyntaxError(
                        message:
                            "FreeMarker \(directive) (<#if>, <#list>, <@macro>) are not supported; only ${…} expressions are, with defaults like ${x!'none'}",
                        offset: index)
                }
                text.append(characters[index])
                index += 1
            }
        }
        if !text.isEmpty { segments.append(.text(text)) }
        return segments
    }

    /// Renders the template for one request.
    func render(_ context: TemplateContext) throws(TemplateRenderError) -> String {
        var out = ""
        var variableValues: [String: TemplateValue] = [:]
        for entry in variables.entries {
            variableValues[entry.key] = TemplateEvaluator.resolve(entry.value, in: context)
        }
        let evaluator = TemplateEvaluator(context: context, variables: variableValues)
        for segment in segments {
            switch segment {
            case .text(let text): out += text
            case .expression(let expression, _):
                out += try evaluator.render(try evaluator.evaluate(expression), for: expression)
            }
        }
        return out
    }
}

/// Why a template could not be rendered for a request. The response is then a 400 whose body
/// carries this message (moco answers 400 too, with an empty body).
public struct TemplateRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// True when the value is missing (a `!'default'` would have helped).
    public var isMissing: Bool

    public init(_ message: String, isMissing: Bool = false) {
        self.message = message
        self.isMissing = isMissing
    }

    public var description: String { message }
}

/// Static checks of names used in a template, so a typo fails at load time with a suggestion.
struct TemplateChecker {
    let variables: Set<String>

    static let requestMembers = [
        "method", "uri", "version", "content", "headers", "queries", "forms", "cookies", "json", "xml", "path", "client",
    ]
    static let clientMembers = ["address", "port"]

    func check(_ expression: TemplateExpression, offset: Int) throws(TemplateSyntaxError) {
        switch expression {
        case .variable(let name):
            if name == "now" || name == "random" {
                throw TemplateSyntaxError(message: "\(name) is a function; call it as \(name)(…)", offset: offset)
            }
            guard name == "req" || variables.contains(name) else {
                let known = ["req", "now", "random"] + variables.sorted()
                throw TemplateSyntaxError(message: "unknown variable '\(name)'\(Suggestion.didYouMean(name, among: known))", offset: offset)
            }
        case .string, .number:
            return
        case .member(.variable("req"), let member):
            guard Self.requestMembers.contains(member) else {
                throw TemplateSyntaxError(
                    message: "req has no '\(member)'\(Suggestion.didYouMean(member, among: Self.requestMembers))", offset: offset)
            }
        case .member(.member(.variable("req"), "client"), let member):
            guard Self.clientMembers.contains(member) else {
                throw TemplateSyntaxError(
                    message: "req.client has no '\(member)'\(Suggestion.didYouMean(member, among: Self.clientMembers))", offset: offset)
            }
        case .member(let base, _):
            try check(base, offset: offset)
        case .index(let base, let key):
            try check(base, offset: offset)
            try check(key, offset: offset)
        case .call(.variable(let name), let arguments):
            switch name {
            case "now":
                guard arguments.count == 1 else {
                    throw TemplateSyntaxError(message: "now needs one argument, a date format such as now('yyyy-MM-dd')", offset: offset)
                }
            case "random":
                guard arguments.count <= 3 else {
                    throw TemplateSyntaxError(message: "random takes at most three arguments: random(start, end, 'format')", offset: offset)
                }
            default:
                throw TemplateSyntaxError(message: "unknown function '\(name)'; the functions are now(…) and random(…)", offset: offset)
            }
            for argument in arguments { try check(argument, offset: offset) }
        case .call:
            throw TemplateSyntaxError(message: "only now(…) and random(…) can be called", offset: offset)
        case .orDefault(let value, let fallback):
            try check(value, offset: offset)
            if let fallback { try check(fallback, offset: offset) }
        }
    }
}
