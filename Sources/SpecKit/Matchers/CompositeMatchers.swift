/// Passes when every matcher passes: `expect(total).to(satisfyAllOf(beGreaterThan(0), beLessThan(100)))`.
public func satisfyAllOf<T>(_ matchers: Matcher<T>...) -> Matcher<T> {
    satisfyAllOf(matchers)
}

/// Array form of ``satisfyAllOf(_:)-(Matcher<T>...)``.
public func satisfyAllOf<T>(_ matchers: [Matcher<T>]) -> Matcher<T> {
    combine(matchers, all: true)
}

/// Passes when at least one matcher passes: `expect(status).to(satisfyAnyOf(equal(200), equal(204)))`.
public func satisfyAnyOf<T>(_ matchers: Matcher<T>...) -> Matcher<T> {
    satisfyAnyOf(matchers)
}

/// Array form of ``satisfyAnyOf(_:)-(Matcher<T>...)``.
public func satisfyAnyOf<T>(_ matchers: [Matcher<T>]) -> Matcher<T> {
    combine(matchers, all: false)
}

/// `beGreaterThan(0) && beLessThan(10)`: ``satisfyAllOf(_:)-(Matcher<T>...)``.
public func && <T>(lhs: Matcher<T>, rhs: Matcher<T>) -> Matcher<T> {
    satisfyAllOf(lhs, rhs)
}

/// `equal(200) || equal(204)`: ``satisfyAnyOf(_:)-(Matcher<T>...)``.
public func || <T>(lhs: Matcher<T>, rhs: Matcher<T>) -> Matcher<T> {
    satisfyAnyOf(lhs, rhs)
}

private func combine<T>(_ matchers: [Matcher<T>], all: Bool) -> Matcher<T> {
    Matcher { actual in
        var results: [MatchResult] = []
        for matcher in matchers { results.append(try matcher.evaluate(actual)) }
        let joiner = all ? ", and " : ", or "
        let expectation = results.map { "{\($0.expectation)}" }.joined(separator: joiner)
        let matched = results.map { $0.status == .matches }
        let passes = all ? matched.allSatisfy { $0 } : matched.contains(true)
        let value = try actual.evaluate()
        return MatchResult(passes, expectation: expectation, actual: describeValue(value))
    }
}

/// Applies `transform` to the value, then `matcher`: `expect(story).to(map(\.title, equal("Launch")))`.
public func map<T, U>(_ transform: @escaping (T) throws -> U, _ matcher: Matcher<U>) -> Matcher<T> {
    Matcher { actual in
        let mapped = ActualValue<U>(cached: true) { try actual.evaluate().map(transform) }
        var result = try matcher.evaluate(mapped)
        result.expectation = "map the value, then " + result.expectation
        return result
    }
}

/// Passes when `predicate` holds for every element; the message names the first that fails:
/// `expect(stories).to(allPass { $0.points >= 0 })`.
public func allPass<S: Sequence>(
    _ description: String = "pass the condition", _ predicate: @escaping (S.Element) throws -> Bool
) -> Matcher<S> {
    .requiringValue("all \(description)") { value in
        for (index, element) in value.enumerated() where try !predicate(element) {
            return (false, "element [\(index)] \(describeValue(element)) does not, in \(describeValue(Array(value)))")
        }
        return (true, describeValue(Array(value)))
    }
}

/// Passes when every element matches `matcher`: `expect(prices).to(allPass(beGreaterThan(0)))`.
public func allPass<S: Sequence>(_ matcher: Matcher<S.Element>) -> Matcher<S> {
    Matcher { actual in
        var expectation = "all pass"
        guard let value = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        for (index, element) in value.enumerated() {
            let result = try matcher.evaluate(element)
            expectation = "all " + result.expectation
            if result.status != .matches {
                return MatchResult(
                    false, expectation: expectation,
                    actual: "element [\(index)] \(describeValue(element)) does not, in \(describeValue(Array(value)))")
            }
        }
        if let first = value.first(where: { _ in true }) {
            expectation = "all " + (try matcher.evaluate(first)).expectation
        }
        return MatchResult(true, expectation: expectation, actual: describeValue(Array(value)))
    }
}

/// Passes when at least one element satisfies `predicate`:
/// `expect(rows).to(containElementSatisfying({ $0.title == "Launch" }, "a row titled Launch"))`.
public func containElementSatisfying<S: Sequence>(
    _ predicate: @escaping (S.Element) throws -> Bool, _ description: String = ""
) -> Matcher<S> {
    let expectation =
        description.isEmpty ? "contain an element satisfying the condition" : "contain an element satisfying \(description)"
    return .requiringValue(expectation) { value in (try value.contains(where: predicate), describeValue(Array(value))) }
}
