/// Passes when the value is greater than `limit`.
public func beGreaterThan<T: Comparable>(_ limit: T) -> Matcher<T> {
    compare("be greater than", limit) { $0 > $1 }
}

/// Passes when the value is greater than or equal to `limit`.
public func beGreaterThanOrEqualTo<T: Comparable>(_ limit: T) -> Matcher<T> {
    compare("be greater than or equal to", limit) { $0 >= $1 }
}

/// Passes when the value is less than `limit`.
public func beLessThan<T: Comparable>(_ limit: T) -> Matcher<T> {
    compare("be less than", limit) { $0 < $1 }
}

/// Passes when the value is less than or equal to `limit`.
public func beLessThanOrEqualTo<T: Comparable>(_ limit: T) -> Matcher<T> {
    compare("be less than or equal to", limit) { $0 <= $1 }
}

/// Passes when the value is within `delta` of `expected`: `expect(ratio).to(beCloseTo(0.3, within: 0.001))`.
public func beCloseTo<T: FloatingPoint>(_ expected: T, within delta: T = T(1) / T(10_000)) -> Matcher<T> {
    Matcher { actual in
        let expectation = "be close to <\(expected)> (within \(delta))"
        guard let value = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        return MatchResult(abs(value - expected) <= delta, expectation: expectation, actual: "<\(value)>")
    }
}

private func compare<T: Comparable>(_ verb: String, _ limit: T, _ test: @escaping (T, T) -> Bool) -> Matcher<T> {
    Matcher { actual in
        let expectation = "\(verb) \(describeValue(limit))"
        guard let value = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        return MatchResult(test(value, limit), expectation: expectation, actual: describeValue(value))
    }
}
