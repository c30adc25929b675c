import Foundation
import XCTest

/// A stand-in for any signal type whose `observe` takes a `@Sendable` sink.
private final class Signal<Value: Sendable>: @unchecked Sendable {
    private var observers: [@Sendable (Value) -> Void] = []
    func observe(_ observer: @escaping @Sendable (Value) -> Void) { observers.append(observer) }
    func send(_ value: Value) { observers.forEach { $0(value) } }
}

final class TestObserverTests: XCTestCase {
    func testRecordsWhatAnOutputEmits() {
        let titles = TestObserver<String>()
        let output = Signal<String>()
        output.observe(titles.observer)
        XCTAssertNil(titles.lastValue)
        output.send("Top")
        output.send("Newest")
        XCTAssertEqual(titles.values, ["Top", "Newest"])
        XCTAssertEqual(titles.lastValue, "Newest")
        titles.reset()
        XCTAssertEqual(titles.values, [])
    }

    func testPassingAssertionsRecordNothing() {
        let counts = TestObserver<Int>()
        let failures = captureFailures {
            counts.assertDidNotEmitValue()
            counts.observer(1)
            counts.observer(2)
            counts.assertValues([1, 2])
            counts.assertLastValue(2)
            counts.assertValueCount(2)
            counts.assertDidEmitValue()
        }
        XCTAssertEqual(failures, [])
    }

    func testFailingAssertionsSayWhatWasEmitted() {
        let counts = TestObserver<Int>()
        let empty = captureFailures {
            counts.assertDidEmitValue()
            counts.assertLastValue(1, "after load")
        }
        XCTAssertEqual(empty, ["expected at least one value, got none", "expected last value <1>, got no values - after load"])
        counts.send(1)
        counts.send(2)
        let failures = captureFailures {
            counts.assertValues([1, 3])
            counts.assertLastValue(3)
            counts.assertValueCount(1)
            counts.assertDidNotEmitValue()
        }
        XCTAssertEqual(
            failures,
            [
                "expected values <[1, 3]>, got <[1, 2]>",
                "expected last value <3>, got <2>",
                "expected 1 value, got 2: <[1, 2]>",
                "expected no values, got 2: <[1, 2]>",
            ])
    }

    func testRecordingFromManyThreadsLosesNothing() {
        let values = TestObserver<Int>()
        let sink = values.observer
        DispatchQueue.concurrentPerform(iterations: 2_000) { sink($0) }
        XCTAssertEqual(values.values.count, 2_000)
        XCTAssertEqual(Set(values.values), Set(0..<2_000))
    }

    func testWorksWithToEventually() {
        let values = TestObserver<String>()
        let sink = values.observer
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { sink("loaded") }
        XCTAssertEqual(captureFailures { expect(values.values).toEventually(equal(["loaded"]), timeout: 10) }, [])
    }
}
