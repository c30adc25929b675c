import Foundation
import XCTest

private struct ReproError: Error, Equatable {}

private func fail(_ error: Error?) throws -> Int {
    if let error { throw error }
    return 7
}

/// `expect { … }` evaluates the closure whatever its shape — one expression or several
/// statements, returning a value or nothing, throwing or not — and `expect(x)` still takes a
/// value. A closure must never be taken for the value under test ("got no error (value <(Function)>)").
final class ExpectClosureTests: XCTestCase {
    // MARK: One expression

    func testSingleExpressionClosureReturningAValue() {
        var runs = 0
        let failures = captureFailures {
            expect {
                runs += 1; return 6 * 7
            }.to(equal(42))
            expect { 6 * 7 }.to(equal(42))
            expect { 6 * 7 }.to(equal(41))
        }
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(failures, ["expected to equal <41>, got <42>"])
    }

    func testSingleExpressionThrowingClosure() {
        let failures = captureFailures {
            expect { try fail(ReproError()) }.to(throwError(ReproError.self))
            expect { try fail(ReproError()) }.to(throwError(ReproError()))
            expect { try fail(nil) }.toNot(throwError())
            expect { try fail(nil) }.to(throwError())
        }
        XCTAssertEqual(failures, ["expected to throw an error, got no error (value <7>)"])
    }

    func testSingleExpressionClosureReturningNothing() {
        var log: [String] = []
        let failures = captureFailures {
            expect { log.append("ran") }.toNot(throwError())
            expect { log.append("ran again") }.to(throwError())
        }
        XCTAssertEqual(log, ["ran", "ran again"])
        XCTAssertEqual(failures, ["expected to throw an error, got no error"])
    }

    func testSingleExpressionClosureReturningAnOptional() {
        let nothing: Int? = nil
        let failures = captureFailures {
            expect { nothing }.to(beNil())
            expect { nothing ?? 3 }.to(equal(3))
        }
        XCTAssertEqual(failures, [])
    }

    // MARK: Several statements

    func testMultiStatementClosureThatThrows() {
        let failures = captureFailures {
            expect {
                let y = 1; _ = y; throw ReproError()
            }.to(throwError(ReproError.self))
            expect {
                let attempts = 2
                _ = attempts
                throw ReproError()
            }.to(throwError(ReproError()))
            expect {
                let y = 1; _ = y; throw ReproError()
            }.toNot(throwError())
        }
        XCTAssertEqual(failures, [#"expected to not throw an error, got error "ReproError()" (ReproError)"#])
    }

    func testMultiStatementClosureReturningAValue() {
        let failures = captureFailures {
            expect {
                let base = 6
                return base * 7
            }.to(equal(42))
            expect {
                let base = 6; return base * 7
            }.to(equal(40))
            expect {
                let value = try fail(nil)
                return value + 1
            }.to(equal(8))
        }
        XCTAssertEqual(failures, ["expected to equal <40>, got <42>"])
    }

    func testMultiStatementClosureReturningNothing() {
        var log: [Int] = []
        let failures = captureFailures {
            expect {
                log.append(1)
                log.append(2)
            }.toNot(throwError())
            expect {
                log.append(3)
                _ = try fail(nil)
            }.to(throwError())
        }
        XCTAssertEqual(log, [1, 2, 3])
        XCTAssertEqual(failures, ["expected to throw an error, got no error"])
    }

    func testMultiStatementClosureThatThrowsPartWay() {
        var reached = false
        let failures = captureFailures {
            expect {
                _ = try fail(ReproError())
                reached = true
                return 1
            }.to(equal(1))
        }
        XCTAssertFalse(reached)
        XCTAssertEqual(failures, [#"expected a value, but the expression threw error "ReproError()" (ReproError)"#])
    }

    func testClosureIsEvaluatedOnEveryPollOfToEventually() {
        var polls = 0
        let failures = captureFailures {
            expect {
                polls += 1
                return polls
            }.toEventually(equal(3), timeout: 30)
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(polls, 3)
    }

    // MARK: Values still bind to the value form

    func testValuesAndThrowingExpressionsStillUseTheValueForm() throws {
        let failures = try captureFailures {
            expect(6 * 7).to(equal(42))
            expect(try fail(ReproError())).to(throwError(ReproError.self))
            expect(try fail(nil)).to(equal(7))
            expect(Optional<Int>.none).to(beNil())
        }
        XCTAssertEqual(failures, [])
    }

    func testAnOptionalClosureIsAValue() {
        let handler: (() -> Void)? = nil
        let failures = captureFailures {
            expect(handler).to(beNil())
        }
        XCTAssertEqual(failures, [])
    }
}
