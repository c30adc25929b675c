import Foundation

// Nimble's operator forms: `expect(total) == 3`, `expect(name) != "guest"`, `expect(count) > 0`,
// `expect(ratio) ≈ 0.33`, `expect(ratio) ≈ 0.33 ± 0.01`, `expect(a) === b`. Each is the matcher
// it reads as (`equal`, `beGreaterThan`, `beCloseTo`, `beIdenticalTo`…), with the same message.

precedencegroup PlusMinusPrecedence {
    higherThan: ComparisonPrecedence
    lowerThan: AdditionPrecedence
}

infix operator ≈ : ComparisonPrecedence
infix operator ± : PlusMinusPrecedence

/// `expect(x) == y`: same as `expect(x).to(equal(y))`.
public func == <T: Equatable>(lhs: Expectation<T>, rhs: T?) {
    lhs.to(equal(rhs))
}

/// `expect(x) != y`: same as `expect(x).toNot(equal(y))`.
public func != <T: Equatable>(lhs: Expectation<T>, rhs: T?) {
    lhs.toNot(equal(rhs))
}

/// `expect(x) < y`: same as `expect(x).to(beLessThan(y))`.
public func < <T: Comparable>(lhs: Expectation<T>, rhs: T) {
    lhs.to(beLessThan(rhs))
}

/// `expect(x) <= y`: same as `expect(x).to(beLessThanOrEqualTo(y))`.
public func <= <T: Comparable>(lhs: Expectation<T>, rhs: T) {
    lhs.to(beLessThanOrEqualTo(rhs))
}

/// `expect(x) > y`: same as `expect(x).to(beGreaterThan(y))`.
public func > <T: Comparable>(lhs: Expectation<T>, rhs: T) {
    lhs.to(beGreaterThan(rhs))
}

/// `expect(x) >= y`: same as `expect(x).to(beGreaterThanOrEqualTo(y))`.
public func >= <T: Comparable>(lhs: Expectation<T>, rhs: T) {
    lhs.to(beGreaterThanOrEqualTo(rhs))
}

/// `expect(x) ≈ y`: same as `expect(x).to(beCloseTo(y))` (default delta 0.0001).
public func ≈ <T: FloatingPoint>(lhs: Expectation<T>, rhs: T) {
    lhs.to(beCloseTo(rhs))
}

/// `expect(x) ≈ (y, delta)` or `expect(x) ≈ y ± delta`.
public func ≈ <T: FloatingPoint>(lhs: Expectation<T>, rhs: (expected: T, delta: T)) {
    lhs.to(beCloseTo(rhs.expected, within: rhs.delta))
}

/// `expect(values) ≈ [0.1, 0.2]`: element-wise `beCloseTo`.
public func ≈ <T: FloatingPoint>(lhs: Expectation<[T]>, rhs: [T]) {
    lhs.to(beCloseTo(rhs))
}

/// `y ± delta`, the right side of `≈`.
public func ± <T: FloatingPoint>(lhs: T, rhs: T) -> (expected: T, delta: T) {
    (lhs, rhs)
}

/// `expect(a) === b`: same as `expect(a).to(beIdenticalTo(b))`.
public func === <T>(lhs: Expectation<T>, rhs: AnyObject?) {
    lhs.to(beIdenticalTo(rhs))
}

/// `expect(a) !== b`: same as `expect(a).toNot(beIdenticalTo(b))`.
public func !== <T>(lhs: Expectation<T>, rhs: AnyObject?) {
    lhs.toNot(beIdenticalTo(rhs))
}
