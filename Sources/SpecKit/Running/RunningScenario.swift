import Foundation
import SpecKitAppSupport
import XCTest

/// The scenario currently running in this process (XCTest runs one test at a time).
final class RunningScenario: @unchecked Sendable {
    static let current = Locked<RunningScenario?>(nil)

    let spec: FeatureSpec
    let recorder: ScenarioRecorder
    /// The scenario runs in a main-actor task (it has an async body or hook).
    var isAsync: Bool { recorder.scenario.needsAsync }
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

    init(spec: FeatureSpec, recorder: ScenarioRecorder) {
        self.spec = spec
        self.recorder = recorder
    }
}

/// Records failures on the right test case, at the spec author's file and line.
enum FailureRecording {
    /// Open `captureFailures` scopes, innermost last.
    static let captures = Locked<[[String]]>([])

    /// Records `message` at `file:line`: on the running scenario's test case
    /// (which prefixes the current step), else on the current XCTest test.
    static func record(_ message: String, file: StaticString, line: UInt, expected: Bool = true) {
        let captured = captures.withLock { stack -> Bool in
            guard !stack.isEmpty else { return false }
            stack[stack.count - 1].append(message)
            return true
        }
        if captured { return }
        if let stale = RunningScenario.ofTask, stale.isExpired {
            lateFailure(message, of: stale, file: "\(file)", line: Int(line))
            return
        }
        if let run = RunningScenario.current.snapshot {
            record(message, on: run.spec, file: "\(file)", line: Int(line), expected: expected)
        } else if let testCase = ReportObserver.currentTestCase {
            record(message, on: testCase, file: "\(file)", line: Int(line), expected: expected)
        } else {
            XCTFail(message, file: file, line: line)
        }
    }

    /// A failure from a scenario that already timed out: printed with its scenario's name, never
    /// recorded on whichever test runs now.
    static func lateFailure(_ message: String, of run: RunningScenario, file: String, line: Int) {
        let text = "\(file):\(line): SpecKit: late failure in timed-out scenario \"\(run.recorder.scenario.testName)\" "
            + "(reported after BDD_SCENARIO_TIMEOUT, not charged to the test running now): \(message)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func record(_ message: String, on testCase: XCTestCase, file: String, line: Int, expected: Bool) {
        if let stale = RunningScenario.ofTask, stale.isExpired, stale.spec === testCase {
            lateFailure(message, of: stale, file: file, line: line)
            return
        }
        #if canImport(ObjectiveC)
        let location = XCTSourceCodeLocation(filePath: file, lineNumber: line)
        let issue = XCTIssue(
            type: expected ? .assertionFailure : .thrownError, compactDescription: message,
            sourceCodeContext: XCTSourceCodeContext(location: location))
        testCase.record(issue)
        #else
        testCase.recordFailure(withDescription: message, inFile: file, atLine: line, expected: expected)
        #endif
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
    FailureRecording.captures.withLock { $0.append([]) }
    defer { _ = FailureRecording.captures.withLock { $0.removeLast() } }
    try body()
    return FailureRecording.captures.withLock { $0[$0.count - 1] }
}

/// Async form of ``captureFailures(_:)``.
public func captureFailures(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [String] {
    FailureRecording.captures.withLock { $0.append([]) }
    defer { _ = FailureRecording.captures.withLock { $0.removeLast() } }
    try await body()
    return FailureRecording.captures.withLock { $0[$0.count - 1] }
}
