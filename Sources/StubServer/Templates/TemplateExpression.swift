/// The expression inside `${…}`: moco's FreeMarker subset.
///
/// ```
/// expression := postfix ('!' default?)?
/// default    := postfix                      (usually a string literal)
/// postfix    := primary ('.' name | '[' expression ']' | '(' arguments ')')*
/// primary    := name | 'string' | "string" | number | '(' expression ')'
/// ```
indirect enum TemplateExpression: Sendable, Equatable {
    case variable(String)
    case string(String)
    case number(Double, text: String)
    case member(TemplateExpression, String)
    case index(TemplateExpression, TemplateExpression)
    case call(TemplateExpression, [TemplateExpression])
    /// `value!default`; a nil default renders "" (FreeMarker's `value!`).
    case orDefault(TemplateExpression, TemplateExpression?)

    /// The source-like rendering used in error messages (`req.queries['page']`).
    var display: String {
        switch self {
        case .variable(let name): name
        case .string(let text): "'\(text)'"
        case .number(_, let text): text
        case .member(let base, let name): "\(base.display).\(name)"
        case .index(let base, let key): "\(base.display)[\(key.display)]"
        case .call(let callee, let arguments): "\(callee.display)(\(arguments.map(\.display).joined(separator: ", ")))"
        case .orDefault(let value, let fallback): "\(value.display)!\(fallback?.display ?? "")"
        }
    }
}

/// A problem in a template's text, found when the configuration loads.
public struct TemplateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Character offset in the template where the problem starts.
    public var offset: Int

    public var description: String { "template error at character \(offset + 1): \(message)" }
}

/// Parses the text between `${` and `}`.
struct TemplateExpressionParser {
    enum Token: Equatable {
        case name(String)
        case string(String)
        case number(Double, String)
        case symbol(Character)
        case end
    }

    private var tokens: [(token: Token, offset: Int)] = []
    private var position = 0
    private var depth = 0

    /// `base` is the expression's offset in the whole template, for error messages.
    static func parse(_ text: Substring, base: Int) throws(TemplateSyntaxError) -> TemplateExpression {
        var parser = TemplateExpressionParser()
        parser.tokens = try tokenize(text, base: base)
        let expression = try parser.parseExpression()
        guard case .end = parser.current.token else {
            throw TemplateSyntaxError(
                message: "unexpected \(parser.describe(parser.current.token)) in expression", offset: parser.current.offset)
        }
        return expression
    }

    private var current: (token: Token, offset: Int) { tokens[position] }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func describe(_ token: Token) -> String {
        switch token {
        case .name(let name): "'\(name)'"
        case .string(let text): "string '\(text)'"
        case .number(_, let text): "number \(text)"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "end of expression"
        }
    }

    /// Deepest expression tree accepted: checking and rendering walk it recursively (on
    /// event-loop threads), so `${((((…))))}` or `${a[0][0]…}` from a config must not nest
    /// without bound.
    static let maximumDepth = 64

