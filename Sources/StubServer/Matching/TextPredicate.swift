import BoundedRegex
import Foundation

/// A compiled `TextMatcher` over string values (the uri, a header, the body text…).
/// `nil` means "absent"; multi-valued sources match if any value matches.
enum TextPredicate: Sendable {
    case equal(String)
    case regex(CompiledRegex)
    case startsWith(String)
    case endsWith(String)
    case contain(String)
    case exist(Bool)
    case path(AntPathPattern)

    struct CompileError: Error, Sendable {
        var message: String
    }

    /// Compiles a string operator. `json`/`xml` are body comparisons handled elsewhere.
    static func compile(_ matcher: TextMatcher, caseInsensitive: Bool = false) throws(CompileError) -> TextPredicate {
        func fold(_ text: String) -> String { caseInsensitive ? RequestView.asciiUppercased(text) : text }
        switch matcher {
        case .equal(let text): return .equal(fold(text))
        case .match(let pattern):
            do {
                return .regex(try CompiledRegex(pattern, caseInsensitive: caseInsensitive))
            } catch {
                throw CompileError(message: error.message)
            }
        case .startsWith(let text): return .startsWith(fold(text))
        case .endsWith(let text): return .endsWith(fold(text))
        case .contain(let text): return .contain(fold(text))
        case .exist(let flag): return .exist(flag)
        case .path(let pattern):
            do {
                return .path(try AntPathPattern(pattern))
            } catch {
                throw CompileError(message: error.message)
            }
        case .json, .xml:
            throw CompileError(message: "the \(matcher.operatorName) operator applies to the body only (text or file)")
        }
    }

    @inline(__always)
    func matches(_ value: String?) -> Bool {
        guard let value else {
            if case .exist(let flag) = self { return !flag }
            return false
        }
        switch self {
        case .equal(let expected): return value == expected
        case .regex(let regex): return regex.matchesWhole(value)
        case .startsWith(let prefix): return value.hasPrefix(prefix)
        case .endsWith(let suffix): return value.hasSuffix(suffix)
        case .contain(let part): return part.isEmpty || Self.contains(value, part)
        case .exist(let flag): return flag
        case .path(let pattern): return pattern.matches(value)
        }
    }

    /// Substring search. For ASCII text without CR (each byte a character of its own) the
    /// answer is a byte search; anything else goes to the Unicode-aware search as before.
    static func contains(_ value: String, _ part: String) -> Bool {
        func plain(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") } }
        guard plain(value), plain(part) else { return value.contains(part) }
        var value = value
        var part = part
        return value.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard needle.count <= haystack.count else { return false }
                let first = needle[0]
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    if memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 { return true }
                }
                return false
            }
        }
    }

    /// Any of `values` matches; `exist` asks whether there is at least one value.
    func matchesAny(_ values: [String]?) -> Bool {
        guard let values, !values.isEmpty else { return matches(nil) }
        if case .exist(let flag) = self { return flag }
        for value in values where matches(value) { return true }
        return false
    }

    /// `matchesAny` over the values of the fields called `name`, without collecting them.
    func matchesAny(named name: String, in fields: FieldList) -> Bool {
        var found = false
        for (key, value) in fields.pairs where key == name {
            if case .exist(let flag) = self { return flag }
            if matches(value) { return true }
            found = true
        }
        return found ? false : matches(nil)
    }

    /// `matchesAny` over the values of a header (names compared case-insensitively).
    func matchesAny(headerNamed name: String, in headers: HTTPHeaders) -> Bool {
        var found = false
        for field in headers where field.name.utf8.count == name.utf8.count && HTTPHeaders.sameName(field.name, name) {
            if case .exist(let flag) = self { return flag }
            if matches(field.value) { return true }
            found = true
        }
        return found ? false : matches(nil)
    }
}
