import Foundation

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
    .requiringValue("be close to <\(expected)> (within \(delta))") { (abs($0 - expected) <= delta, "<\($0)>") }
}

/// Passes when `dates` are at most `delta` seconds apart: `expect(story.createdAt).to(beCloseTo(now, within: 60))`.
public func beCloseTo(_ expected: Date, within delta: TimeInterval = 0.0001) -> Matcher<Date> {
    Matcher("be close to \(describeValue(expected)) (within \(delta) s)") { abs($0.timeIntervalSince(expected)) <= delta }
}

/// Passes when both arrays have the same length and each element is within `delta` of its
/// counterpart; the message names the first element that is not.
public func beCloseTo<T: FloatingPoint>(_ expected: [T], within delta: T = T(1) / T(10_000)) -> Matcher<[T]> {
    .requiringValue("be close to <\(expected.map { "\($0)" }.joined(separator: ", "))> (each within \(delta))") { value in
        let got = "<\(value.map { "\($0)" }.joined(separator: ", "))>"
        guard value.count == expected.count else {
            return (false, got + " (\(value.count) elements, not \(expected.count))")
        }
        if let index = value.indices.first(where: { !(abs(value[$0] - expected[$0]) <= delta) }) {
            return (false, got + " (element [\(index)] is off by \(abs(value[index] - expected[index])))")
        }
        return (true, got)
    }
}

/// Passes when the value lies in the closed range: `expect(score).to(beWithin(1...5))`.
public func beWithin<T: Comparable>(_ range: ClosedRange<T>) -> Matcher<T> {
    Matcher("be within \(describeValue(range.lowerBound))...\(describeValue(range.upperBound))") { range.contains($0) }
}

/// Passes when the value lies in the half-open range: `expect(index).to(beWithin(0..<count))`.
public func beWithin<T: Comparable>(_ range: Range<T>) -> Matcher<T> {
    Matcher("be within \(describeValue(range.lowerBound))..<\(describeValue(range.upperBound))") { range.contains($0) }
}

private func compare<T: Comparable>(_ verb: String, _ limit: T, _ test: @escaping (T, T) -> Bool) -> Matcher<T> {
    Matcher("\(verb) \(describeValue(limit))") { test($0, limit) }
}
