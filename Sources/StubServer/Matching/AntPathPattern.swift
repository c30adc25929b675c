import BoundedRegex

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
    /// The pattern text determines everything else.
    static func == (lhs: AntPathPattern, rhs: AntPathPattern) -> Bool { lhs.source == rhs.source }
    func hash(into hasher: inout Hasher) { hasher.combine(source) }

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

    /// `segments` flattened into plain values (pieces as ranges of one array, literal bytes
    /// as ranges of another), so matching walks them through pointers without copying arrays
    /// out of enum payloads at every step.
    private enum Step: Sendable {
        case anySegments
        /// `pieces[first..<end]`
        case segment(first: Int, end: Int)
    }

    private enum FlatPiece: Sendable {
        /// `literalBytes[start..<start+count]`
        case literal(start: Int, count: Int)
        case anyCharacters
        case oneCharacter
        case capture(Int)
        /// Capture slot and index into `regexes`.
        case constrained(Int, regex: Int)
    }

    private let steps: [Step]
    private let pieces: [FlatPiece]
    private let literalBytes: [UInt8]
    private let regexes: [CompiledRegex]

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
        var steps: [Step] = []
        var flat: [FlatPiece] = []
        var bytes: [UInt8] = []
        var regexes: [CompiledRegex] = []
        for segment in segments {
            switch segment {
            case .anySegments:
                steps.append(.anySegments)
            case .pieces(let pieces):
                let first = flat.count
                for piece in pieces {
                    switch piece {
                    case .literal(let literal):
                        flat.append(.literal(start: bytes.count, count: literal.count))
                        bytes += literal
                    case .anyCharacters: flat.append(.anyCharacters)
                    case .oneCharacter: flat.append(.oneCharacter)
                    case .capture(let slot): flat.append(.capture(slot))
                    case .constrained(let slot, let box):
                        flat.append(.constrained(slot, regex: regexes.count))
                        regexes.append(box.regex)
                    }
                }
                steps.append(.segment(first: first, end: flat.count))
            }
        }
        self.steps = steps
        self.pieces = flat
        self.literalBytes = bytes
        self.regexes = regexes
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
            if case .anySegments = steps.last {} else if pathTrailing != trailingSlash { return nil }
            // Segment boundaries (empty segments skipped, as Spring does), on the stack.
            var segmentCount = 0
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > start { segmentCount += 1 }
                start = index + 1
            }
            return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: segmentCount + captureNames.count) { scratch in
                var count = 0
                start = 0
                for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                    if index > start {
                        (scratch.baseAddress! + count).initialize(to: start..<index)
                        count += 1
                    }
                    start = index + 1
                }
                let captures = UnsafeMutableBufferPointer(rebasing: scratch[segmentCount...])
                captures.initialize(repeating: 0..<0)
                let matched = steps.withUnsafeBufferPointer { steps in
                    pieces.withUnsafeBufferPointer { pieces in
                        literalBytes.withUnsafeBufferPointer { literals in
                            var matcher = Matcher(
                                steps: steps, pieces: pieces, literals: literals, regexes: regexes, path: bytes,
                                parts: UnsafeBufferPointer(rebasing: scratch[..<segmentCount]), captures: captures)
                            return matcher.matchSteps(0, part: 0)
                        }
                    }
                }
                guard matched else { return nil }
                guard wantCaptures else { return [:] }
                var result: [String: String] = [:]
                for (slot, range) in captures.enumerated() {
                    result[captureNames[slot]] = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                }
                return result
            }
        }
    }

    /// One match attempt over the flattened pattern and the path's segments.
    private struct Matcher {
        let steps: UnsafeBufferPointer<Step>
        let pieces: UnsafeBufferPointer<FlatPiece>
        let literals: UnsafeBufferPointer<UInt8>
        let regexes: [CompiledRegex]
        let path: UnsafeBufferPointer<UInt8>
        let parts: UnsafeBufferPointer<Range<Int>>
        let captures: UnsafeMutableBufferPointer<Range<Int>>

        mutating func matchSteps(_ step: Int, part: Int) -> Bool {
            guard step < steps.count else { return part == parts.count }
            switch steps[step] {
            case .anySegments:
                // Try consuming zero, one, … segments.
                var rest = part
                while true {
                    if matchSteps(step + 1, part: rest) { return true }
                    guard rest < parts.count else { return false }
                    rest += 1
                }
            case .segment(let first, let end):
                guard part < parts.count else { return false }
                let range = parts[part]
                guard matchPieces(first, end, range.lowerBound, range.upperBound) else { return false }
                return matchSteps(step + 1, part: part + 1)
            }
        }

        mutating func matchPieces(_ piece: Int, _ end: Int, _ from: Int, _ to: Int) -> Bool {
            guard piece < end else { return from == to }
            switch pieces[piece] {
            case .literal(let start, let count):
                guard to - from >= count else { return false }
                for offset in 0..<count where path[from + offset] != literals[start + offset] { return false }
                return matchPieces(piece + 1, end, from + count, to)
            case .oneCharacter:
                guard from < to else { return false }
                var next = from + 1 // one character: a lead byte and its continuation bytes
                while next < to, path[next] & 0xC0 == 0x80 { next += 1 }
                return matchPieces(piece + 1, end, next, to)
            case .anyCharacters, .capture, .constrained:
                // Longest first: Spring compiles these to greedy `(.*)`, so `{a}.{b}` on `x.y.z`
                // gives a = "x.y".
                var split = to
                while split >= from {
                    if split == to || path[split] & 0xC0 != 0x80 { // only split between characters
                        var accepted = true
                        var slot = -1
                        switch pieces[piece] {
                        case .constrained(let capture, let regex):
                            let text = String(decoding: UnsafeBufferPointer(rebasing: path[from..<split]), as: UTF8.self)
                            accepted = regexes[regex].matchesWhole(text)
                            slot = capture
                        case .capture(let capture):
                            slot = capture
                        default:
                            break
                        }
                        if accepted {
                            let saved = slot >= 0 ? captures[slot] : 0..<0
                            if slot >= 0 { captures[slot] = from..<split }
                            if matchPieces(piece + 1, end, split, to) { return true }
                            if slot >= 0 { captures[slot] = saved }
                        }
                    }
                    split -= 1
                }
                return false
            }
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
