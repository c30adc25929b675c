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
        guard multiline || isStructured(expected) || expectedLine.count > inlineLimit || actualLine.count > inlineLimit
        else {
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

    /// Dictionaries, sets, tuples, structs, classes and arrays of more than 3 elements get a diff even when short:
    /// the diff says which element or field differs.
    static func isStructured(_ value: Any) -> Bool {
        if ValueDump.scalar(value) != nil || ValueDump.customDescription(value) != nil && !(value is any Collection) {
            return false
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        // Short arrays read best inline (`<[1, 3]>, got <[1, 2]>`); longer ones need the diff.
        case .collection?: return mirror.children.count > 3
        case .dictionary?, .set?, .tuple?, .struct?, .class?: return !mirror.children.isEmpty
        default: return false
        }
    }

    /// Strings diff by their own lines; other values by their dump.
    static func dumpLines<T>(_ value: T) -> [String] {
        if let string = value as? String {
            return string.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        }
        return ValueDump.lines(value)
    }
}

/// Passes when the value is neither nil nor `false`: Nimble's `beTruthy`.
public func beTruthy<T: ExpressibleByBooleanLiteral & Equatable>() -> Matcher<T> {
    Matcher { actual in
        let value = try actual.evaluate()
        return MatchResult(value != nil && value != false, expectation: "be truthy", actual: describeValue(value))
    }
}

/// Passes when the value is nil or `false`: Nimble's `beFalsy`.
public func beFalsy<T: ExpressibleByBooleanLiteral & Equatable>() -> Matcher<T> {
    Matcher { actual in
        let value = try actual.evaluate()
        return MatchResult(value == nil || value == false, expectation: "be falsy", actual: describeValue(value))
    }
}

/// Passes when two-element tuples are equal: `expect((200, "OK")).to(equal((200, "OK")))`.
public func equal<A: Equatable, B: Equatable>(_ expected: (A, B)?) -> Matcher<(A, B)> {
    tupleEqual(expected) { $0 == $1 }
}

/// Passes when three-element tuples are equal.
public func equal<A: Equatable, B: Equatable, C: Equatable>(_ expected: (A, B, C)?) -> Matcher<(A, B, C)> {
    tupleEqual(expected) { $0 == $1 }
}

/// Passes when four-element tuples are equal.
public func equal<A: Equatable, B: Equatable, C: Equatable, D: Equatable>(
    _ expected: (A, B, C, D)?
) -> Matcher<(A, B, C, D)> {
    tupleEqual(expected) { $0 == $1 }
}

/// Passes when five-element tuples are equal.
public func equal<A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable>(
    _ expected: (A, B, C, D, E)?
) -> Matcher<(A, B, C, D, E)> {
    tupleEqual(expected) { $0 == $1 }
}

/// Passes when six-element tuples are equal.
public func equal<A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable>(
    _ expected: (A, B, C, D, E, F)?
) -> Matcher<(A, B, C, D, E, F)> {
    tupleEqual(expected) { $0 == $1 }
}

private func tupleEqual<T>(_ expected: T?, _ same: @escaping (T, T) -> Bool) -> Matcher<T> {
    Matcher { actual in
        let value = try actual.evaluate()
        switch (value, expected) {
        case (nil, nil):
            return MatchResult(true, expectation: "equal <nil>", actual: "<nil>")
        case (let value?, let expected?):
            if same(value, expected) {
                return MatchResult(true, expectation: "equal \(describeValue(expected))", actual: describeValue(value))
            }
            return EqualityDiff.result(expected: expected, actual: value)
        default:
            return MatchResult(false, expectation: "equal \(describeValue(expected))", actual: describeValue(value))
        }
    }
}
