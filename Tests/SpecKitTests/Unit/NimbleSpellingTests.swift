import Foundation
import Testing
import XCTest

// Issue 26, point 1: a spec written with Nimble's own spellings compiles and behaves as in Nimble —
// `throwError(errorType:)` without a closure, and times spelled as Nimble (and Swift's `Duration`)
// spell them (`.seconds(2)`, `.milliseconds(100)`) next to plain seconds. Each form under both runners.

private enum Boom: Error, Equatable { case bang, fizz }
private struct OtherError: Error {}

private func explode(_ error: Error?) throws -> Int {
    if let error { throw error }
    return 7
}

/// A value another thread changes after a while, as an app's state would.
private final class LaterFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    var value: Bool { lock.lock(); defer { lock.unlock() }; return raised }
    func raise(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            lock.lock(); raised = true; lock.unlock()
        }
    }
}

/// The failures each Nimble-spelled call reports, shared by both runners.
enum NimbleSpellingChecks {
    static let throwErrorFailures = [
        "expected to throw an error of type <Boom>, got no error (value <7>)",
        #"expected to throw an error of type <Boom>, got error "OtherError()" (OtherError)"#,
        #"expected to throw an error of type <Boom> that passes the checks, got error "bang" (Boom)"#
            + "\n  the checks threw error \"fizz\" (Boom)",
    ]

    static func throwErrorForms() -> (passing: [String], failing: [String]) {
        let passing = captureFailures {
            expect { try explode(Boom.bang) }.to(throwError(errorType: Boom.self))
            expect { try explode(Boom.bang) }.to(throwError(errorType: Boom.self) { expect($0).to(equal(.bang)) })
            expect { try explode(Boom.bang) }.to(
                throwError(
                    errorType: Boom.self,
                    closure: { error in
                        guard error == .bang else { throw error }
                    }))
            expect { try explode(nil) }.toNot(throwError(errorType: Boom.self))
        }
        let failing = captureFailures {
            expect { try explode(nil) }.to(throwError(errorType: Boom.self))
            expect { try explode(OtherError()) }.to(throwError(errorType: Boom.self))
            expect { try explode(Boom.bang) }.to(throwError(errorType: Boom.self) { _ in throw Boom.fizz })
        }
        return (passing, failing)
    }

    static let durationFailures = [
        "expected to eventually be true, got <false> (timed out after 50 ms)",
        "expected to eventually not equal <1>, got <1> (timed out after 50 ms)",
        "expected to never equal <1>, got <1>",
        "expected to always equal <2>, got <1>",
        "waitUntil timed out after 50 ms: done() was never called",
    ]

    @available(*, noasync)
    static func durationForms() -> (passing: [String], failing: [String]) {
        let flag = LaterFlag()
        let passing = captureFailures {
            flag.raise(after: 0.05)
            expect(flag.value).toEventually(beTrue(), timeout: .seconds(10))
            expect(flag.value).toEventually(beTrue(), timeout: .seconds(10), pollInterval: .milliseconds(5))
            expect(flag.value).toEventuallyNot(beFalse(), timeout: .seconds(2))
            expect(flag.value).toNotEventually(beFalse(), timeout: .seconds(2))
            expect(1).toNever(equal(2), until: .milliseconds(100))
            expect(1).neverTo(equal(2), until: .milliseconds(30), pollInterval: .milliseconds(10))
            expect(1).toAlways(equal(1), until: .milliseconds(100))
            expect(1).alwaysTo(equal(1), until: .milliseconds(30))
            waitUntil(timeout: .seconds(2)) { done in DispatchQueue.global().async { done() } }
            let limit: Duration = .seconds(2)
            expect(flag.value).toEventually(beTrue(), timeout: .duration(limit), pollInterval: .microseconds(500))
            // Plain seconds keep working, as literals and as TimeInterval values.
            let seconds: TimeInterval = 2
            expect(flag.value).toEventually(beTrue(), timeout: seconds, pollInterval: 0.01)
            expect(1).toNever(equal(2), until: 0.03)
            waitUntil(timeout: 2) { done in done() }
            waitUntil { done in done() }
        }
        let failing = captureFailures {
            expect(false).toEventually(beTrue(), timeout: .milliseconds(50))
            expect(1).toEventuallyNot(equal(1), timeout: .milliseconds(50))
            expect(1).toNever(equal(1), until: .seconds(5))
            expect(1).toAlways(equal(2), until: .seconds(5))
            waitUntil(timeout: .milliseconds(50)) { _ in }
        }
        return (passing, failing)
    }

