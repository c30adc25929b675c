/// What the route index may file a stub under, derived once from its compiled conditions: a
/// necessary condition on the request path (and method) that the index can test for many
/// stubs at once. Every key is conservative: a request the stub's conditions accept always
/// satisfies its key, so filtering by keys never changes which stub answers first.
///
/// - `uri` equal to a path (or a `path` template without wildcards) → `exact`.
/// - `startsWith`, a settings `context`, a `match` regex with a literal lead → the *complete*
///   literal segments of that lead (`/static/12` → `["static"]`), as a prefix.
/// - a `path` template → its segments, captures and wildcards as `.any`; `terminal` when the
///   template has no `**` (then the path has exactly that many segments).
struct RouteKey: Sendable, Equatable {
    enum Segment: Sendable, Hashable {
        case literal([UInt8])
        /// Any one non-empty segment (`{id}`, `*.png`, `v?`).
        case any
    }

    enum Path: Sendable, Equatable {
        case exact(String)
        /// The path's non-empty segments (split at `/` bytes, as `path` templates split) start
        /// with these; with `terminal`, there are no others.
        case segments([Segment], terminal: Bool)
        case unkeyed
    }

    var path: Path
    /// The segments key comes from Swift string comparisons (`hasPrefix`, `==`), which follow
    /// Unicode canonical equivalence (`K` KELVIN SIGN equals `K`): it holds only for paths that
    /// are pure ASCII, so the index offers such stubs to every non-ASCII path as well.
    var segmentsNeedASCIIPath: Bool
    /// The upper-cased method every match has, when one condition fixes it.
    var method: String?
    /// Bytes every matching path starts / ends with: a check on plain bytes, made before any
    /// condition is evaluated. Empty when unknown.
    var prefix: [UInt8]
    var prefixNeedsASCIIPath: Bool
    var suffix: [UInt8]
    var suffixNeedsASCIIPath: Bool
    /// Positions (in the stub's sorted conditions) of the conditions the index proves when it
    /// offers the stub: the method equality and the exact-path equality it was filed under.
    var impliedMethod: Int?
    var impliedPath: Int?

    static let unkeyed = RouteKey(
        path: .unkeyed, segmentsNeedASCIIPath: false, method: nil, prefix: [], prefixNeedsASCIIPath: false, suffix: [],
        suffixNeedsASCIIPath: false, impliedMethod: nil, impliedPath: nil)

    init(
        path: Path, segmentsNeedASCIIPath: Bool, method: String?, prefix: [UInt8], prefixNeedsASCIIPath: Bool,
        suffix: [UInt8], suffixNeedsASCIIPath: Bool, impliedMethod: Int?, impliedPath: Int?
    ) {
        self.path = path
        self.segmentsNeedASCIIPath = segmentsNeedASCIIPath
        self.method = method
        self.prefix = prefix
        self.prefixNeedsASCIIPath = prefixNeedsASCIIPath
        self.suffix = suffix
        self.suffixNeedsASCIIPath = suffixNeedsASCIIPath
        self.impliedMethod = impliedMethod
        self.impliedPath = impliedPath
    }

    /// Whether the index proves the condition at `position` when it offers the stub.
    func implies(_ position: Int) -> Bool { position == impliedMethod || position == impliedPath }

