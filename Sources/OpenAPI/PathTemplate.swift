/// An OpenAPI path template (`/users/{id}/posts`, `/files/{name}.{ext}`): literal text and
/// `{variable}`s, each variable matching within one segment.
///
/// ```swift
/// let template = try PathTemplate.parse("/users/{id}").get()
/// template.match("/users/42")       // ["id": "42"]
/// template.match("/users/42/x")     // nil
/// ```
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Piece: Sendable, Hashable {
        case literal(String)
        case variable(String)
    }

    /// One entry per `/`-separated segment (the leading `/` gives no segment).
    public var segments: [[Piece]]
    public var description: String

    public struct Failure: Error, Sendable {
        public var message: String
    }

    public static func parse(_ text: String) -> Result<PathTemplate, Failure> {
        var segments: [[Piece]] = []
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var pieces: [Piece] = []
            var literal = ""
            var rest = Substring(raw)
            while let open = rest.firstIndex(of: "{") {
                literal += rest[..<open]
                guard let close = rest[open...].firstIndex(of: "}") else {
                    return .failure(Failure(message: "unclosed \"{\" in the path template \(PathText.quoted(text))"))
                }
                let name = String(rest[rest.index(after: open)..<close])
                guard !name.isEmpty, !name.contains("{") else {
                    return .failure(Failure(message: "empty or nested {} in the path template \(PathText.quoted(text))"))
                }
                if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
                if case .variable = pieces.last {
                    return .failure(Failure(message: "two path variables in a row in \(PathText.quoted(text)) cannot be told apart"))
                }
                pieces.append(.variable(name))
                rest = rest[rest.index(after: close)...]
            }
            literal += rest
            if rest.contains("}") { return .failure(Failure(message: "unbalanced \"}\" in the path template \(PathText.quoted(text))")) }
            if !literal.isEmpty || pieces.isEmpty { pieces.append(.literal(literal)) }
            segments.append(pieces)
        }
        return .success(PathTemplate(segments: segments, description: text))
    }

    public var variableNames: [String] {
        segments.flatMap { $0.compactMap { if case .variable(let name) = $0 { name } else { nil } } }
    }

    /// The template written out with `literal` applied to its literal text and `variable` to
    /// each variable's name: `filled { _ in "42" }` gives `/users/42`.
    public func filled(literal: (String) -> String = { $0 }, variable: (String) -> String) -> String {
        var path = ""
        for segment in segments {
            path += "/"
            for piece in segment {
                switch piece {
                case .literal(let text): path += literal(text)
                case .variable(let name): path += variable(name)
                }
            }
        }
        return path
    }

    /// Number of literal characters: more is more specific (`/users/me` beats `/users/{id}`).
    public var literalWeight: Int {
        segments.reduce(0) { total, pieces in
            total + pieces.reduce(0) { if case .literal(let text) = $1 { $0 + text.count + 1 } else { $0 } }
        }
    }

    /// The variables when the percent-decoded `path` matches the whole template, else nil.
    public func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/"), parts.count == segments.count else { return nil }
        var variables: [String: String] = [:]
        for (pieces, part) in zip(segments, parts) {
            guard Self.match(pieces[...], Substring(part), into: &variables) else { return nil }
        }
        return variables
    }

    /// Matches one segment; a variable takes the shortest non-empty text before the next literal.
    package static func match(_ pieces: ArraySlice<Piece>, _ text: Substring, into variables: inout [String: String]) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return match(pieces.dropFirst(), text.dropFirst(literal.count), into: &variables)
        case .variable(let name):
            if pieces.count == 1 {
                guard !text.isEmpty else { return false }
                variables[name] = String(text)
                return true
            }
            guard !text.isEmpty else { return false }
            var end = text.index(after: text.startIndex)
            while end <= text.endIndex {
                var attempt = variables
                attempt[name] = String(text[..<end])
                if end > text.startIndex, match(pieces.dropFirst(), text[end...], into: &attempt) {
                    variables = attempt
                    return true
                }
                if end == text.endIndex { break }
                end = text.index(after: end)
            }
            return false
        }
    }
}
