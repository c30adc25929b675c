import Foundation
import XCTest

/// Which XCTest test this process is running, for messages that tell the reader how to run it
/// again (`swift test --filter '^Specs\.LoginSpec/A wrong password in de$'`).
///
/// XCTest has no public "current test", and an observer only hears about tests that start after
/// it was added. So whoever can start watching earliest does: SpecKit while XCTest builds its
/// test list (before any test runs), TextSnapshot on its first assertion otherwise. Both share
/// this one observer.
package enum RunningTest {
    /// A test as `swift test` lists it: `<module>.<class>/<method>`.
    package struct Identity: Sendable, Equatable {
        /// `Specs.LoginSpec`: module-qualified when the runtime can say so, else just the class.
        package var className: String
        /// True when ``className`` starts with the module, so a filter may anchor at `^`.
        package var isModuleQualified: Bool
        /// `testLogin`, or a SpecKit scenario's name such as `Success - The QA account logs in @smoke`.
        package var methodName: String
        // Only this module makes one (from the running XCTest), so the implicit memberwise
        // initializer is all it needs.
    }

    private static let state = StateBox()

    /// The test running now, if it started after observation began.
    package static var current: Identity? {
        state.withLock { $0.current }
    }

    /// The XCTest test case running now (for failures raised outside SpecKit's scenarios).
    package static var currentTestCase: XCTestCase? {
        state.withLock { $0.currentCase?.value }
    }

    /// A SpecKit scenario as snapshots and re-run commands name it.
    package struct Scenario: Sendable, Equatable {
        /// Its name without tags (`Rainy days - Sunny day`), which names snapshots taken inside it.
        package var name: String
        /// Its unique test name (`Sunny day @smoke`), what `BDD_SCENARIO` matches.
        package var testName: String
        /// Its Swift Testing suite (`WeatherAppSpecs.ForecastFeature`); nil under XCTest.
        package var swiftTestingSuite: String?

        package init(name: String, testName: String, swiftTestingSuite: String?) {
            self.name = name
            self.testName = testName
            self.swiftTestingSuite = swiftTestingSuite
        }
    }

    /// The scenario running in this process, set by SpecKit. XCTest runs one test at a time, so
    /// it names whatever runs now, even a GCD callback. Read ``scenario`` instead.
    package static var processScenario: Scenario? {
        get { state.withLock { $0.scenario } }
        set { state.withLock { $0.scenario = newValue } }
    }

    /// The scenario a Swift Testing scenario's task (and every task it starts) belongs to.
    @TaskLocal package static var scenarioOfTask: Scenario?

    /// The SpecKit scenario the calling code runs in, under either test library. Under Swift
    /// Testing only the task's own counts: plain tests run beside the one scenario there, and their
    /// snapshots are theirs. Outside Swift Testing's tasks, the process's scenario.
    package static var scenario: Scenario? {
        if let scenario = scenarioOfTask { return scenario }
        if FailureRouter.isInSwiftTesting { return nil }
        return processScenario
    }

    /// ``scenario``'s name without tags (`Rainy days - Sunny day`): it names snapshots taken inside it.
    package static var scenarioName: String? { scenario?.name }

    /// ``scenario``'s unique test name (`Sunny day @smoke`), what `BDD_SCENARIO` matches.
    package static var scenarioTestName: String? { scenario?.testName }

    /// The Swift Testing suite (`WeatherAppSpecs.ForecastFeature`) of ``scenario``; nil under XCTest.
    package static var swiftTestingSuite: String? { scenario?.swiftTestingSuite }

    /// Starts watching test starts and ends, once per process. Call it as early as you can.
    package static func startObserving() {
        let first = state.withLock { state -> Bool in
            defer { state.observing = true }
            return !state.observing
        }
        guard first else { return }
        let observer = RunningTestObserver()
        // XCTest calls observers on the main thread; add ours there too.
        if Thread.isMainThread {
            MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(observer) }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(observer) } }
        }
    }

    /// The identity of `testCase` as `swift test` lists it.
    package static func identity(of testCase: XCTestCase) -> Identity {
        let type = Swift.type(of: testCase)
        let reflected = String(reflecting: type)
        // Private and local classes reflect as `Module.(unknown context at $…).Name`.
        let qualified = !reflected.contains("(") && reflected.contains(".")
        let className = qualified ? reflected : String(describing: type)
        return Identity(
            className: className, isModuleQualified: qualified,
            methodName: methodName(fromTestName: testCase.name, className: String(describing: type)))
    }

    /// The method part of XCTest's test name: `-[Module.Class method name]` on Apple platforms,
    /// `Class.method name` in swift-corelibs-xctest.
    package static func methodName(fromTestName name: String, className: String) -> String {
        if name.hasPrefix("-["), name.hasSuffix("]"), let space = name.firstIndex(of: " ") {
            return String(name[name.index(after: space)..<name.index(before: name.endIndex)])
        }
        if name.hasPrefix(className + ".") {
            return String(name.dropFirst(className.count + 1))
        }
        // Method names never contain dots (SpecKit turns them into `·`), class names might.
        if let dot = name.lastIndex(of: ".") {
            return String(name[name.index(after: dot)...])
        }
        return name
    }

    /// The name of the run's outermost suite — `All tests` for a whole run, `Selected tests` when a
    /// filter, `-only-testing`, a test plan or Xcode's diamond chose some — or `nil` when observation
    /// began after the run started. Both XCTest implementations use these names.
    package static var rootSuiteName: String? {
        state.withLock { $0.rootSuiteName }
    }

    fileprivate static func bundleWillStart() {
        state.withLock { $0.awaitingRootSuite = true }
    }

    fileprivate static func suiteWillStart(_ name: String) {
        state.withLock { state in
            guard state.awaitingRootSuite else { return }
            state.awaitingRootSuite = false
            state.rootSuiteName = name
        }
    }

    fileprivate static func started(_ testCase: XCTestCase) {
        let identity = identity(of: testCase)
        state.withLock {
            $0.current = identity
            $0.currentCase = CaseBox(value: testCase)
        }
    }

    fileprivate static func finished() {
        state.withLock {
            $0.current = nil
            $0.currentCase = nil
        }
    }
}

private struct CaseBox: @unchecked Sendable {
    let value: XCTestCase
}

private final class StateBox: @unchecked Sendable {
    struct State {
        var observing = false
        var current: RunningTest.Identity?
        var awaitingRootSuite = false
        var rootSuiteName: String?
        var currentCase: CaseBox?
        var scenario: RunningTest.Scenario?
    }

    private let lock = NSLock()
    private var state = State()

    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}

private final class RunningTestObserver: NSObject, XCTestObservation, @unchecked Sendable {
    func testBundleWillStart(_ testBundle: Bundle) {
        RunningTest.bundleWillStart()
    }

    func testSuiteWillStart(_ testSuite: XCTestSuite) {
        RunningTest.suiteWillStart(testSuite.name)
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        RunningTest.started(testCase)
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        RunningTest.finished()
    }
}