    /// The key of a stub whose conditions (all of which must hold) are `conditions`.
    init(conditions: [RequestCondition]) {
        self = .unkeyed
        var exactAt: Int?
        var best: (segments: [Segment], terminal: Bool, needsASCII: Bool)?
        func consider(_ segments: [Segment], terminal: Bool, needsASCII: Bool) {
            if segments.isEmpty && !terminal { return } // no better than unkeyed
            // Longer keys discriminate more; a terminal key beats a prefix key of equal length.
            if let current = best {
                if segments.count < current.segments.count { return }
                if segments.count == current.segments.count && (current.terminal || !terminal) { return }
            }
            best = (segments, terminal, needsASCII)
        }
        func considerPrefix(_ bytes: [UInt8], needsASCII: Bool) {
            if bytes.count > prefix.count {
                prefix = bytes
                prefixNeedsASCIIPath = needsASCII
            }
        }
        for (position, condition) in conditions.enumerated() {
            switch condition.test {
            case .method(.equal(let method)) where self.method == nil:
                self.method = method
                impliedMethod = position
            case .uri(let predicate):
                switch predicate {
                case .equal(let text) where exactAt == nil:
                    path = .exact(text)
                    exactAt = position
                case .path(let pattern) where pattern.literal != nil && exactAt == nil:
                    path = .exact(pattern.literal!)
                    exactAt = position
                case .path(let pattern) where pattern.literal == nil:
                    let (segments, terminal) = Self.segments(of: pattern)
                    consider(segments, terminal: terminal, needsASCII: false)
                case .startsWith(let text):
                    let lead = Self.asciiGraphemePrefix(text)
                    consider(Self.completeSegments(lead), terminal: false, needsASCII: true)
                    considerPrefix(lead, needsASCII: true)
                case .regex(let regex) where !regex.caseInsensitive:
                    let lead = Self.literalPrefix(ofRegex: regex.pattern)
                    consider(Self.completeSegments(lead), terminal: false, needsASCII: false)
                    considerPrefix(lead, needsASCII: false)
                case .endsWith(let text):
                    let tail = Self.asciiGraphemeSuffix(text)
                    if tail.count > suffix.count {
                        suffix = tail
                        suffixNeedsASCIIPath = true
                    }
                default:
                    break
                }
            case .uriWithin(let context):
                // `path == context || path.hasPrefix(context + "/")`
                consider(Self.completeSegments(Self.asciiGraphemePrefix(context + "/")), terminal: false, needsASCII: true)
                considerPrefix(Self.asciiGraphemePrefix(context), needsASCII: true)
            default:
                break
            }
        }
        if let exactAt {
            impliedPath = exactAt
        } else if let best {
            path = .segments(best.segments, terminal: best.terminal)
            segmentsNeedASCIIPath = best.needsASCII
        }
    }

    /// A template's segments up to its first `**`; terminal when it has none.
    static func segments(of pattern: AntPathPattern) -> ([Segment], terminal: Bool) {
        var segments: [Segment] = []
        for segment in pattern.segments {
            switch segment {
            case .anySegments:
                return (segments, false)
            case .pieces(let pieces):
                if pieces.count == 1, case .literal(let bytes) = pieces[0] {
                    segments.append(.literal(bytes))
                } else {
                    segments.append(.any)
                }
            }
        }
        return (segments, true)
    }

    /// The non-empty segments of `bytes` that end with a `/` inside it: those any string that
    /// starts with `bytes` shares (`/static/12` → `["static"]`).
    static func completeSegments(_ bytes: [UInt8]) -> [Segment] {
        var segments: [Segment] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") {
            if index > start { segments.append(.literal(Array(bytes[start..<index]))) }
            start = index + 1
        }
        return segments
    }

    /// The leading characters of `text` that are ASCII (CR LF counts), as bytes: an ASCII path
    /// that `hasPrefix(text)` starts with exactly these bytes.
    static func asciiGraphemePrefix(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array(text.utf8) }
        var bytes: [UInt8] = []
        for character in text {
            guard character.isASCII else { break }
            bytes += character.utf8
        }
        return bytes
    }

    /// The trailing ASCII characters of `text`, as bytes.
    static func asciiGraphemeSuffix(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array(text.utf8) }
        var characters: [Character] = []
        for character in text.reversed() {
            guard character.isASCII else { break }
            characters.append(character)
        }
        return Array(String(characters.reversed()).utf8)
    }

    /// The literal text every whole match of `pattern` (ICU syntax) starts with: plain
    /// characters and escaped punctuation up to the first operator. A character followed by a
    /// quantifier is left out; a pattern with `|` anywhere has no literal lead (it may be a
    /// top-level alternation). Only ASCII is taken.
    static func literalPrefix(ofRegex pattern: String) -> [UInt8] {
        let bytes = Array(pattern.utf8)
        if bytes.contains(UInt8(ascii: "|")) { return [] }
        var lead: [UInt8] = []
        var index = 0
        if bytes.first == UInt8(ascii: "^") { index = 1 }
        while index < bytes.count {
            let byte = bytes[index]
            let literal: UInt8
            let width: Int
            if isPlainRegexLiteral(byte) {
                literal = byte
                width = 1
            } else if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, isEscapedRegexLiteral(bytes[index + 1]) {
                literal = bytes[index + 1]
                width = 2
            } else {
                break
            }
            if index + width < bytes.count {
                switch bytes[index + width] {
                case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"): return lead
                default: break
                }
            }
            lead.append(literal)
            index += width
        }
        return lead
    }

    /// Characters that stand for themselves in an ICU pattern without flags.
    private static func isPlainRegexLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    /// Punctuation that a backslash turns into a literal (`\.`, `\/`, `\?`…).
    private static func isEscapedRegexLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "&"),
            UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }
}
