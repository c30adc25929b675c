import Foundation
import XCTest

private enum Boom: Error, Equatable {
    case once, twice
}

private struct Other: Error {}

private func throwing(_ error: Error?) throws -> Int {
    if let error { throw error }
    return 1
}

/// Matchers through their public evaluation API: match status and message words.
final class MatcherTests: XCTestCase {
    private func message<T>(_ matcher: Matcher<T>, _ value: T?, _ style: ExpectationStyle = .to) throws -> String {
        try matcher.evaluate(value).message(for: style)
    }

    private func passes<T>(_ matcher: Matcher<T>, _ value: T?, _ style: ExpectationStyle = .to) throws -> Bool {
        try matcher.evaluate(value).passes(style)
    }

    func testEqualPassesOnEqualValuesAndDescribesBothSides() throws {
        XCTAssertTrue(try passes(equal(3), 3))
        XCTAssertFalse(try passes(equal(3), 2))
        XCTAssertEqual(try message(equal(true), false), "expected to equal <true>, got <false>")
        XCTAssertEqual(try message(equal("a"), "b"), #"expected to equal <"a">, got <"b">"#)
        XCTAssertEqual(try message(equal(3), 3, .toNot), "expected to not equal <3>, got <3>")
        XCTAssertEqual(try message(equal(3), nil), "expected to equal <3>, got <nil>")
        XCTAssertTrue(try passes(equal(Int?.none), nil), "equal(nil) matches nil")
    }

    func testEqualSortsDictionaryKeysInItsMessage() throws {
        let text = try message(equal(["b": 2, "a": 1]), ["a": 1, "b": 3])
        XCTAssertEqual(
            text,
            #"""
            expected to equal <["a": 1, "b": 2]>, got <["a": 1, "b": 3]>
            Difference (- expected, + actual):
              [
                "a": 1
            -   "b": 2
            +   "b": 3
              ]
            """#)
    }

    func testBeNilAndBooleans() throws {
        XCTAssertTrue(try passes(beNil(), Int?.none))
        XCTAssertEqual(try message(beNil(), 4), "expected to be nil, got <4>")
        XCTAssertTrue(try passes(beTrue(), true))
        XCTAssertEqual(try message(beTrue(), false), "expected to be true, got <false>")
        XCTAssertEqual(try message(beFalse(), true), "expected to be false, got <true>")
        XCTAssertFalse(try passes(beFalse(), nil), "nil is not false")
    }

    func testCollectionMatchers() throws {
        XCTAssertTrue(try passes(beEmpty(), [Int]()))
        XCTAssertTrue(try passes(beEmpty(), ""))
        XCTAssertEqual(try message(beEmpty(), [1]), "expected to be empty, got <[1]>")
        XCTAssertTrue(try passes(beEmpty(), [String: Int]()))
        XCTAssertEqual(try message(haveCount(3), ["a", "b"]), #"expected to have count <3>, got count <2>: <["a", "b"]>"#)
        XCTAssertTrue(try passes(haveCount(2), ["a", "b"]))
        XCTAssertTrue(try passes(contain(2, 3), [1, 2, 3]))
        XCTAssertEqual(try message(contain(4), [1, 2]), "expected to contain <4>, got <[1, 2]>")
        XCTAssertTrue(try passes(contain("ell", "lo"), "hello"))
        XCTAssertEqual(try message(contain("x"), "hello"), #"expected to contain <"x">, got <"hello">"#)
        XCTAssertTrue(try passes(beginWith(1), [1, 2]))
        XCTAssertFalse(try passes(beginWith(2), [1, 2]))
        XCTAssertTrue(try passes(endWith(2), [1, 2]))
        XCTAssertTrue(try passes(beginWith("he"), "hello"))
        XCTAssertEqual(try message(endWith("x"), "hello"), #"expected to end with <"x">, got <"hello">"#)
        XCTAssertEqual(try message(beEmpty(), [Int]?.none), "expected to be empty, got <nil>")
        XCTAssertEqual(try matcherStatus(beEmpty(), [Int]?.none), .failsRegardless)
    }

    private func matcherStatus<T>(_ matcher: Matcher<T>, _ value: T?) throws -> MatchResult.Status {
        try matcher.evaluate(value).status
    }

    func testRegularExpressions() throws {
        XCTAssertTrue(try passes(match("^[0-9]+ points"), "42 points · 5 comments"))
        XCTAssertEqual(try message(match("^x"), "abc"), #"expected to match /^x/, got <"abc">"#)
        let invalid = try match("(").evaluate("abc")
        XCTAssertEqual(invalid.status, .failsRegardless)
        XCTAssertTrue(invalid.message(for: .to).contains("/(/ is not a valid regular expression"))
    }

    func testComparisons() throws {
        XCTAssertTrue(try passes(beGreaterThan(2), 3))
        XCTAssertFalse(try passes(beGreaterThan(3), 3))
        XCTAssertTrue(try passes(beGreaterThanOrEqualTo(3), 3))
        XCTAssertTrue(try passes(beLessThan(3), 2))
        XCTAssertTrue(try passes(beLessThanOrEqualTo(3), 3))
        XCTAssertEqual(try message(beLessThan(2), 5), "expected to be less than <2>, got <5>")
        XCTAssertEqual(try matcherStatus(beGreaterThan(1), nil), .failsRegardless)
        XCTAssertFalse(try passes(beGreaterThan(1), nil, .toNot), "nil fails toNot as well")
    }

    func testCloseness() throws {
        XCTAssertTrue(try passes(beCloseTo(0.3), 0.1 + 0.2))
        XCTAssertTrue(try passes(beCloseTo(1.0, within: 0.1), 1.05))
        XCTAssertEqual(try message(beCloseTo(1.0, within: 0.1), 1.5), "expected to be close to <1.0> (within 0.1), got <1.5>")
    }

    func testThrowErrorVariants() throws {
        let any: Matcher<Int> = throwError()
        XCTAssertTrue(try any.evaluate(ActualValue { try throwing(Boom.once) }).passes(.to))
        XCTAssertEqual(
            try any.evaluate(ActualValue { try throwing(nil) }).message(for: .to), "expected to throw an error, got no error (value <1>)")

        let specific: Matcher<Int> = throwError(Boom.twice)
        XCTAssertTrue(try specific.evaluate(ActualValue { try throwing(Boom.twice) }).passes(.to))
        XCTAssertEqual(
            try specific.evaluate(ActualValue { try throwing(Boom.once) }).message(for: .to),
            #"expected to throw error <twice>, got error "once" (Boom)"#)

        let typed: Matcher<Int> = throwError(Boom.self)
        XCTAssertTrue(try typed.evaluate(ActualValue { try throwing(Boom.once) }).passes(.to))
        XCTAssertFalse(try typed.evaluate(ActualValue { try throwing(Other()) }).passes(.to))

        let containing: Matcher<Int> = throwError(containing: "ce")
        XCTAssertTrue(try containing.evaluate(ActualValue { try throwing(Boom.once) }).passes(.to))

        let void: Matcher<Void> = throwError()
        XCTAssertEqual(try void.evaluate(ActualValue { () }).message(for: .to), "expected to throw an error, got no error")
    }

    func testSatisfyAndCustomMatchersInAFewLines() throws {
        func beEven() -> Matcher<Int> {
            Matcher("be even") { $0 % 2 == 0 }
        }
        XCTAssertTrue(try passes(beEven(), 4))
        XCTAssertEqual(try message(beEven(), 3), "expected to be even, got <3>")
        XCTAssertEqual(try message(beEven(), nil), "expected to be even, got <nil>")
        XCTAssertEqual(
            try message(satisfy("be short") { (text: String) in text.count < 3 }, "long"), #"expected to be short, got <"long">"#)
    }

    func testMessagesForEventuallyStyles() throws {
        let result = try equal(1).evaluate(2)
        XCTAssertEqual(result.message(for: .toEventually), "expected to eventually equal <1>, got <2>")
        XCTAssertEqual(try equal(1).evaluate(1).message(for: .toEventuallyNot), "expected to eventually not equal <1>, got <1>")
    }

    func testExpectRecordsFailuresAtTheCallerAndReturnsTheOutcome() {
        var passed = true
        let failures = captureFailures {
            passed = expect(1 + 1).to(equal(3))
            expect([1, 2]).toNot(contain(5))
            expect(2).notTo(equal(2), description: "checking twos")
        }
        XCTAssertFalse(passed)
        XCTAssertEqual(failures, ["expected to equal <3>, got <2>", "checking twos: expected to not equal <2>, got <2>"])
    }

    func testAThrowingExpressionFailsWithTheError() throws {
        let failures = try captureFailures {
            expect(try throwing(Boom.once)).to(equal(1))
            expect { try throwing(Boom.twice) }.to(throwError(Boom.twice))
        }
        XCTAssertEqual(failures, [#"expected a value, but the expression threw error "once" (Boom)"#])
    }

    func testExpressionIsEvaluatedOnceForTo() {
        var evaluations = 0
        func next() -> Int {
            evaluations += 1
            return evaluations
        }
        expect(next()).to(equal(1))
        XCTAssertEqual(evaluations, 1)
    }
}
