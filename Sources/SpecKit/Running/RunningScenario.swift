import Foundation
import SpecKitAppSupport
import TestRunObservation
import XCTest

/// The scenario currently running in this process. XCTest runs one test at a
/// time; under Swift Testing SpecKit runs one scenario at a time (``ScenarioGate``).
final class RunningScenario: @unchecked Sendable {
    static let current = Locked<RunningScenario?>(nil)

    /// The XCTest test case running the scenario; `nil` under Swift Testing.
    let spec: FeatureSpec?
    let recorder: ScenarioRecorder
    /// The scenario runs in a main-actor task (it has an async body or hook).
    var isAsync: Bool { recorder.scenario.needsAsync || spec == nil }
    /// True while `Background`/`beforeEach`/`justBeforeEach` hooks run, so
    /// their steps are marked as background steps. Main actor only.
    nonisolated(unsafe) var inBackground = false

    /// Set when an async scenario outlived `BDD_SCENARIO_TIMEOUT`: XCTest has moved on to the next
    /// test, so whatever this run still reports must not land there.
    let expired = Locked(false)
    var isExpired: Bool { expired.snapshot }

    /// The run an async scenario's task (and every task it starts) belongs to. The process-wide
    /// ``current`` already names the next test once a timed-out task wakes up; this does not.
    @TaskLocal static var ofTask: RunningScenario?

    /// The scenario the calling code belongs to, if any. Under Swift Testing only the task-local
    /// ``ofTask`` counts: other tests run beside the one gated scenario, and a failure or step of
    /// theirs charged to it would fail it and skip its remaining steps. Outside Swift Testing's
    /// tasks (XCTest, or a GCD callback) ``current`` is the best guess, as XCTest runs one test
    /// at a time.
    static var ofCaller: RunningScenario? {
        if let run = ofTask { return run }
        if FailureRouter.isInSwiftTesting { return nil }
        return current.snapshot
    }

    init(spec: FeatureSpec?, recorder: ScenarioRecorder) {
        self.spec = spec
        self.recorder = recorder
    }

    /// Makes `run` the current scenario; snapshots taken in it are named after it. Under Swift
    /// Testing the scenario's own tasks know it through ``RunningTest/scenarioOfTask`` too (see
    /// ``ScenarioRunner``), as only they belong to it.
    static func begin(_ run: RunningScenario, swiftTestingSuite: String? = nil) {
        current.withLock { $0 = run }
        RunningTest.processScenario = run.testScenario(swiftTestingSuite: swiftTestingSuite)
    }

    static func end() {
        current.withLock { $0 = nil }
        RunningTest.processScenario = nil
    }

    /// This scenario as snapshots and re-run commands name it.
    func testScenario(swiftTestingSuite: String?) -> RunningTest.Scenario {
        let scenario = recorder.scenario
        return RunningTest.Scenario(
            name: (scenario.contextPath + [scenario.title]).joined(separator: " - "),
            testName: scenario.testName, swiftTestingSuite: swiftTestingSuite)
    }
}

/// Records failures on the right test, at the spec author's file and line.
enum FailureRecording {
    /// Open `captureFailures` scopes outside Swift Testing's tasks, innermost last. XCTest runs one
    /// test at a time, so a GCD callback failing inside a test's scope is captured by it.
    static let captures = Locked<[[String]]>([])

    /// The innermost `captureFailures` scope of the calling task, under Swift Testing: tests run in
    /// parallel there, and a process-wide scope would take another test's failures.
    @TaskLocal static var captureOfTask: FailureCapture?

    /// Routes TextSnapshot's failures (and any other `FailureRouter.record`) through
    /// ``record(_:file:line:expected:)``; done once, while the test list is built.
    static func installRouting() {
        FailureRouter.install { message, file, line, expected in
            record(message, file: file, line: line, expected: expected)
        }
    }

    /// THE failure path of SpecKit: expectations, matchers, hooks, `TestObserver`,
    /// decoding and (through `FailureRouter`) snapshots all end here. In order:
    /// a `captureFailures` scope takes it; else a running scenario notes it (so
    /// it is prefixed with the step, marks the step failed and reaches the
    /// report); then it is delivered to Swift Testing (`Issue.record`) inside a
    /// `@Test`, or to XCTest.
    static func record(_ message: String, file: StaticString, line: UInt, expected: Bool = true) {
        if capture(message) { return }
        if let stale = RunningScenario.ofTask, stale.isExpired {
            lateFailure(message, of: stale, file: "\(file)", line: Int(line))
            return
        }
        guard let run = RunningScenario.ofCaller else {
            FailureRouter.deliver(message, file: file, line: line, expected: expected, on: ReportObserver.currentTestCase)
            return
        }
        if let spec = run.spec, !FailureRouter.isInSwiftTesting {
            // FeatureSpec's recordFailure/record(_:) override notes it in the recorder, which
            // also catches plain XCTAssert calls made inside steps.
            FailureRouter.record(message, on: spec, file: "\(file)", line: Int(line), expected: expected)
            return
        }
        let text = run.recorder.noteFailure(message, file: "\(file)", line: Int(line))
        FailureRouter.deliver(text, file: file, line: line, expected: expected, on: nil)
    }

