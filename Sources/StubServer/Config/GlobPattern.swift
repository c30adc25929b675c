/// A file-name glob matched in linear time (a set of NFA states per character, never
/// backtracking), so `*a*a*a…*b` over long names costs stars × characters, not an explosion.
///
/// `*` any characters except `/` (when `slashes` separate directories), `**` any characters,
/// `?` one character, `[abc]` / `[a-z]` / `[!abc]` one of a set, `{a,b}` alternatives,
/// `\x` a literal `x` — Java's `glob:` syntax, which moco's mount includes use.
///
/// ```swift
/// let css = try GlobPattern("**/*.{css,js}")
/// css.matches("assets/site.css")    // true
/// ```
struct GlobPattern: Sendable {
    struct SyntaxError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    private enum Token: Sendable {
        case literal(Character)
        case any
        case set([ClosedRange<Character>], negated: Bool)
        case star
        case globstar
    }

    /// Bound on `{…}` expansion, so a pattern cannot multiply into millions of alternatives.
    static let maximumAlternatives = 256

    private let alternatives: [[Token]]
    private let slashes: Bool
    let source: String

    init(_ pattern: String, slashes: Bool = true) throws(SyntaxError) {
        source = pattern
        self.slashes = slashes
        var expanded: [String] = [""]
        var characters = Array(pattern)[...]
        // Expand {a,b} groups (not nested, as in Java) into whole alternatives.
        while let open = Self.unescapedIndex(of: "{", in: characters) {
            guard let close = Self.unescapedIndex(of: "}", in: characters[open...]) else {
                throw SyntaxError(description: "the glob \(quoted(pattern)) has a '{' without '}'")
            }
            let head = String(characters[..<open])
            let options = Self.split(characters[characters.index(after: open)..<close])
            var next: [String] = []
            for prefix in expanded {
                for option in options { next.append(prefix + head + option) }
            }
            guard next.count <= Self.maximumAlternatives else {
                throw SyntaxError(description: "the glob \(quoted(pattern)) expands to more than \(Self.maximumAlternatives) alternatives")
            }
            expanded = next
            characters = characters[characters.index(after: close)...]
        }
        let rest = String(characters)
        alternatives = expanded.map { Self.tokens(Array($0 + rest)) }
    }

    private static func unescapedIndex(of target: Character, in characters: ArraySlice<Character>) -> Int? {
        var index = characters.startIndex
        while index < characters.endIndex {
            if characters[index] == "\\" { index += 2; continue }
            if characters[index] == target { return index }
            index += 1
        }
        return nil
    }

    private static func split(_ characters: ArraySlice<Character>) -> [String] {
        var parts: [String] = [""]
        var index = characters.startIndex
        while index < characters.endIndex {
            let character = characters[index]
            if character == "\\", index + 1 < characters.endIndex {
                parts[parts.count - 1].append(character)
                parts[parts.count - 1].append(characters[index + 1])
                index += 2
                continue
            }
            if character == "," { parts.append("") } else { parts[parts.count - 1].append(character) }
            index += 1
        }
        return parts
    }

    private static func tokens(_ characters: [Character]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\" where index + 1 < characters.count:
                tokens.append(.literal(characters[index + 1]))
                index += 2
                continue
            case "*":
                if index + 1 < characters.count, characters[index + 1] == "*" {
                    tokens.append(.globstar)
                    while index < characters.count, characters[index] == "*" { index += 1 }
                } else {
                    // Consecutive stars behave as one (and keep the state count small).
                    if case .star? = tokens.last {} else { tokens.append(.star) }
                    index += 1
                }
                continue
            case "?":
                tokens.append(.any)
            case "[":
                if let close = characters[(index + 1)...].firstIndex(of: "]"), close > index + 1 {
                    var set = Array(characters[(index + 1)..<close])
                    var negated = false
                    if set.first == "!" || set.first == "^" {
                        negated = true
                        set.removeFirst()
                    }
                    var ranges: [ClosedRange<Character>] = []
                    var position = 0
                    while position < set.count {
                        if position + 2 < set.count, set[position + 1] == "-", set[position] <= set[position + 2] {
                            ranges.append(set[position]...set[position + 2])
                            position += 3
                        } else {
                            ranges.append(set[position]...set[position])
                            position += 1
                        }
                    }
                    tokens.append(.set(ranges, negated: negated))
                    index = close + 1
                    continue
                }
                tokens.append(.literal("["))
            default:
                tokens.append(.literal(character))
            }
            index += 1
        }
        return tokens
    }

    /// Whether the whole of `name` matches.
    func matches(_ name: String) -> Bool {
        let characters = Array(name)
        return alternatives.contains { Self.run($0, characters, slashes: slashes) }
    }

    private static func run(_ tokens: [Token], _ name: [Character], slashes: Bool) -> Bool {
        var current = [Bool](repeating: false, count: tokens.count + 1)
        var next = current
        current[0] = true
        close(&current, tokens)
        for character in name {
            for index in next.indices { next[index] = false }
            var alive = false
            for index in tokens.indices where current[index] {
                switch tokens[index] {
                case .literal(let expected):
                    if character == expected { next[index + 1] = true; alive = true }
                case .any:
                    if !(slashes && character == "/") { next[index + 1] = true; alive = true }
                case .set(let ranges, let negated):
                    let inSet = ranges.contains { $0.contains(character) }
                    if inSet != negated, !(slashes && character == "/") { next[index + 1] = true; alive = true }
                case .star:
                    if !(slashes && character == "/") { next[index] = true; alive = true }
                case .globstar:
                    next[index] = true
                    alive = true
                }
            }
            guard alive else { return false }
            close(&next, tokens)
            swap(&current, &next)
        }
        return current[tokens.count]
    }

    /// Stars match nothing too: a live star state also makes the state after it live.
    private static func close(_ states: inout [Bool], _ tokens: [Token]) {
        for index in tokens.indices where states[index] {
            switch tokens[index] {
            case .star, .globstar: states[index + 1] = true
            default: break
            }
        }
    }
}
