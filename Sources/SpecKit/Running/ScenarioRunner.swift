import Foundation
import TestRunObservation
import XCTest

/// Runs one collected scenario inside its XCTest test: hooks outer→inner,
/// `justBeforeEach`, the body, then `afterEach` inner→outer (always).
@MainActor
enum ScenarioRunner {
    static func run(_ scenario: ScenarioDefinition, in spec: FeatureSpec) throws {
        let recorder = ScenarioRecorder(scenario: scenario)
        spec.attach(recorder)

        if let problem = scenario.problem {
            FailureRouter.record(problem, on: spec, file: scenario.site.path, line: Int(scenario.site.line), expected: true)
            return
        }
        if let reason = scenario.pendingReason {
            recorder.markPending(reason)
            throw XCTSkip("pending: \(reason)", file: scenario.site.file, line: scenario.site.line)
        }

        let run = RunningScenario(spec: spec, recorder: recorder)
        RunningScenario.begin(run)
        defer { RunningScenario.end() }

        if scenario.needsAsync {
            runWaiting(scenario, run)
        } else {
            runSynchronously(scenario, run)
        }

        if let reason = recorder.skipReason {
            throw XCTSkip(reason, file: scenario.site.file, line: scenario.site.line)
        }
    }

    // MARK: Synchronous scenarios

    private static func runSynchronously(_ scenario: ScenarioDefinition, _ run: RunningScenario) {
        var proceed = true
        run.inBackground = true
        for hook in scenario.befores + scenario.justBefores where proceed {
            proceed = invoke(hook, run)
        }
        run.inBackground = false
        if proceed, case .sync(let body)? = scenario.body {
            do { try body() } catch { handle(error, label: nil, site: scenario.site, run) }
        }
        for hook in scenario.afters {
            _ = invoke(hook, run)
        }
    }

    private static func invoke(_ hook: Hook, _ run: RunningScenario) -> Bool {
        guard case .sync(let body) = hook.body else {
            preconditionFailure("async hooks make the scenario async")
        }
        run.recorder.enterHook(hook.kind.rawValue)
        defer { run.recorder.leaveHook() }
        do {
            try body()
            return true
        } catch {
            handle(error, label: hook.kind.rawValue, site: hook.site, run)
            return false
        }
    }

    // MARK: Asynchronous scenarios

    /// XCTest calls test closures synchronously on the main thread; the async
    /// scenario runs in a main-actor task while `XCTWaiter` spins the run loop.
    private static func runWaiting(_ scenario: ScenarioDefinition, _ run: RunningScenario) {
        let finished = XCTestExpectation(description: "scenario \(scenario.testName) finished")
        let task = Task { @MainActor in
            await runAsynchronously(scenario, run)
            finished.fulfill()
        }
        let timeout = SpecSettings.scenarioTimeout
        let result = XCTWaiter().wait(for: [finished], timeout: timeout)
        if result != .completed {
            task.cancel()
            FailureRecording.record(
                "scenario did not finish within \(Format.seconds(timeout)) (BDD_SCENARIO_TIMEOUT)",
                file: scenario.site.file, line: scenario.site.line, expected: false)
        }
    }

    private static func runAsynchronously(_ scenario: ScenarioDefinition, _ run: RunningScenario) async {
        var proceed = true
        run.inBackground = true
        for hook in scenario.befores + scenario.justBefores where proceed {
            proceed = await invokeAsync(hook, run)
        }
        run.inBackground = false
        if proceed, let body = scenario.body {
            do {
                switch body {
                case .sync(let body): try body()
                case .async(let body): try await body()
                }
            } catch {
                handle(error, label: nil, site: scenario.site, run)
            }
        }
        for hook in scenario.afters {
            _ = await invokeAsync(hook, run)
        }
    }

    private static func invokeAsync(_ hook: Hook, _ run: RunningScenario) async -> Bool {
        run.recorder.enterHook(hook.kind.rawValue)
        defer { run.recorder.leaveHook() }
        do {
            switch hook.body {
            case .sync(let body): try body()
            case .async(let body): try await body()
            }
            return true
        } catch {
            handle(error, label: hook.kind.rawValue, site: hook.site, run)
            return false
        }
    }

    // MARK: Swift Testing

    /// Runs a scenario inside a Swift Testing test case: failures go to `Issue.record`
    /// (through ``FailureRecording``), and the report fragment is written here since
    /// there is no XCTest observer. Scenarios run one at a time (``ScenarioGate``).
    static func runUnderSwiftTesting(_ scenario: ScenarioDefinition, suite: String) async {
        await ScenarioGate.shared.acquire()
        defer { ScenarioGate.shared.release() }
        ReportObserver.installIfNeeded()
        let recorder = ScenarioRecorder(scenario: scenario)
        let started = DispatchTime.now().uptimeNanoseconds
        defer {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1_000_000_000
            SwiftTestingReports.write(recorder, suite: suite, duration: seconds)
        }
        if let problem = scenario.problem {
            recorder.noteProblem(problem, site: scenario.site)
            FailureRouter.deliver(problem, file: scenario.site.file, line: scenario.site.line, expected: true, on: nil)
            return
        }
        if let reason = scenario.pendingReason {
            // Swift Testing cannot skip one case of a parameterized test; the living
            // document and JUnit still show it as pending.
            recorder.markPending(reason)
            return
        }
        let run = RunningScenario(spec: nil, recorder: recorder)
        RunningScenario.begin(run, swiftTestingSuite: suite)
        defer { RunningScenario.end() }
        await runAsynchronously(scenario, run)
    }

    // MARK: Errors

    /// A thrown `XCTSkip` skips the rest of the scenario; any other error is a
    /// failure at the line of the block (or step) that threw it.
    static func handle(_ error: Error, label: String?, site: CallSite, _ run: RunningScenario) {
        if let skip = error as? XCTSkip {
            run.recorder.markSkipped(skip.message ?? "skipped")
            return
        }
        var message = ErrorText.failureMessage(for: error)
        if let label { message = "[\(label)] " + message }
        FailureRecording.record(message, file: site.file, line: site.line, expected: false)
    }
}

enum Format {
    static func seconds(_ value: TimeInterval) -> String {
        if value >= 1 || value == 0 {
            let rounded = (value * 100).rounded() / 100
            return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
        }
        return "\(Int((value * 1000).rounded())) ms"
    }
}
