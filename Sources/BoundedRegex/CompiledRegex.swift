import Foundation
import RehearsalJSON

/// An ICU regular expression (close to Java's syntax) that must match the whole value, as
/// moco's `match` does. `NSRegularExpression` is immutable and safe to share across threads.
public final class CompiledRegex: @unchecked Sendable {
    public let pattern: String
    public let caseInsensitive: Bool
    private let regex: NSRegularExpression
    /// The pattern as written, unanchored: JSON Schema's `pattern` matches anywhere in the value.
    private let unanchored: NSRegularExpression

    public struct CompileError: Error { public var message: String }

    public init(_ pattern: String, caseInsensitive: Bool = false) throws(CompileError) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        do {
            regex = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw CompileError(message: "invalid regular expression \(quoted(pattern))")
        }
        // Reject patterns that only compile thanks to our wrapping (e.g. an unbalanced ")(").
        do {
            unanchored = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw CompileError(message: "invalid regular expression \(quoted(pattern))")
        }
    }

    /// Progress reports (ICU calls back about every 10,000 backtracking steps) a match may use
    /// before it counts as "no match", so a catastrophic pattern such as `(a+)+$` on a long URI
    /// cannot hold an event loop for seconds (or years). About a million steps plus twenty per
    /// character of input: a few milliseconds, while sane patterns need a few steps per
    /// character even on a large body.
    public static func stepBudget(forLength length: Int) -> Int { 100 + length / 512 }

    public func matchesWhole(_ value: String) -> Bool {
        matchesWhole(value, budget: Self.stepBudget(forLength: value.utf16.count)).matched
    }

    /// Whether the whole value matches, and whether the step budget ran out first (then
    /// `matched` is false).
    public func matchesWhole(_ value: String, budget: Int) -> (matched: Bool, exhausted: Bool) {
        Self.firstMatch(of: regex, in: value, budget: budget)
    }

    /// Whether the pattern matches somewhere in the value (JSON Schema's `pattern`, ECMA-262
    /// `search` semantics), under the same step budget.
    public func matchesSomewhere(_ value: String) -> (matched: Bool, exhausted: Bool) {
        Self.firstMatch(of: unanchored, in: value, budget: Self.stepBudget(forLength: value.utf16.count))
    }

    private static func firstMatch(of regex: NSRegularExpression, in value: String, budget: Int) -> (matched: Bool, exhausted: Bool) {
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        var matched = false
        var reports = 0
        regex.enumerateMatches(in: value, options: [.reportProgress], range: range) { result, flags, stop in
            if result != nil {
                matched = true
                stop.pointee = true
            } else if flags.contains(.progress) {
                reports += 1
                if reports > budget { stop.pointee = true }
            }
        }
        return (matched, !matched && reports > budget)
    }
}

private func quoted(_ text: String) -> String {
    let clipped = text.count > 200 ? String(text.prefix(200)) + "… (\(text.utf8.count) bytes)" : text
    var out = ""
    JSONWriter.writeString(clipped, into: &out)
    return out
}
