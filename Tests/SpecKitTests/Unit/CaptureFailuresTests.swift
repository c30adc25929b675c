import Foundation
import Testing
import XCTest

/// Which failures a `captureFailures` scope takes. Under XCTest (one test at a time) it takes every
/// SpecKit failure raised while it is open, on any thread; under Swift Testing (tests in parallel)
/// those of its own task and the tasks it starts. Plain tests beside a scenario are covered by
/// `SwiftTestingRunTests.testACaptureBesideAnotherTestHoldsOnlyItsOwnTestsFailures`.
final class CaptureFailuresTests: XCTestCase {
    func testAFailureFromAGCDCallbackInsideTheScopeIsCaptured() {
        let failures = captureFailures {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                expect(1).to(equal(2))
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        }
        XCTAssertEqual(failures, ["expected to equal <2>, got <1>"])
    }

    func testNestedScopesTakeTheirOwnFailures() {
        var inner: [String] = []
        let outer = captureFailures {
            expect("outer").to(equal("x"))
            inner = captureFailures { expect("inner").to(equal("x")) }
        }
        XCTAssertEqual(outer, [#"expected to equal <"x">, got <"outer">"#])
        XCTAssertEqual(inner, [#"expected to equal <"x">, got <"inner">"#])
    }
}

@Suite struct CaptureFailuresSwiftTestingTests {
    @Test func aScopeTakesTheFailuresOfTasksItStarts() async {
        let failures = await captureFailures {
            _ = await Task { expect(1).to(equal(2)) }.value
            await withTaskGroup(of: Void.self) { group in
                group.addTask { expect(3).to(equal(4)) }
            }
        }
        #expect(failures == ["expected to equal <2>, got <1>", "expected to equal <4>, got <3>"])
    }

    @Test func nestedScopesTakeTheirOwnFailures() {
        var inner: [String] = []
        let outer = captureFailures {
            expect("outer").to(equal("x"))
            inner = captureFailures { expect("inner").to(equal("x")) }
        }
        #expect(outer == [#"expected to equal <"x">, got <"outer">"#])
        #expect(inner == [#"expected to equal <"x">, got <"inner">"#])
    }
}
