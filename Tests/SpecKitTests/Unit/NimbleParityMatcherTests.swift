import Foundation
import XCTest

@testable import SpecKit

private class Animal {}
private final class Dolphin: Animal {}
private struct Point: Equatable { var x: Int; var y: Int }
private enum Failure: Error, Equatable { case offline(code: Int), denied }

private func failing(_ error: Error?) throws -> Int {
    if let error { throw error }
    return 7
}

/// Every Nimble-parity matcher, passing and failing, with the exact failure message a user reads.
final class NimbleParityMatcherTests: XCTestCase {
    private func failures(_ body: () throws -> Void) rethrows -> [String] {
        try captureFailures(body)
    }

    // MARK: equal on optionals, tuples and dictionaries

    func testEqualOnOptionals() {
        let some: Int? = 3
        let none: Int? = nil
        XCTAssertEqual(
            failures {
                expect(some).to(equal(3)); expect(none).to(equal(nil)); expect(none).to(beNil())
            }, [])
        XCTAssertEqual(failures { expect(none).to(equal(3)) }, ["expected to equal <3>, got <nil>"])
        XCTAssertEqual(failures { expect(some).to(equal(nil)) }, ["expected to equal <nil>, got <3>"])
    }

    func testEqualOnTuplesShowsADiff() {
        XCTAssertEqual(failures { expect((200, "OK")).to(equal((200, "OK"))) }, [])
        XCTAssertEqual(failures { expect((1, "a", true)).to(equal((1, "a", true))) }, [])
        XCTAssertEqual(
            failures { expect((200, "OK")).to(equal((404, "OK"))) },
            [
                #"""
                expected to equal <(404, "OK")>, got <(200, "OK")>
                Difference (- expected, + actual):
                  (
                -   404
                +   200
                    "OK"
                  )
                """#
            ])
    }

    func testEqualOnDictionariesAndStructsShowsWhichEntryDiffers() {
        XCTAssertEqual(failures { expect(["b": 2, "a": 1]).to(equal(["a": 1, "b": 2])) }, [])
        XCTAssertEqual(
            failures { expect(Point(x: 1, y: 2)).to(equal(Point(x: 1, y: 3))) },
            [
                #"""
                expected to equal <Point(x: 1, y: 3)>, got <Point(x: 1, y: 2)>
                Difference (- expected, + actual):
                  Point(
                    x: 1
                -   y: 3
                +   y: 2
                  )
                """#
            ])
        let long = failures { expect([1, 2, 3, 4, 5]).to(equal([1, 2, 9, 4, 5])) }
        XCTAssertEqual(long.count, 1)
        XCTAssertTrue(long[0].contains("-   9\n+   3"), long[0])
    }

    // MARK: numbers

    func testBeCloseToNumbersDatesAndArrays() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(
            failures {
                expect(0.1 + 0.2).to(beCloseTo(0.3))
                expect(now.addingTimeInterval(0.5)).to(beCloseTo(now, within: 1))
                expect([0.1 + 0.2, 1.0]).to(beCloseTo([0.3, 1.0]))
            }, [])
        XCTAssertEqual(
            failures { expect(now.addingTimeInterval(5)).to(beCloseTo(now, within: 1)) },
            [
                "expected to be close to <2023-11-14T22:13:20.000Z> (within 1.0 s), got <2023-11-14T22:13:25.000Z>"
            ])
        XCTAssertEqual(
            failures { expect([1.0, 2.0]).to(beCloseTo([1.0, 2.5], within: 0.1)) },
            [
                "expected to be close to <1.0, 2.5> (each within 0.1), got <1.0, 2.0> (element [1] is off by 0.5)"
            ])
        XCTAssertEqual(
            failures { expect([1.0]).to(beCloseTo([1.0, 2.0])) },
            [
                "expected to be close to <1.0, 2.0> (each within 0.0001), got <1.0> (1 elements, not 2)"
            ])
    }

    func testComparisonsAndRanges() {
        XCTAssertEqual(
            failures {
                expect(3).to(beGreaterThan(2)); expect(3).to(beGreaterThanOrEqualTo(3))
                expect(1).to(beLessThan(2)); expect(2).to(beLessThanOrEqualTo(2))
                expect(3).to(beWithin(1...3)); expect(0).to(beWithin(0..<3))
            }, [])
        XCTAssertEqual(
            failures {
                expect(2).to(beGreaterThan(2))
                expect(1).to(beGreaterThanOrEqualTo(2))
                expect(2).to(beLessThan(2))
                expect(3).to(beLessThanOrEqualTo(2))
                expect(4).to(beWithin(1...3))
                expect(3).to(beWithin(0..<3))
            },
            [
                "expected to be greater than <2>, got <2>",
                "expected to be greater than or equal to <2>, got <1>",
                "expected to be less than <2>, got <2>",
                "expected to be less than or equal to <2>, got <3>",
                "expected to be within <1>...<3>, got <4>",
                "expected to be within <0>..<<3>, got <3>",
            ])
    }

    // MARK: identity and types

    func testBeIdenticalTo() {
        let a = Dolphin()
        let b = Dolphin()
        XCTAssertEqual(
            failures {
                expect(a).to(beIdenticalTo(a)); expect(a).to(be(a)); expect(a).toNot(beIdenticalTo(b))
            }, [])
        let message = failures { expect(a).to(beIdenticalTo(b)) }
        XCTAssertEqual(message.count, 1)
        XCTAssertTrue(message[0].hasPrefix("expected to be identical to <Dolphin instance #"), message[0])
        XCTAssertTrue(message[0].contains(", got <Dolphin instance #"), message[0])
    }

    func testBeAKindOfAndBeAnInstanceOf() {
        let animal: Animal = Dolphin()
        XCTAssertEqual(
            failures {
                expect(animal).to(beAKindOf(Animal.self))
                expect(animal).to(beAKindOf(Dolphin.self))
                expect(animal).to(beAnInstanceOf(Dolphin.self))
                expect(animal).toNot(beAnInstanceOf(Animal.self))
                expect(Failure.denied as Error).to(beAKindOf(Failure.self))
            }, [])
        XCTAssertEqual(
            failures {
                expect(Animal()).to(beAKindOf(Dolphin.self))
                expect(animal).to(beAnInstanceOf(Animal.self))
                expect(3).to(beAKindOf(String.self))
            },
            [
                "expected to be a kind of Dolphin, got <Animal instance>",
                "expected to be an instance of Animal, got <Dolphin instance>",
                "expected to be a kind of String, got <Int instance>",
            ])
    }

    // MARK: truthiness

    func testTruthyAndFalsy() {
        let yes: Bool? = true
        let no: Bool? = false
        let none: Bool? = nil
        XCTAssertEqual(
            failures {
                expect(yes).to(beTruthy()); expect(no).to(beFalsy()); expect(none).to(beFalsy())
                expect(true).to(beTrue()); expect(false).to(beFalse()); expect(none).to(beNil())
            }, [])
        XCTAssertEqual(
            failures {
                expect(none).to(beTruthy()); expect(yes).to(beFalsy())
            },
            [
                "expected to be truthy, got <nil>", "expected to be falsy, got <true>",
            ])
    }

    // MARK: collections and strings

    func testContainAndFriends() {
        XCTAssertEqual(
            failures {
                expect([1, 2, 3]).to(contain(1, 3))
                expect([1, 2, 3]).to(contain([2, 3]))
                expect("hello world").to(contain("lo w"))
                expect("hello").to(contain("he", "lo"))
                expect([1, 2]).to(beginWith(1)); expect([1, 2]).to(endWith(2))
                expect("hello").to(beginWith("he")); expect("hello").to(endWith("lo"))
                expect([1, 2]).to(haveCount(2)); expect([Int]()).to(beEmpty())
                expect("v1.2.3").to(match(#"^v\d+\.\d+\.\d+$"#))
            }, [])
        XCTAssertEqual(
            failures {
                expect([1, 2, 3]).to(contain(4, 5, 1))
                expect([1, 2, 3]).to(contain([9]))
                expect("hello").to(contain("xyz"))
                expect([1, 2]).to(beginWith(2))
                expect([1, 2]).to(endWith(1))
                expect([1]).to(haveCount(2))
                expect([1]).to(beEmpty())
                expect("v1").to(match(#"^v\d+\.\d+$"#))
            },
            [
                "expected to contain <4>, <5>, <1>, got <[1, 2, 3]> (missing <4>, <5>)",
                "expected to contain <9>, got <[1, 2, 3]>",
                #"expected to contain <"xyz">, got <"hello">"#,
                "expected to begin with <2>, got <[1, 2]>",
                "expected to end with <1>, got <[1, 2]>",
                "expected to have count <2>, got count <1>: <[1]>",
                "expected to be empty, got <[1]>",
                #"expected to match /^v\d+\.\d+$/, got <"v1">"#,
            ])
    }

    func testContainElementSatisfyingAndAllPass() {
        XCTAssertEqual(
            failures {
                expect([1, 2, 3]).to(containElementSatisfying({ $0 > 2 }, "greater than 2"))
                expect([2, 4]).to(allPass("be even") { $0 % 2 == 0 })
                expect([2, 4]).to(allPass(beGreaterThan(1)))
            }, [])
        XCTAssertEqual(
            failures {
                expect([1, 2, 3]).to(containElementSatisfying({ $0 > 5 }, "greater than 5"))
                expect([1, 2, 3]).to(containElementSatisfying { $0 > 5 })
                expect([2, 3, 4]).to(allPass("be even") { $0 % 2 == 0 })
                expect([2, 0]).to(allPass(beGreaterThan(1)))
            },
            [
                "expected to contain an element satisfying greater than 5, got <[1, 2, 3]>",
                "expected to contain an element satisfying the condition, got <[1, 2, 3]>",
                "expected to all be even, got element [1] <3> does not, in <[2, 3, 4]>",
                "expected to all be greater than <1>, got element [1] <0> does not, in <[2, 0]>",
            ])
    }

    // MARK: errors

    func testThrowErrorEveryForm() {
        XCTAssertEqual(
            failures {
                expect { try failing(Failure.denied) }.to(throwError())
                expect { try failing(Failure.denied) }.to(throwError(Failure.denied))
                expect { try failing(Failure.denied) }.to(throwError(Failure.self))
                expect { try failing(Failure.offline(code: 3)) }.to(
                    throwError { error in
                        expect(error).to(beAKindOf(Failure.self))
                    })
                expect { try failing(Failure.offline(code: 3)) }.to(
                    throwError(errorType: Failure.self) { error in
                        expect(error).to(equal(.offline(code: 3)))
                    })
                expect { try failing(nil) }.toNot(throwError())
            }, [])
        XCTAssertEqual(
            failures {
                expect { try failing(nil) }.to(throwError())
                expect { try failing(Failure.denied) }.to(throwError(Failure.offline(code: 1)))
                expect { try failing(Failure.offline(code: 3)) }.to(
                    throwError { error in
                        expect(error).to(beAKindOf(CocoaError.self))
                    })
                expect { try failing(Failure.offline(code: 3)) }.to(
                    throwError(errorType: Failure.self) { error in
                        expect(error).to(equal(.denied))
                    })
            },
            [
                "expected to throw an error, got no error (value <7>)",
                #"expected to throw error <offline(code: 1)>, got error "denied" (Failure)"#,
                #"expected to throw an error that passes the checks, got error "offline(code: 3)" (Failure)"#
                    + "\n  expected to be a kind of CocoaError, got <Failure instance>",
                #"expected to throw an error of type <Failure> that passes the checks, got error "offline(code: 3)" (Failure)"#
                    + "\n  expected to equal <.denied>, got <.offline(code: 3)>",
            ])
    }

    func testThrowErrorOfATypeAndContainingTextFailures() {
        XCTAssertEqual(
            failures {
                expect { try failing(CocoaError(.fileNoSuchFile)) }.to(throwError(Failure.self))
                expect { try failing(Failure.denied) }.to(throwError(containing: "offline"))
                expect { try failing(Failure.denied) }.toNot(throwError())
            },
            [
                #"expected to throw an error of type <Failure>, got error "\#(CocoaError(.fileNoSuchFile))" (CocoaError)"#,
                #"expected to throw an error containing <"offline">, got error "denied" (Failure)"#,
                #"expected to not throw an error, got error "denied" (Failure)"#,
            ])
    }

    func testThrowAssertionCatchesATrapInAChildProcess() {
        XCTAssertEqual(
            failures {
                expect { () -> Int in preconditionFailure("boom") }.to(throwAssertion())
                expect { () -> Int? in [Int]()[1] }.to(throwAssertion())
            }, [])
        XCTAssertEqual(failures { expect { 1 + 1 }.to(throwAssertion()) }, ["expected to throw an assertion, got no assertion"])
    }

    /// A child that crashes for another reason than a Swift trap (abort, a bad memory access) is
    /// not an assertion: only SIGILL/SIGTRAP, what Swift traps raise, pass.
    func testThrowAssertionDoesNotCountACrashThatIsNotATrap() {
        XCTAssertEqual(
            failures {
                expect { () -> Int in abort() }.to(throwAssertion())
                expect { () -> Int in UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee }.to(throwAssertion())
            },
            [
                "expected to throw an assertion, got a crash by SIGABRT, signal 6, which is not a Swift trap",
                "expected to throw an assertion, got a crash by SIGSEGV, signal 11, which is not a Swift trap",
            ])
        XCTAssertEqual(TrapProbe.outcome(ofSignal: SIGILL), .trapped(SIGILL))
        XCTAssertEqual(TrapProbe.outcome(ofSignal: SIGTRAP), .trapped(SIGTRAP))
        XCTAssertEqual(TrapProbe.outcome(ofSignal: SIGBUS), .crashed(SIGBUS))
    }

    // MARK: composition

    func testSatisfyAllOfAnyOfAndOperators() {
        XCTAssertEqual(
            failures {
                expect(5).to(satisfyAllOf(beGreaterThan(1), beLessThan(10)))
                expect(5).to(beGreaterThan(1) && beLessThan(10))
                expect(204).to(satisfyAnyOf(equal(200), equal(204)))
                expect(204).to(equal(200) || equal(204))
            }, [])
        XCTAssertEqual(
            failures {
                expect(50).to(satisfyAllOf(beGreaterThan(1), beLessThan(10)))
                expect(500).to(equal(200) || equal(204))
            },
            [
                "expected to {be greater than <1>}, and {be less than <10>}, got <50>",
                "expected to {equal <200>}, or {equal <204>}, got <500>",
            ])
    }

    func testMapAppliesATransformFirst() {
        XCTAssertEqual(failures { expect("hello").to(map(\.count, equal(5))) }, [])
        XCTAssertEqual(
            failures { expect("hello").to(map({ $0.count }, beLessThan(3))) },
            [
                "expected to map the value, then be less than <3>, got <5>"
            ])
    }

    // MARK: operator forms

    func testOperatorForms() {
        let a = Dolphin()
        let b = Dolphin()
        XCTAssertEqual(
            failures {
                expect(1 + 1) == 2
                expect("a") != "b"
                expect(1) < 2
                expect(2) <= 2
                expect(3) > 2
                expect(3) >= 3
                expect(0.1 + 0.2) ≈ 0.3
                expect(1.05) ≈ 1.0 ± 0.1
                expect(1.05) ≈ (1.0, 0.1)
                expect([0.1 + 0.2]) ≈ [0.3]
                expect(a) === a
                expect(a) !== Dolphin()
            }, [])
        XCTAssertEqual(
            failures {
                expect(1 + 1) == 3
                expect("a") != "a"
                expect(3) < 2
                expect(1) > 2
                expect(1.5) ≈ 1.0 ± 0.1
                expect(3) <= 2
                expect(1) >= 2
                expect([1.0]) ≈ [2.0]
                expect(a) === b
                expect(a) !== a
                expect(Int?.none) == 1
            },
            [
                "expected to equal <3>, got <2>",
                #"expected to not equal <"a">, got <"a">"#,
                "expected to be less than <2>, got <3>",
                "expected to be greater than <2>, got <1>",
                "expected to be close to <1.0> (within 0.1), got <1.5>",
                "expected to be less than or equal to <2>, got <3>",
                "expected to be greater than or equal to <2>, got <1>",
                "expected to be close to <2.0> (each within 0.0001), got <1.0> (element [0] is off by 1.0)",
            ] + identityFailures(a, b) + ["expected to equal <1>, got <nil>"])
    }

    /// `===`/`!==` failures name the objects by a per-run identity, so only their shape is fixed.
    private func identityFailures(_ a: Dolphin, _ b: Dolphin) -> [String] {
        let captured = failures {
            expect(a) === b; expect(a) !== a
        }
        XCTAssertTrue(captured[0].hasPrefix("expected to be identical to <Dolphin instance #"), captured[0])
        XCTAssertTrue(captured[1].hasPrefix("expected to not be identical to <Dolphin instance #"), captured[1])
        return captured
    }

    // MARK: polling

    func testToNeverAndToAlwaysWatchForTheWholeDuration() {
        XCTAssertEqual(
            failures {
                expect(1).toNever(equal(2), until: 0.05)
                expect(1).toAlways(equal(1), until: 0.05)
                expect(1).neverTo(equal(2), until: 0.05, pollInterval: 0.01)
                expect(1).alwaysTo(equal(1), until: 0.05)
            }, [])
        var value = 1
        XCTAssertEqual(
            failures {
                expect(1).toNever(equal(1), until: 5)
                expect(
                    { () -> Int in
                        value += 1; return value
                    }()
                ).toAlways(beLessThan(3), until: 5)
            }, ["expected to never equal <1>, got <1>", "expected to always be less than <3>, got <3>"])
    }

    func testAsyncToNeverAndToAlways() async {
        let failures = await captureFailures {
            await expect(1).toNever(equal(2), until: 0.05)
            await expect(1).toAlways(equal(1), until: 0.05)
            await expect(1).toNever(equal(1), until: 5)
            await expect(1).toAlways(equal(2), until: 5)
        }
        XCTAssertEqual(failures, ["expected to never equal <1>, got <1>", "expected to always equal <2>, got <1>"])
    }

    func testPollingDefaultsAreConfigurable() {
        let (timeout, interval) = (PollingDefaults.timeout, PollingDefaults.pollInterval)
        defer { PollingDefaults.timeout = timeout; PollingDefaults.pollInterval = interval }
        PollingDefaults.timeout = 0.05
        PollingDefaults.pollInterval = 0.02
        XCTAssertEqual(PollingDefaults.pollInterval, 0.02)
        PollingDefaults.pollInterval = -1
        XCTAssertEqual(PollingDefaults.pollInterval, 0.02, "a non-positive interval is ignored")
        XCTAssertEqual(failures { expect(1).toEventually(equal(2)) }, ["expected to eventually equal <2>, got <1> (timed out after 50 ms)"])
        XCTAssertEqual(failures { waitUntil { _ in } }, ["waitUntil timed out after 50 ms: done() was never called"])
    }

    func testWaitUntilSync() {
        XCTAssertEqual(
            captureFailures {
                waitUntil(timeout: 10) { done in DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { done() } }
                waitUntil(timeout: 10) { done in
                    done(); done()
                }
            }, [])
        XCTAssertEqual(
            captureFailures { waitUntil(timeout: 0.05) { _ in } },
            [
                "waitUntil timed out after 50 ms: done() was never called"
            ])
    }

    func testWaitUntilAsync() async {
        let asyncFailures = await captureFailures {
            await waitUntil(timeout: 10) { done in
                Task {
                    try? await Task.sleep(nanoseconds: 10_000_000); done()
                }
            }
            await waitUntil(timeout: 0.05) { _ in }
        }
        XCTAssertEqual(asyncFailures, ["waitUntil timed out after 50 ms: done() was never called"])
    }

    // MARK: require and unwrap

    func testRequireAndUnwrapReturnTheValueOrThrowAfterOneFailure() throws {
        let name: String? = "Ada"
        let none: String? = nil
        var returned: [String] = []
        XCTAssertEqual(
            try failures {
                returned.append(try require(name).toNot(beNil()))
                returned.append(try unwrap(name))
                returned.append(try require(name).to(beginWith("A")))
            }, [])
        XCTAssertEqual(returned, ["Ada", "Ada", "Ada"])

        var thrown: [Error] = []
        let messages = failures {
            do { _ = try unwrap(none) } catch { thrown.append(error) }
            do { _ = try require(name).to(beginWith("B")) } catch { thrown.append(error) }
        }
        XCTAssertEqual(messages, ["expected to not be nil, got <nil>", #"expected to begin with <"B">, got <"Ada">"#])
        XCTAssertEqual(thrown.count, 2)
        XCTAssertTrue(thrown.allSatisfy { $0 is RequirementFailure })
    }

    func testFailRecordsAMessage() {
        XCTAssertEqual(failures { fail("expected the loaded state") }, ["expected the loaded state"])
    }

    func testRequireToEventuallyReturnsTheValueThatMatched() async throws {
        let value = try await require(5).toEventually(beGreaterThan(3), timeout: 5)
        XCTAssertEqual(value, 5)
        let asyncValue = try await unwrap { () async -> Int? in 9 }
        XCTAssertEqual(asyncValue, 9)
        var thrown = false
        let messages = await captureFailures {
            do { _ = try await require(1).toEventually(equal(2), timeout: 0.05) } catch { thrown = error is RequirementFailure }
        }
        XCTAssertTrue(thrown)
        XCTAssertEqual(messages, ["expected to eventually equal <2>, got <1> (timed out after 50 ms)"])
    }

    func testNilAndBooleanFailures() {
        XCTAssertEqual(
            failures {
                expect(3).to(beNil()); expect(false).to(beTrue()); expect(true).to(beFalse())
            },
            [
                "expected to be nil, got <3>", "expected to be true, got <false>", "expected to be false, got <true>",
            ])
    }

    // MARK: custom matchers

    func testACustomMatcherInAFewLines() {
        func beAValidEmail() -> Matcher<String> {
            Matcher("be a valid email") { $0.contains("@") && $0.contains(".") }
        }
        func haveTitle(_ title: String) -> Matcher<[String: String]> {
            map({ $0["title"] }, equal(title))
        }
        XCTAssertEqual(
            failures {
                expect("a@b.co").to(beAValidEmail()); expect(["title": "Hi"]).to(haveTitle("Hi"))
            }, [])
        XCTAssertEqual(failures { expect("nope").to(beAValidEmail()) }, [#"expected to be a valid email, got <"nope">"#])
    }
}
