import Foundation
import XCTest

/// How many tests this XCTest run executes and how many finished, so the `afterSuite` blocks can run
/// inside the last test (as Quick does) and fail it like any other failure. Xcode and app-hosted iOS
/// runners judge a run by its test results, not by the process's exit status, so a failure left for
/// `atexit` would not fail the run there.
///
/// The count comes from the root suite XCTest starts (`All tests` or `Selected tests`), so it respects
/// `--filter`, `-only-testing` and Xcode's diamonds. When that suite was not seen (the observer was
/// installed too late), nothing is known and `afterSuite` keeps running when the bundle finishes.
enum SuitePlan {
    private struct State {
        var bundleStarted = false
        var planned: Int?
        var unknown = false
        var finished = 0
        /// The methods of the plan's tests, per test class (only recorded where a class is a spec).
        var methodsByClass: [ObjectIdentifier: Set<String>] = [:]
    }

    private static let state = Locked(State())
    private static let rootSuiteNames: Set<String> = ["All tests", "Selected tests"]

    static func bundleWillStart() {
        state.withLock { $0.bundleStarted = true }
    }

    /// The first suite to start after the bundle started is the root of the run's tree.
    static func suiteWillStart(_ suite: XCTestSuite) {
        let count = suite.testCaseCount
        let name = suite.name
        let isRoot = state.withLock { state in
            guard state.planned == nil, !state.unknown else { return false }
            if state.bundleStarted || rootSuiteNames.contains(name) {
                state.planned = count
                return true
            } else {
                state.unknown = true
                return false
            }
        }
        if isRoot {
            let methods = specMethods(in: suite)
            state.withLock { $0.methodsByClass = methods }
        }
    }

    private static func specMethods(in suite: XCTestSuite) -> [ObjectIdentifier: Set<String>] {
        var methods: [ObjectIdentifier: Set<String>] = [:]
        var pending: [XCTest] = [suite]
        while let test = pending.popLast() {
            if let nested = test as? XCTestSuite {
                pending += nested.tests
            } else if test is FeatureSpec {
                methods[ObjectIdentifier(type(of: test)), default: []].insert(RuntimeTestName.method(of: test.name))
            }
        }
        return methods
    }

    /// True when the run's plan holds a test of `specClass` running one of `methods`; false when it
    /// holds none or the plan is unknown.
    static func includes(_ specClass: AnyClass, anyOf methods: Set<String>) -> Bool {
        state.withLock { state in
            guard let planned = state.methodsByClass[ObjectIdentifier(specClass)] else { return false }
            return !planned.isDisjoint(with: methods)
        }
    }

    static func testCaseDidFinish() {
        state.withLock { $0.finished += 1 }
    }

    /// True while the test running now is the last one of the run: every other test of the plan finished.
    /// Counting rather than naming the last test also holds when the order is shuffled.
    static var runningTestIsLast: Bool {
        state.withLock { state in
            guard let planned = state.planned else { return false }
            return state.finished + 1 == planned
        }
    }
}
