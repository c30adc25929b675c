/// A JSONPath expression (the Jayway subset moco users write): `$`, `.name`, `['name']`,
/// `[0]`, `[-1]`, `[0,2]`, `[1:3]`, `[*]`, `.*`, `..name`, and simple filters
/// `[?(@.price < 10)]`, `[?(@.isbn)]`.
///
/// ```swift
/// try JSONPath("$.items[*].sku").evaluate(json)   // every sku
/// ```
struct JSONPath: Sendable, Hashable {
    indirect enum Step: Sendable, Hashable {
        case child(String)
        case names([String])
        case index(Int)
        case indexes([Int])
        case slice(Int?, Int?)
        case wildcard
        case descendants(Step)
        case filter(Filter)
    }

    struct Filter: Sendable, Hashable {
        enum Comparison: String, Sendable, Hashable {
            case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        }
        var path: [String]
        var comparison: Comparison?
        var operand: JSONValue?
    }

    struct SyntaxError: Error, Sendable, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "invalid JSONPath at character \(offset + 1): \(message)" }
    }

    let source: String
    let steps: [Step]

    /// True when the path selects at most one value (no wildcards, slices, unions, filters or `..`).
    var isDefinite: Bool {
        steps.allSatisfy {
            switch $0 {
            case .child, .index: true
            default: false
            }
        }
    }

    init(_ source: String) throws(SyntaxError) {
        self.source = source
        var parser = Parser(characters: Array(source))
        steps = try parser.parse()
    }

    func evaluate(_ root: JSONValue) -> [JSONValue] {
        var current = [root]
        for step in steps {
            var next: [JSONValue] = []
            for value in current { Self.apply(step, to: value, into: &next) }
            current = next
            if current.isEmpty { break }
        }
        return current
    }

    private static func apply(_ step: Step, to value: JSONValue, into out: inout [JSONValue]) {
        switch step {
        case .child(let name):
            if let child = value.objectValue?[name] { out.append(child) }
        case .names(let names):
            guard let object = value.objectValue else { return }
            for name in names { if let child = object[name] { out.append(child) } }
        case .index(let index):
            guard let array = value.arrayValue else { return }
            let resolved = index < 0 ? array.count + index : index
            if resolved >= 0, resolved < array.count { out.append(array[resolved]) }
        case .indexes(let indexes):
            for index in indexes { apply(.index(index), to: value, into: &out) }
        case .slice(let start, let end):
            guard let array = value.arrayValue else { return }
            let count = array.count
            func clamp(_ bound: Int?, _ fallback: Int) -> Int {
                guard let bound else { return fallback }
                return min(max(bound < 0 ? count + bound : bound, 0), count)
            }
            let from = clamp(start, 0)
            let to = clamp(end, count)
            if from < to { out.append(contentsOf: array[from..<to]) }
        case .wildcard:
            switch value {
            case .array(let elements): out.append(contentsOf: elements)
            case .object(let object): out.append(contentsOf: object.members.map(\.value))
            default: break
            }
        case .descendants(let inner):
            // The value itself and every value below it, depth-first, in document order.
            var stack: [JSONValue] = [value]
            var visited: [JSONValue] = []
            while let next = stack.popLast() {
                visited.append(next)
                switch next {
                case .array(let elements): stack.append(contentsOf: elements.reversed())
                case .object(let object): stack.append(contentsOf: object.members.map(\.value).reversed())
                default: break
                }
            }
            for node in visited { apply(inner, to: node, into: &out) }
        case .filter(let filter):
            let candidates: [JSONValue]
            switch value {
            case .array(let elements): candidates = elements
            case .object(let object): candidates = object.members.map(\.value)
            default: candidates = []
            }
            for candidate in candidates where filter.accepts(candidate) { out.append(candidate) }
        }
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        func fail(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: index) }

        mutating func parse() throws(SyntaxError) -> [Step] {
            var steps: [Step] = []
            if index < characters.count, characters[index] == "$" {
                index += 1
            } else if index < characters.count, characters[index] != "." && characters[index] != "[" {
                // Jayway accepts `a.b` for `$.a.b`.
                steps.append(.child(try name()))
            }
            while index < characters.count {
                let character = characters[index]
                if character == "." {
                    index += 1
                    if index < characters.count, characters[index] == "." {
                        index += 1
                        if index < characters.count, characters[index] == "[" {
                            steps.append(.descendants(try bracket()))
                        } else if index < characters.count, characters[index] == "*" {
                            index += 1
                            steps.append(.descendants(.wildcard))
                        } else {
                            steps.append(.descendants(.child(try name())))
                        }
                    } else if index < characters.count, characters[index] == "*" {
                        index += 1
                        steps.append(.wildcard)
                    } else {
                        steps.append(.child(try name()))
                    }
                } else if character == "[" {
                    steps.append(try bracket())
                } else {
                    throw fail("expected '.' or '[', got '\(character)'")
                }
            }
            return steps
        }

        mutating func name() throws(SyntaxError) -> String {
            var result = ""
            while index < characters.count, characters[index] != ".", characters[index] != "[" {
                result.append(characters[index])
                index += 1
            }
            guard !result.isEmpty else { throw fail("expected a name") }
            return result
        }

        mutating func skipSpaces() {
            while index < characters.count, characters[index] == " " { index += 1 }
        }

        mutating func quoted() throws(SyntaxError) -> String {
            let quote = characters[index]
            index += 1
            var result = ""
            while index < characters.count, characters[index] != quote {
                if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                result.append(characters[index])
                index += 1
            }
            guard index < characters.count else { throw fail("unterminated string") }
            index += 1
            return result
        }

        mutating func integer() -> Int? {
            var text = ""
            if index < characters.count, characters[index] == "-" { text.append("-"); index += 1 }
            while index < characters.count, characters[index].isNumber { text.append(characters[index]); index += 1 }
            return Int(text)
        }

        mutating func expect(_ character: Character) throws(SyntaxError) {
            skipSpaces()
            guard index < characters.count, characters[index] == character else { throw fail("expected '\(character)'") }
            index += 1
        }

        mutating func bracket() throws(SyntaxError) -> Step {
            index += 1 // '['
            skipSpaces()
            guard index < characters.count else { throw fail("unterminated '['") }
            let character = characters[index]
            if character == "*" {
                index += 1
                try expect("]")
                return .wildcard
            }
            if character == "'" || character == "\"" {
                var names = [try quoted()]
                skipSpaces()
                while index < characters.count, characters[index] == "," {
                    index += 1
                    skipSpaces()
                    guard index < characters.count, characters[index] == "'" || characters[index] == "\"" else {
                        throw fail("expected a quoted name")
                    }
                    names.append(try quoted())
                    skipSpaces()
                }
                try expect("]")
                return names.count == 1 ? .child(names[0]) : .names(names)
            }
            if character == "?" {
                index += 1
                try expect("(")
                let filter = try filterExpression()
                try expect(")")
                try expect("]")
                return .filter(filter)
            }
            // Indexes, unions and slices.
            let first = integer()
            skipSpaces()
            if index < characters.count, characters[index] == ":" {
                index += 1
                skipSpaces()
                let end = integer()
                try expect("]")
                return .slice(first, end)
            }
            guard let first else { throw fail("expected an index, a quoted name, '*' or a filter") }
            var indexes = [first]
            while index < characters.count, characters[index] == "," {
                index += 1
                skipSpaces()
                guard let next = integer() else { throw fail("expected an index") }
                indexes.append(next)
                skipSpaces()
            }
            try expect("]")
            return indexes.count == 1 ? .index(first) : .indexes(indexes)
        }

        mutating func filterExpression() throws(SyntaxError) -> Filter {
            skipSpaces()
            guard index < characters.count, characters[index] == "@" else { throw fail("a filter starts with '@'") }
            index += 1
            var path: [String] = []
            while index < characters.count, characters[index] == "." || characters[index] == "[" {
                if characters[index] == "." {
                    index += 1
                    var name = ""
                    while index < characters.count,
                        characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "-"
                    {
                        name.append(characters[index])
                        index += 1
                    }
                    guard !name.isEmpty else { throw fail("expected a name after '@.'") }
                    path.append(name)
                } else {
                    index += 1
                    skipSpaces()
                    guard index < characters.count, characters[index] == "'" || characters[index] == "\"" else {
                        throw fail("expected a quoted name")
                    }
                    path.append(try quoted())
                    try expect("]")
                }
            }
            skipSpaces()
            var operatorText = ""
            while index < characters.count, "=!<>".contains(characters[index]) {
                operatorText.append(characters[index])
                index += 1
            }
            if operatorText.isEmpty { return Filter(path: path, comparison: nil, operand: nil) }
            guard let comparison = Filter.Comparison(rawValue: operatorText) else {
                throw fail("unsupported filter operator '\(operatorText)'")
            }
            skipSpaces()
            guard index < characters.count else { throw fail("expected a value after '\(operatorText)'") }
            let operand: JSONValue
            if characters[index] == "'" || characters[index] == "\"" {
                operand = .string(try quoted())
            } else {
                var literal = ""
                while index < characters.count, characters[index] != ")", characters[index] != " " {
                    literal.append(characters[index])
                    index += 1
                }
                switch literal {
                case "true": operand = .bool(true)
                case "false": operand = .bool(false)
                case "null": operand = .null
                default:
                    guard let number = JSONNumber(literal) else {
                        throw fail("expected a string, number, true, false or null, got '\(literal)'")
                    }
                    operand = .number(number)
                }
            }
            return Filter(path: path, comparison: comparison, operand: operand)
        }
    }
}

extension JSONPath.Filter {
    func accepts(_ candidate: JSONValue) -> Bool {
        var value = candidate
        for name in path {
            guard let child = value.objectValue?[name] else { return false }
            value = child
        }
        guard let comparison, let operand else { return true }
        switch (value, operand) {
        case (.number(let left), .number(let right)):
            return comparison.holds(left.doubleValue, right.doubleValue)
        case (.string(let left), .string(let right)):
            return comparison.holds(left, right)
        default:
            switch comparison {
            case .equal: return value == operand
            case .notEqual: return value != operand
            default: return false
            }
        }
    }
}

extension JSONPath.Filter.Comparison {
    /// `left <op> right` for numbers and strings alike (strings compare by Unicode order).
    @inline(__always)
    func holds<Value: Comparable>(_ left: Value, _ right: Value) -> Bool {
        switch self {
        case .equal: left == right
        case .notEqual: left != right
        case .less: left < right
        case .lessOrEqual: left <= right
        case .greater: left > right
        case .greaterOrEqual: left >= right
        }
    }
}
