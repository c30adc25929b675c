import BoundedRegex
import OpenAPI

/// Which operations of an API a stub's `uri` and `method` matchers can stand for: exact
/// paths are matched against the templates (the most specific wins, as OpenAPI routes), Ant
/// `path` patterns segment by segment, `startsWith` as a prefix of the template, and regular
/// expressions (`match`, `endsWith`, `contain`) by trying them on the template with sample
/// values for its variables.
enum OperationLookup {
    struct Match {
        var operation: APIOperation
        /// Values the stub fixes for path variables (`/stories/101` → `id: "101"`).
        var variables: [String: String]
    }

    static func isConcrete(_ matcher: TextMatcher) -> Bool {
        if case .equal = matcher { return true }
        return false
    }

    static func operations(in api: OpenAPIDocument, uri: TextMatcher?) -> [Match] {
        switch uri {
        case .equal(let path)?:
            return api.operations(matchingPath: path).map { Match(operation: $0.operation, variables: $0.variables) }
        case .path(let pattern)?:
            let wanted = segments(of: pattern)
            return each(api) { base, operation in
                antMatch(wanted[...], base + operation.template.segments[...]) ? Match(operation: operation, variables: [:]) : nil
            }
        case .startsWith(let prefix)?:
            return each(api) { base, operation in
                couldStart(with: prefix, base + operation.template.segments) ? Match(operation: operation, variables: [:]) : nil
            }
        case .match(let pattern)?:
            guard let regex = try? CompiledRegex(pattern) else { return [] }
            return probe(api, mustStartWith: literalPrefix(ofRegex: pattern)) { regex.matchesWhole($0) }
        case .endsWith(let suffix)?:
            return probe(api) { $0.hasSuffix(suffix) }
        case .contain(let part)?:
            return probe(api) { $0.contains(part) }
        default:
            return api.operations.map { Match(operation: $0, variables: [:]) }
        }
    }

    static func methodMatches(_ matcher: TextMatcher?, _ method: String) -> Bool {
        switch matcher {
        case nil, .exist(true)?: return true
        case .equal(let wanted)?: return wanted.uppercased() == method
        case .match(let pattern)?: return (try? CompiledRegex(pattern, caseInsensitive: true))?.matchesWhole(method) ?? false
        case .startsWith(let text)?: return method.hasPrefix(text.uppercased())
        case .endsWith(let text)?: return method.hasSuffix(text.uppercased())
        case .contain(let text)?: return method.contains(text.uppercased())
        default: return false
        }
    }

    /// For an exact path, only the most specific template (per method) answers; a pattern
    /// stands for every operation it can match.
    static func mostSpecific(_ matches: [Match], concrete: Bool) -> [Match] {
        guard concrete else { return matches }
        var best: [String: Match] = [:]
        var order: [String] = []
        for match in matches {
            let method = match.operation.method
            if let current = best[method] {
                if match.operation.template.literalWeight > current.operation.template.literalWeight { best[method] = match }
            } else {
                best[method] = match
                order.append(method)
            }
        }
        return order.compactMap { best[$0] }
    }

    /// Base path segments (`/v1` → `[[.literal("v1")]]`).
    private static func baseSegments(_ base: String) -> [[PathTemplate.Piece]] {
        base.split(separator: "/").map { [.literal(String($0))] }
    }

    private static func each(_ api: OpenAPIDocument, _ body: ([[PathTemplate.Piece]], APIOperation) -> Match?) -> [Match] {
        var found: [Match] = []
        for operation in api.operations {
            for base in api.basePaths {
                if let match = body(baseSegments(base), operation) {
                    found.append(match)
                    break
                }
            }
        }
        return found
    }

    /// Ant pattern segments: `**`, a segment with wildcards or `{var}`s, or literal text.
    enum AntSegment {
        case anySegments
        case wildcard(CompiledRegex?)
        case literal(String)
    }