    static func asyncDurationForms() async -> (passing: [String], failing: [String]) {
        let flag = LaterFlag()
        let passing = await captureFailures {
            flag.raise(after: 0.05)
            await expect(flag.value).toEventually(beTrue(), timeout: .seconds(10))
            await expect(flag.value).toEventuallyNot(beFalse(), timeout: .seconds(2), pollInterval: .milliseconds(5))
            await expect(flag.value).toNotEventually(beFalse(), timeout: .seconds(2))
            await expect(1).toNever(equal(2), until: .milliseconds(100))
            await expect(1).neverTo(equal(2), until: .milliseconds(30))
            await expect(1).toAlways(equal(1), until: .milliseconds(100))
            await expect(1).alwaysTo(equal(1), until: .milliseconds(30))
            await waitUntil(timeout: .seconds(2)) { done in Task { done() } }
            let value = try? await require(flag.value).toEventually(beTrue(), timeout: .seconds(2))
            expect(value).to(equal(true))
            await expect(1).toNever(equal(2), until: 0.03)
            await waitUntil(timeout: 2) { done in done() }
        }
        let failing = await captureFailures {
            await expect(false).toEventually(beTrue(), timeout: .milliseconds(50))
            await expect(1).toEventuallyNot(equal(1), timeout: .milliseconds(50))
            await expect(1).toNever(equal(1), until: .seconds(5))
            await expect(1).toAlways(equal(2), until: .seconds(5))
            await waitUntil(timeout: .milliseconds(50)) { _ in }
        }
        return (passing, failing)
    }
}

final class NimbleSpellingTests: XCTestCase {
    func testThrowErrorWithoutAClosureAndWithAThrowingOne() {
        let outcome = NimbleSpellingChecks.throwErrorForms()
        XCTAssertEqual(outcome.passing, [])
        XCTAssertEqual(outcome.failing, NimbleSpellingChecks.throwErrorFailures)
    }

    func testDurationTimesNextToSeconds() {
        let outcome = NimbleSpellingChecks.durationForms()
        XCTAssertEqual(outcome.passing, [])
        XCTAssertEqual(outcome.failing, NimbleSpellingChecks.durationFailures)
    }

    func testAsyncDurationTimesNextToSeconds() async {
        let outcome = await NimbleSpellingChecks.asyncDurationForms()
        XCTAssertEqual(outcome.passing, [])
        XCTAssertEqual(outcome.failing, NimbleSpellingChecks.durationFailures)
    }

    func testTheSpellingsAreSeconds() {
        XCTAssertEqual(TimeInterval.seconds(2), 2)
        XCTAssertEqual(TimeInterval.seconds(Int64(3)), 3)
        XCTAssertEqual(TimeInterval.milliseconds(100), 0.1)
        XCTAssertEqual(TimeInterval.microseconds(500), 0.0005)
        XCTAssertEqual(TimeInterval.nanoseconds(1_000), 0.000001)
        XCTAssertEqual(TimeInterval.duration(.milliseconds(1_500)), 1.5)
        let (saved, interval) = (PollingDefaults.timeout, PollingDefaults.pollInterval)
        defer { PollingDefaults.timeout = saved; PollingDefaults.pollInterval = interval }
        PollingDefaults.timeout = .seconds(3) // Nimble's spelling of the default
        PollingDefaults.pollInterval = .milliseconds(20)
        XCTAssertEqual(PollingDefaults.timeout, 3)
        XCTAssertEqual(PollingDefaults.pollInterval, 0.02)
    }

    func testRequireToEventuallyWithADuration() throws {
        let flag = LaterFlag()
        flag.raise(after: 0.02)
        XCTAssertEqual(try require(flag.value).toEventually(beTrue(), timeout: .seconds(10)), true)
    }
}

@Suite struct NimbleSpellingSwiftTestingTests {
    @Test func throwErrorWithoutAClosureAndWithAThrowingOne() {
        let outcome = NimbleSpellingChecks.throwErrorForms()
        #expect(outcome.passing == [])
        #expect(outcome.failing == NimbleSpellingChecks.throwErrorFailures)
    }

    @Test func durationTimesNextToSeconds() {
        let outcome = NimbleSpellingChecks.durationForms()
        #expect(outcome.passing == [])
        #expect(outcome.failing == NimbleSpellingChecks.durationFailures)
    }

    @Test func asyncDurationTimesNextToSeconds() async {
        let outcome = await NimbleSpellingChecks.asyncDurationForms()
        #expect(outcome.passing == [])
        #expect(outcome.failing == NimbleSpellingChecks.durationFailures)
    }
}