    /// Hands `message` to the caller's innermost `captureFailures` scope, if any: under Swift
    /// Testing only its own task's (as ``RunningScenario/ofCaller``), else the process-wide one.
    private static func capture(_ message: String) -> Bool {
        if let scope = captureOfTask {
            scope.append(message)
            return true
        }
        if FailureRouter.isInSwiftTesting { return false }
        return captures.withLock { stack -> Bool in
            guard !stack.isEmpty else { return false }
            stack[stack.count - 1].append(message)
            return true
        }
    }

    /// A failure SpecKit reports about `run` itself from outside the run's tasks (its timeout,
    /// from the Swift Testing test that waited for it): noted in the run, then an `Issue`.
    static func record(_ message: String, of run: RunningScenario, file: StaticString, line: UInt, expected: Bool) {
        let text = run.recorder.noteFailure(message, file: "\(file)", line: Int(line))
        FailureRouter.deliver(text, file: file, line: line, expected: expected, on: nil)
    }

    /// A failure from a scenario that already timed out: printed with its scenario's name, never
    /// recorded on whichever test runs now.
    static func lateFailure(_ message: String, of run: RunningScenario, file: String, line: Int) {
        let text =
            "\(file):\(line): SpecKit: late failure in timed-out scenario \"\(run.recorder.scenario.testName)\" "
            + "(reported after BDD_SCENARIO_TIMEOUT, not charged to the test running now): \(message)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Records on a given XCTest test case (which notes it in its scenario, if any).
    static func record(_ message: String, on testCase: XCTestCase, file: String, line: Int, expected: Bool) {
        if let stale = RunningScenario.ofTask, stale.isExpired, stale.spec === testCase {
            lateFailure(message, of: stale, file: file, line: line)
            return
        }
        FailureRouter.record(message, on: testCase, file: file, line: line, expected: expected)
    }
}

/// Human-readable text for thrown errors.
enum ErrorText {
    /// `could not decode Story: …` for SpecKit's own errors, which already read
    /// as a failure; `threw error "…" (Type)` for anything else.
    static func failureMessage(for error: Error) -> String {
        if let readable = error as? any SpecKitFailureDescribing {
            return readable.failureDescription
        }
        return "threw " + describe(error)
    }

    /// `error "…" (Type)`, worded as decoding failures word it.
    static func describe(_ error: Error) -> String {
        ErrorDescription.describe(error)
    }
}

/// Runs `body` and returns the failure messages that SpecKit expectations and
/// helpers (`expect`, `TestObserver`, …) recorded, instead of failing the
/// test. Use it to test your own matchers and helpers:
///
/// ```swift
/// let failures = captureFailures { expect(3).to(beEven()) }
/// XCTAssertEqual(failures, ["expected to be even, got <3>"])
/// ```
/// Plain `XCTAssert…` calls inside `body` still fail the test.
public func captureFailures(_ body: () throws -> Void) rethrows -> [String] {
    if FailureRouter.isInSwiftTesting {
        let scope = FailureCapture()
        try FailureRecording.$captureOfTask.withValue(scope, operation: body)
        return scope.messages
    }
    FailureRecording.captures.withLock { $0.append([]) }
    defer { _ = FailureRecording.captures.withLock { $0.removeLast() } }
    try body()
    return FailureRecording.captures.withLock { $0[$0.count - 1] }
}

/// Async form of ``captureFailures(_:)``.
public func captureFailures(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [String] {
    if FailureRouter.isInSwiftTesting {
        let scope = FailureCapture()
        try await FailureRecording.$captureOfTask.withValue(scope, operation: body, isolation: isolation)
        return scope.messages
    }
    FailureRecording.captures.withLock { $0.append([]) }
    defer { _ = FailureRecording.captures.withLock { $0.removeLast() } }
    try await body()
    return FailureRecording.captures.withLock { $0[$0.count - 1] }
}

/// One `captureFailures` scope under Swift Testing; tasks the scope's body starts append to it too.
final class FailureCapture: Sendable {
    private let captured = Locked<[String]>([])

    func append(_ message: String) { captured.withLock { $0.append(message) } }

    var messages: [String] { captured.snapshot }
}
