/// An Ant-style path template (moco's `path` operator, Spring's AntPathMatcher rules):
/// `{name}` captures one segment (or part of one), `{name:regex}` with a constraint, `*` any
/// characters within a segment, `?` one character, `**` any number of whole segments.
/// The whole path must match; a trailing slash must match too.
///
/// ```swift
/// try AntPathPattern("/api/v1/stories/{id}").match("/api/v1/stories/42")   // ["id": "42"]
/// ```
struct AntPathPattern: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case literal(String)
        case anyCharacters
        case oneCharacter
        case capture(String)
        case constrained(String, CompiledRegexBox)
    }

    enum Segment: Sendable, Hashable {
        case anySegments
        case pieces([Piece])
    }

    struct SyntaxError: Error, Sendable { var message: String }

    let source: String
    let segments: [Segment]
    let trailingSlash: Bool
    /// The pattern itself when it has no wildcard or capture (then it is an equality).
    let literal: String?
    let captureNames: [String]

    init(_ source: String) throws(SyntaxError) {
        self.source = source
        trailingSlash = source.hasSuffix("/") && source.count > 1
        var segments: [Segment] = []
        var names: [String] = []
        var isLiteral = true
        for part in source.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "**" {
                segments.append(.anySegments)
                isLiteral = false
                continue
            }
            var pieces: [Piece] = []
            var text = ""
            var index = part.startIndex
            while index < part.endIndex {
                let character = part[index]
                switch character {
                case "*", "?":
                    if !text.isEmpty { pieces.append(.literal(text)); text = "" }
                    pieces.append(character == "*" ? .anyCharacters : .oneCharacter)
                    isLiteral = false
                    index = part.index(after: index)
                case "{":
                    guard let close = part[index...].firstIndex(of: "}") else {
                        throw SyntaxError(message: "'{' without '}' in path \(quoted(source))")
                    }
                    let body = part[part.index(after: index)..<close]
                    let name: Substring
                    var constraint: Substring?
                    if let colon = body.firstIndex(of: ":") {
                        name = body[..<colon]
                        constraint = body[body.index(after: colon)...]
                    } else {
                        name = body
                    }
                    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                        throw SyntaxError(message: "invalid variable name {\(body)} in path \(quoted(source))")
                    }
                    if !text.isEmpty { pieces.append(.literal(text)); text = "" }
                    if let constraint {
                        do {
                            pieces.append(.constrained(String(name), CompiledRegexBox(try CompiledRegex(String(constraint)))))
                        } catch {
                            throw SyntaxError(message: "invalid regular expression in {\(body)}")
                        }
                    } else {
                        pieces.append(.capture(String(name)))
                    }
                    names.append(String(name))
                    isLiteral = false
                    index = part.index(after: close)
                case "}":
                    throw SyntaxError(message: "'}' without '{' in path \(quoted(source))")
                default:
                    text.append(character)
                    index = part.index(after: index)
                }
            }
            if !text.isEmpty { pieces.append(.literal(text)) }
            segments.append(.pieces(pieces))
        }
        self.segments = segments
        captureNames = names
        literal = isLiteral ? source : nil
    }

    /// The captured variables when `path` matches, nil otherwise.
    func match(_ path: String) -> [String: String]? {
        if let literal { return path == literal ? [:] : nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let pathTrailing = path.hasSuffix("/") && path.count > 1
        let endsWithAny = { if case .anySegments = segments.last { return true } else { return false } }()
        if pathTrailing != trailingSlash && !endsWithAny { return nil }
        guard path.hasPrefix("/") == source.hasPrefix("/") else { return nil }
        var captures: [String: String] = [:]
        return matchSegments(0, parts[...], &captures) ? captures : nil
    }

    private func matchSegments(_ patternIndex: Int, _ parts: ArraySlice<Substring>, _ captures: inout [String: String]) -> Bool {
        guard patternIndex < segments.count else { return parts.isEmpty }
        switch segments[patternIndex] {
        case .anySegments:
            // Try consuming zero, one, … segments.
            var rest = parts
            while true {
                var attempt = captures
                if matchSegments(patternIndex + 1, rest, &attempt) {
                    captures = attempt
                    return true
                }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .pieces(let pieces):
            guard let part = parts.first else { return false }
            var attempt = captures
            guard Self.matchPieces(pieces[...], Array(part)[...], &attempt) else { return false }
            guard matchSegments(patternIndex + 1, parts.dropFirst(), &attempt) else { return false }
            captures = attempt
            return true
        }
    }

    private static func matchPieces(_ pieces: ArraySlice<Piece>, _ text: ArraySlice<Character>, _ captures: inout [String: String]) -> Bool {
        guard let piece = pieces.first else { return text.isEmpty }
        let rest = pieces.dropFirst()
        switch piece {
        case .literal(let literal):
            let characters = Array(literal)
            guard text.count >= characters.count, text.prefix(characters.count).elementsEqual(characters) else { return false }
            return matchPieces(rest, text.dropFirst(characters.count), &captures)
        case .oneCharacter:
            guard !text.isEmpty else { return false }
            return matchPieces(rest, text.dropFirst(), &captures)
        case .anyCharacters, .capture, .constrained:
            // Longest first: Spring compiles these to greedy `(.*)`, so `{a}.{b}` on `x.y.z`
            // gives a = "x.y".
            for length in stride(from: text.count, through: 0, by: -1) {
                let taken = String(text.prefix(length))
                if case .constrained(_, let box) = piece, !box.regex.matchesWhole(taken) { continue }
                var attempt = captures
                switch piece {
                case .capture(let name), .constrained(let name, _): attempt[name] = taken
                default: break
                }
                if matchPieces(rest, text.dropFirst(length), &attempt) {
                    captures = attempt
                    return true
                }
            }
            return false
        }
    }
}

/// Lets a regex sit in a Hashable pattern (identity is the pattern text).
struct CompiledRegexBox: Sendable, Hashable {
    let regex: CompiledRegex
    init(_ regex: CompiledRegex) { self.regex = regex }
    static func == (lhs: CompiledRegexBox, rhs: CompiledRegexBox) -> Bool { lhs.regex.pattern == rhs.regex.pattern }
    func hash(into hasher: inout Hasher) { hasher.combine(regex.pattern) }
}
