import Foundation

/// Passes when the value equals `expected`. A failure on a large value adds a
/// line diff of both values' deterministic dumps:
/// ```
/// expected to equal <Story(id: 1, title: "A", …)>, got <Story(id: 1, title: "B", …)>
/// Difference (- expected, + actual):
///   Story(
///     id: 1
/// -   title: "A"
/// +   title: "B"
/// ```
public func equal<T: Equatable>(_ expected: T?) -> Matcher<T> {
    Matcher { actual in
        let value = try actual.evaluate()
        let matches = value == expected
        guard !matches, let value, let expected else {
            return MatchResult(matches, expectation: "equal \(describeValue(expected))", actual: describeValue(value))
        }
        return EqualityDiff.result(expected: expected, actual: value)
    }
}

/// Passes when the value is `nil`.
public func beNil<T>() -> Matcher<T> {
    Matcher { actual in
        let value = try actual.evaluate()
        return MatchResult(value == nil, expectation: "be nil", actual: describeValue(value))
    }
}

/// Passes when the value is `true`.
public func beTrue() -> Matcher<Bool> {
    Matcher { actual in
        let value = try actual.evaluate()
        return MatchResult(value == true, expectation: "be true", actual: describeValue(value))
    }
}

/// Passes when the value is `false`.
public func beFalse() -> Matcher<Bool> {
    Matcher { actual in
        let value = try actual.evaluate()
        return MatchResult(value == false, expectation: "be false", actual: describeValue(value))
    }
}

/// Passes when `predicate` returns true: `expect(story).to(satisfy("be recent") { $0.age < 3600 })`.
public func satisfy<T>(
    _ description: String = "satisfy the condition", _ predicate: @escaping (T) throws -> Bool
) -> Matcher<T> {
    Matcher(description, predicate)
}

/// Builds the failure of `equal`: short values inline, large ones with a diff.
enum EqualityDiff {
    static let inlineLimit = 60

    static func result<T>(expected: T, actual: T) -> MatchResult {
        let expectedLine = ValueDump.line(expected)
        let actualLine = ValueDump.line(actual)
        let multiline = (expected as? String)?.contains("\n") == true || (actual as? String)?.contains("\n") == true
        guard multiline || expectedLine.count > inlineLimit || actualLine.count > inlineLimit else {
            return MatchResult(false, expectation: "equal <\(expectedLine)>", actual: "<\(actualLine)>")
        }
        let expectedLines = dumpLines(expected)
        let actualLines = dumpLines(actual)
        var details = LineDiff.render(expected: expectedLines, actual: actualLines)
        if details.isEmpty {
            details = "(the values differ but print identically; compare their types or == implementation)"
        }
        return MatchResult(
            false, expectation: "equal \(describeValue(expected, limit: 80))", actual: describeValue(actual, limit: 80),
            details: details)
    }

    /// Strings diff by their own lines; other values by their dump.
    static func dumpLines<T>(_ value: T) -> [String] {
        if let string = value as? String {
            return string.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        }
        return ValueDump.lines(value)
    }
}