    private mutating func deeper() throws(TemplateSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw TemplateSyntaxError(message: "the expression nests deeper than \(Self.maximumDepth) levels", offset: current.offset)
        }
    }

    private mutating func parseExpression() throws(TemplateSyntaxError) -> TemplateExpression {
        try deeper()
        let outer = depth
        defer { depth = outer - 1 }
        let value = try parsePostfix()
        if case .symbol("!") = current.token {
            advance()
            switch current.token {
            case .end, .symbol(")"), .symbol("]"), .symbol(","):
                return .orDefault(value, nil)
            default:
                return .orDefault(value, try parsePostfix())
            }
        }
        if case .symbol(let symbol) = current.token, symbol == "?" {
            throw TemplateSyntaxError(message: "FreeMarker built-ins ('?…') are not supported", offset: current.offset)
        }
        if case .symbol(let symbol) = current.token, "+-*/<>=&|".contains(symbol) {
            throw TemplateSyntaxError(
                message: "operator '\(symbol)' is not supported; write two ${…} next to each other instead", offset: current.offset)
        }
        return value
    }

    private mutating func parsePostfix() throws(TemplateSyntaxError) -> TemplateExpression {
        var expression = try parsePrimary()
        while true {
            if case .symbol(let symbol) = current.token, symbol == "." || symbol == "[" || symbol == "(" { try deeper() }
            switch current.token {
            case .symbol("."):
                advance()
                guard case .name(let name) = current.token else {
                    throw TemplateSyntaxError(message: "expected a name after '.', got \(describe(current.token))", offset: current.offset)
                }
                advance()
                expression = .member(expression, name)
            case .symbol("["):
                advance()
                let key = try parseExpression()
                try consume("]")
                expression = .index(expression, key)
            case .symbol("("):
                advance()
                var arguments: [TemplateExpression] = []
                if case .symbol(")") = current.token {
                    advance()
                } else {
                    while true {
                        arguments.append(try parseExpression())
                        if case .symbol(",") = current.token { advance(); continue }
                        guard case .symbol(")") = current.token else {
                            throw TemplateSyntaxError(
                                message: "expected ',' or ')', got \(describe(current.token))", offset: current.offset)
                        }
                        advance()
                        break
                    }
                }
                expression = .call(expression, arguments)
            default:
                return expression
            }
        }
    }

    private mutating func parsePrimary() throws(TemplateSyntaxError) -> TemplateExpression {
        let token = current
        switch token.token {
        case .name(let name):
            advance()
            return .variable(name)
        case .string(let text):
            advance()
            return .string(text)
        case .number(let value, let text):
            advance()
            return .number(value, text: text)
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try consume(")")
            return inner
        case .end:
            throw TemplateSyntaxError(message: "empty expression", offset: token.offset)
        default:
            throw TemplateSyntaxError(message: "expected a name, a string or a number, got \(describe(token.token))", offset: token.offset)
        }
    }

    /// Steps over the closing `symbol`, or throws "expected ')', got …".
    private mutating func consume(_ symbol: Character) throws(TemplateSyntaxError) {
        guard current.token == .symbol(symbol) else {
            throw TemplateSyntaxError(message: "expected '\(symbol)', got \(describe(current.token))", offset: current.offset)
        }
        advance()
    }

    private static func tokenize(_ text: Substring, base: Int) throws(TemplateSyntaxError) -> [(token: Token, offset: Int)] {
        var tokens: [(token: Token, offset: Int)] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let offset = base + index
            if character.isWhitespace {
                index += 1
            } else if character.isLetter || character == "_" {
                var name = ""
                while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                    name.append(characters[index])
                    index += 1
                }
                tokens.append((.name(name), offset))
            } else if character.isNumber {
                var digits = ""
                while index < characters.count, characters[index].isNumber || characters[index] == "." {
                    digits.append(characters[index])
                    index += 1
                }
                guard let value = Double(digits) else {
                    throw TemplateSyntaxError(message: "invalid number \(digits)", offset: offset)
                }
                tokens.append((.number(value, digits), offset))
            } else if character == "'" || character == "\"" {
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == character { closed = true; index += 1; break }
                    if next == "\\", index + 1 < characters.count {
                        index += 1
                        switch characters[index] {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        default: value.append(characters[index])
                        }
                    } else {
                        value.append(next)
                    }
                    index += 1
                }
                guard closed else { throw TemplateSyntaxError(message: "unterminated string", offset: offset) }
                tokens.append((.string(value), offset))
            } else if ".[](),!?+-*/<>=&|".contains(character) {
                tokens.append((.symbol(character), offset))
                index += 1
            } else {
                throw TemplateSyntaxError(message: "unexpected character '\(character)'", offset: offset)
            }
        }
        tokens.append((.end, base + characters.count))
        return tokens
    }
}
