import Foundation
import XCTest

/// `toEventually` from plain XCTest methods: the sync form spins the run loop,
/// the async form sleeps between polls. Timeouts are generous (never asserted).
final class EventuallyTests: XCTestCase {
    func testSyncFormSeesWorkQueuedOnTheMainQueue() {
        let box = Box()
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { box.value = 3 }
        let failures = captureFailures {
            expect(box.value).toEventually(equal(3), timeout: 10)
        }
        XCTAssertEqual(failures, [])
    }

    func testSyncFormSeesWorkFromAnotherThread() {
        let box = Box()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { box.value = 5 }
        XCTAssertEqual(captureFailures { expect(box.value).toEventually(equal(5), timeout: 10) }, [])
    }

    func testToEventuallyNotWaitsForAValueToGoAway() {
        let box = Box()
        box.value = 1
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { box.value = 0 }
        XCTAssertEqual(captureFailures { expect(box.value).toEventuallyNot(equal(1), timeout: 10) }, [])
    }

    @MainActor
    func testAsyncFormSeesMainActorTasks() async {
        let box = Box()
        Task { @MainActor in
            try? await Task.sleep(nanoseconds: 50_000_000)
            box.value = 7
        }
        let failures = await captureFailures {
            await expect(box.value).toEventually(equal(7), timeout: 10)
        }
        XCTAssertEqual(failures, [])
    }

    func testTimeoutReportsTheLastValueAndTheWait() {
        let box = Box()
        box.value = 1
        let failures = captureFailures {
            expect(box.value).toEventually(equal(2), timeout: 0.05)
        }
        XCTAssertEqual(failures, ["expected to eventually equal <2>, got <1> (timed out after 50 ms)"])
    }

    func testAsyncTimeoutReportsTheLastValue() async {
        let failures = await captureFailures {
            await expect(1).toEventually(equal(2), timeout: 0.05)
        }
        XCTAssertEqual(failures, ["expected to eventually equal <2>, got <1> (timed out after 50 ms)"])
    }
}

private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
