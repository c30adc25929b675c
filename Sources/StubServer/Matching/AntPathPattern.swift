/// An Ant-style path template (moco's `path` operator, Spring's AntPathMatcher rules):
/// `{name}` captures within one segment, `{name:regex}` with a constraint, `*` any characters
/// within a segment, `?` one character, `**` any number of whole segments. The whole path must
/// match; a trailing slash must match too.
///
/// ```swift
/// try AntPathPattern("/api/v1/stories/{id}").match("/api/v1/stories/42")   // ["id": "42"]
/// ```
///
/// Matching works on UTF-8 bytes and only builds strings for captures it returns: it runs for
/// every request that reaches a `path` stub.
struct AntPathPattern: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case literal([UInt8])
        case anyCharacters
        case oneCharacter
        /// Index into `captureNames`.
        case capture(Int)
        case constrained(Int, CompiledRegexBox)
    }

    enum Segment: Sendable, Hashable {
        case anySegments
        case pieces([Piece])
    }

    struct SyntaxError: Error, Sendable { var message: String }

    let source: String
    let segments: [Segment]
    let trailingSlash: Bool
    let leadingSlash: Bool
    /// The pattern itself when it has no wildcard or capture (then it is an equality).
    let literal: String?
    let captureNames: [String]
    /// The literal segments before the first wildcard, checked before any other work: most
    /// requests that reach a `path` stub are for another resource.
    let leadingLiterals: [[UInt8]]

    init(_ source: String) throws(SyntaxError) {
        self.source = source
        trailingSlash = source.hasSuffix("/") && source.count > 1
        leadingSlash = source.hasPrefix("/")
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
            func flush() {
                if !text.isEmpty { pieces.append(.literal(Array(text.utf8))); text = "" }
            }
            while index < part.endIndex {
                let character = part[index]
                switch character {
                case "*", "?":
                    flush()
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
                    flush()
                    let slot = names.count
                    names.append(String(name))
                    if let constraint {
                        do {
                            pieces.append(.constrained(slot, CompiledRegexBox(try CompiledRegex(String(constraint)))))
                        } catch {
                            throw SyntaxError(message: "invalid regular expression in {\(body)}")
                        }
                    } else {
                        pieces.append(.capture(slot))
                    }
                    isLiteral = false
                    index = part.index(after: close)
                case "}":
                    throw SyntaxError(message: "'}' without '{' in path \(quoted(source))")
                default:
                    text.append(character)
                    index = part.index(after: index)
                }
            }
            flush()
            segments.append(.pieces(pieces))
        }
        self.segments = segments
        captureNames = names
        literal = isLiteral ? source : nil
        var leading: [[UInt8]] = []
        for segment in segments {
            guard case .pieces(let pieces) = segment, pieces.count == 1, case .literal(let bytes) = pieces[0] else { break }
            leading.append(bytes)
        }
        leadingLiterals = leading
    }

    /// Whether the path's first segments are the pattern's leading literal segments.
    private func hasLeadingLiterals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        for literal in leadingLiterals {
            while index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard bytes.count - index >= literal.count else { return false }
            for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
            index += literal.count
            guard index == bytes.count || bytes[index] == UInt8(ascii: "/") else { return false }
        }
        return true
    }

    /// Whether `path` matches, without building captures.
    func matches(_ path: String) -> Bool {
        if let literal { return path == literal }
        return run(path, wantCaptures: false) != nil
    }

    /// The captured variables when `path` matches, nil otherwise.
    func match(_ path: String) -> [String: String]? {
        if let literal { return path == literal ? [:] : nil }
        return run(path, wantCaptures: true)
    }

    private func run(_ path: String, wantCaptures: Bool) -> [String: String]? {
        var copy = path
        return copy.withUTF8 { bytes -> [String: String]? in
            guard (bytes.first == UInt8(ascii: "/")) == leadingSlash, hasLeadingLiterals(bytes) else { return nil }
            let pathTrailing = bytes.count > 1 && bytes.last == UInt8(ascii: "/")
            if case .anySegments = segments.last {} else if pathTrailing != trailingSlash { return nil }
            // Segment boundaries (empty segments skipped, as Spring does).
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(8)
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > start { ranges.append(start..<index) }
                start = index + 1
            }
            var captures = [Range<Int>](repeating: 0..<0, count: captureNames.count)
            guard matchSegments(0, ranges[...], bytes, &captures) else { return nil }
            guard wantCaptures else { return [:] }
            var result: [String: String] = [:]
            for (slot, range) in captures.enumerated() {
                result[captureNames[slot]] = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            return result
        }
    }

    private func matchSegments(
        _ patternIndex: Int, _ parts: ArraySlice<Range<Int>>, _ bytes: UnsafeBufferPointer<UInt8>, _ captures: inout [Range<Int>]
    ) -> Bool {
        guard patternIndex < segments.count else { return parts.isEmpty }
        switch segments[patternIndex] {
        case .anySegments:
            // Try consuming zero, one, … segments.
            var rest = parts
            while true {
                if matchSegments(patternIndex + 1, rest, bytes, &captures) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .pieces(let pieces):
            guard let part = parts.first else { return false }
            guard Self.matchPieces(pieces[...], part.lowerBound, part.upperBound, bytes, &captures) else { return false }
            return matchSegments(patternIndex + 1, parts.dropFirst(), bytes, &captures)
        }
    }

    private static func matchPieces(
        _ pieces: ArraySlice<Piece>, _ from: Int, _ to: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ captures: inout [Range<Int>]
    ) -> Bool {
        guard let piece = pieces.first else { return from == to }
        let rest = pieces.dropFirst()
        switch piece {
        case .literal(let literal):
            guard to - from >= literal.count else { return false }
            for offset in 0..<literal.count where bytes[from + offset] != literal[offset] { return false }
            return matchPieces(rest, from + literal.count, to, bytes, &captures)
        case .oneCharacter:
            guard from < to else { return false }
            var next = from + 1  // one character: a lead byte and its continuation bytes
            while next < to, bytes[next] & 0xC0 == 0x80 { next += 1 }
            return matchPieces(rest, next, to, bytes, &captures)
        case .anyCharacters, .capture, .constrained:
            // Longest first: Spring compiles these to greedy `(.*)`, so `{a}.{b}` on `x.y.z`
            // gives a = "x.y".
            var end = to
            while end >= from {
                if end == to || bytes[end] & 0xC0 != 0x80 {  // only split between characters
                    var accepted = true
                    if case .constrained(_, let box) = piece {
                        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<end]), as: UTF8.self)
                        accepted = box.regex.matchesWhole(text)
                    }
                    if accepted {
                        let saved: Range<Int>?
                        switch piece {
                        case .capture(let slot), .constrained(let slot, _):
                            saved = captures[slot]
                            captures[slot] = from..<end
                        default:
                            saved = nil
                        }
                        if matchPieces(rest, end, to, bytes, &captures) { return true }
                        if let saved, case .capture(let slot) = piece { captures[slot] = saved }
                        if let saved, case .constrained(let slot, _) = piece { captures[slot] = saved }
                    }
                }
                end -= 1
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