    static func segments(of pattern: String) -> [AntSegment] {
        pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            if part == "**" { return .anySegments }
            if part.contains("{") || part.contains("*") || part.contains("?") {
                // `{name}` / `{name:regex}` / `*` / `?` within one segment, as a regex over the segment.
                var regex = ""
                var rest = Substring(part)
                while let char = rest.first {
                    if char == "{", let close = rest.firstIndex(of: "}") {
                        let inner = rest[rest.index(after: rest.startIndex)..<close]
                        if let colon = inner.firstIndex(of: ":") {
                            regex += "(?:" + inner[inner.index(after: colon)...] + ")"
                        } else {
                            regex += "[^/]+"
                        }
                        rest = rest[rest.index(after: close)...]
                    } else {
                        regex += char == "*" ? "[^/]*" : char == "?" ? "[^/]" : NSRegularExpressionEscaping.escape(String(char))
                        rest = rest.dropFirst()
                    }
                }
                return .wildcard(try? CompiledRegex(regex))
            }
            return .literal(String(part))
        }
    }

    /// Whether an Ant pattern and a template can match the same path: a literal against a
    /// variable can (the variable takes it), a wildcard against anything can.
    static func antMatch(_ pattern: ArraySlice<AntSegment>, _ template: ArraySlice<[PathTemplate.Piece]>) -> Bool {
        guard let first = pattern.first else { return template.isEmpty }
        if case .anySegments = first {
            var rest = template
            while true {
                if antMatch(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let segment = template.first else { return false }
        switch first {
        case .literal(let text):
            var variables: [String: String] = [:]
            guard PathTemplate.match(segment[...], Substring(text), into: &variables) else { return false }
        case .wildcard(let regex):
            if let regex, let literal = literalText(segment), !regex.matchesWhole(literal) { return false }
        case .anySegments:
            break
        }
        return antMatch(pattern.dropFirst(), template.dropFirst())
    }

    static func literalText(_ segment: [PathTemplate.Piece]) -> String? {
        var text = ""
        for piece in segment {
            guard case .literal(let part) = piece else { return nil }
            text += part
        }
        return text
    }

    /// Whether some path of the template starts with `prefix`.
    static func couldStart(with prefix: String, _ template: [[PathTemplate.Piece]]) -> Bool {
        let parts = prefix.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard prefix.hasPrefix("/") else { return false }
        for (offset, part) in parts.enumerated() {
            let last = offset == parts.count - 1
            guard offset < template.count else { return last && part.isEmpty }
            let segment = template[offset]
            if last {
                guard let literal = literalText(segment) else { return true }
                return literal.hasPrefix(part)
            }
            var variables: [String: String] = [:]
            guard PathTemplate.match(segment[...], part, into: &variables) else { return false }
        }
        return true
    }

    /// Tries `test` on each template's paths with sample values for its variables. `prefix` is
    /// text every matching path starts with: a template whose literal start cannot agree with it
    /// is skipped before any path is written out or tested. With `stubserver init`'s one `match`
    /// per operation, the scan was operations × operations × samples regex tests.
    private static func probe(_ api: OpenAPIDocument, mustStartWith prefix: String = "", _ test: (String) -> Bool) -> [Match] {
        let samples = ["1", "42", "abc", "a-b_c.d", "0f8fad5b-d9cb-469f-a165-70867728950e"]
        var found: [Match] = []
        for operation in api.operations {
            let literalStart = operation.template.description.prefix { $0 != "{" }
            outer: for base in api.basePaths {
                if !prefix.isEmpty {
                    let start = base + literalStart
                    guard start.hasPrefix(prefix) || prefix.hasPrefix(start) else { continue }
                }
                for sample in samples {
                    if test(base + operation.template.filled { _ in sample }) {
                        found.append(Match(operation: operation, variables: [:]))
                        break outer
                    }
                }
            }
        }
        return found
    }

    /// The text every whole match of `pattern` starts with, read conservatively: literal
    /// characters (and escaped punctuation) from the start up to the first operator; a character
    /// a quantifier makes optional is left out, and any alternation gives "" (no prefix known).
    ///
    /// ```swift
    /// OperationLookup.literalPrefix(ofRegex: #"^/v2/droplets/[^/]+$"#)   // "/v2/droplets/"
    /// OperationLookup.literalPrefix(ofRegex: "/v2/items?")               // "/v2/item"
    /// ```
    static func literalPrefix(ofRegex pattern: String) -> String {
        guard !pattern.contains("|") else { return "" }
        var prefix = ""
        var rest = pattern.hasPrefix("^") ? Substring(pattern.dropFirst()) : Substring(pattern)
        while let char = rest.first {
            if char == "\\", let escaped = rest.dropFirst().first, escaped.isASCII, escaped.isPunctuation || escaped.isSymbol {
                prefix.append(escaped)
                rest = rest.dropFirst(2)
            } else if !"\\.[](){}*+?^$".contains(char) {
                prefix.append(char)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        // `a?`, `a*`, `a{0,2}` may leave out the last literal read.
        if let next = rest.first, "*?{".contains(next), !prefix.isEmpty { prefix.removeLast() }
        return prefix
    }
}
