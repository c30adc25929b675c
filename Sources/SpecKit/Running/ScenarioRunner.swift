import Foundation
import TestRunObservation
import XCTest

/// Runs one collected scenario inside its XCTest test: hooks outer→inner,
/// `justBeforeEach`, the body, then `afterEach` inner→outer (always).
@MainActor
enum ScenarioRunner {
    nonisolated static let unfocusedReason = "not focused: other scenarios are focused (fit/fdescribe) in this run"

    /// `mayEndSuite` is false for a scenario that other scenarios follow within the same test
    /// (Xcode's `testFeature` anchor runs a whole feature in one test).
    static func run(_ scenario: ScenarioDefinition, in spec: FeatureSpec, mayEndSuite: Bool = true) throws {
        // Last, after the scenario stopped being current: in the run's last test, the `afterSuite`
        // blocks run here and their failures are this test's (SuitePlan).
        defer { if mayEndSuite, SuitePlan.runningTestIsLast { SuiteHooks.runAfterSuiteInLastTest(spec) } }
        let recorder = ScenarioRecorder(scenario: scenario)
        spec.attach(recorder)

        switch preflight(scenario) {
        case .run: break
        case .unfocused:
            recorder.markUnfocused()
            throw XCTSkip(unfocusedReason, file: scenario.site.file, line: scenario.site.line)
        case .fail(let message):
            FailureRecording.record(message, on: spec, file: scenario.site.path, line: Int(scenario.site.line), expected: true)
            return
        case .pending(let reason):
            recorder.markPending(reason)
            throw XCTSkip("pending: \(reason)", file: scenario.site.file, line: scenario.site.line)
        }

        // Before the scenario becomes current, so steps in a beforeSuite are not this scenario's.
        if let failure = SuiteHooks.runBeforeSuiteIfNeeded() {
            FailureRecording.record(failure, on: spec, file: scenario.site.path, line: Int(scenario.site.line), expected: true)
            return
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

    /// What becomes of a scenario before any of its code runs; the same for both test libraries.
    enum Preflight: Equatable {
        case run
        /// Other scenarios are focused in this process.
        case unfocused
        /// Refused focus on CI, or a declaration problem: a failure at the scenario's line.
        case fail(String)
        case pending(String)
    }

    /// Focus first (it may refuse a focused scenario on CI), then declaration problems (never
    /// hidden), then `pending`.
    static func preflight(_ scenario: ScenarioDefinition) -> Preflight {
        switch Focus.decide(scenario) {
        case .run: break
        case .skipUnfocused: return .unfocused
        case .refuseOnCI(let message): return .fail(message)
        }
        if let problem = scenario.problem { return .fail(problem) }
        if let reason = scenario.pendingReason { return .pending(reason) }
        return .run
    }

    static func timeoutMessage(_ timeout: TimeInterval) -> String {
        "scenario did not finish within \(Format.seconds(timeout)) (BDD_SCENARIO_TIMEOUT)"
    }

    // MARK: Synchronous scenarios

    /// One level per enclosing group, outermost first: the group's `aroundEach` blocks wrap its
    /// `Background`/`beforeEach` blocks, the next level (or, innermost, every `justBeforeEach` and
    /// the body) and its `afterEach` blocks. A failing before-block skips what is inside it; the
    /// level's `afterEach` blocks still run.
    private static func runSynchronously(_ scenario: ScenarioDefinition, _ run: RunningScenario) {
        runLevel(0, scenario.group.chain, scenario, run)
    }

    private static func runLevel(_ level: Int, _ chain: [SpecGroup], _ scenario: ScenarioDefinition, _ run: RunningScenario) {
        guard level < chain.count else {
            var proceed = true
            run.inBackground = true
            for hook in scenario.justBefores where proceed { proceed = invoke(hook, run) }
            run.inBackground = false
            if proceed, case .sync(let body)? = scenario.body {
                do { try body() } catch { handle(error, label: nil, site: scenario.site, run) }
            }
            return
        }
        let group = chain[level]
        wrap(group.arounds[...], run) {
            var proceed = true
            run.inBackground = true
            for hook in group.befores where proceed { proceed = invoke(hook, run) }
            run.inBackground = false
            if proceed { runLevel(level + 1, chain, scenario, run) }
            for hook in group.afters { _ = invoke(hook, run) }
        }
    }

    /// Runs `inner` inside every `aroundEach` of `arounds`, the first outermost.
    private static func wrap(_ arounds: ArraySlice<AroundHook>, _ run: RunningScenario, _ inner: () -> Void) {
        guard let around = arounds.first else { return inner() }
        guard case .sync(let body) = around.body else {
            preconditionFailure("async aroundEach makes the scenario async")
        }
        var calls = 0
        do {
            try body {
                calls += 1
                if calls == 1 { wrap(arounds.dropFirst(), run, inner) }
            }
        } catch {
            handle(error, label: "aroundEach", site: around.site, run)
        }
        reportRunCalls(calls, around, run)
    }

    private static func reportRunCalls(_ calls: Int, _ around: AroundHook, _ run: RunningScenario) {
        guard calls != 1, run.recorder.skipReason == nil else { return }
        let message =
            calls == 0
            ? "[aroundEach] never called run(), so the scenario did not run"
            : "[aroundEach] called run() \(calls) times; the scenario ran once"
        FailureRecording.record(message, file: around.site.file, line: around.site.line, expected: true)
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
            await RunningScenario.$ofTask.withValue(run) {
                await runLevelAsync(0, scenario.group.chain, scenario, run)
            }
            finished.fulfill()
        }
        let timeout = SpecSettings.scenarioTimeout
        let result = XCTWaiter().wait(for: [finished], timeout: timeout)
        if result != .completed {
            // From now on the task's failures are printed as late, and it runs no further step:
            // only its afterEach hooks, which may hold cleanup.
            run.expired.withLock { $0 = true }
            task.cancel()
            FailureRecording.record(
                timeoutMessage(timeout), file: scenario.site.file, line: scenario.site.line, expected: false)
        }
    }

    private static func runLevelAsync(
        _ level: Int, _ chain: [SpecGroup], _ scenario: ScenarioDefinition, _ run: RunningScenario
    ) async {
        guard level < chain.count else {
            var proceed = true
            run.inBackground = true
            for hook in scenario.justBefores where proceed && !run.isExpired { proceed = await invokeAsync(hook, run) }
            run.inBackground = false
            // Once timed out, no further step runs; the afterEach hooks below still clean up.
            if proceed, !run.isExpired, let body = scenario.body {
                do {
                    switch body {
                    case .sync(let body): try body()
                    case .async(let body): try await body()
                    }
                } catch {
                    handle(error, label: nil, site: scenario.site, run)
                }
            }
            return
        }
        let group = chain[level]
        await wrapAsync(group.arounds[...], run) {
            var proceed = true
            run.inBackground = true
            for hook in group.befores where proceed && !run.isExpired { proceed = await invokeAsync(hook, run) }
            run.inBackground = false
            if proceed && !run.isExpired { await runLevelAsync(level + 1, chain, scenario, run) }
            for hook in group.afters { _ = await invokeAsync(hook, run) }
        }
    }

    private static func wrapAsync(
        _ arounds: ArraySlice<AroundHook>, _ run: RunningScenario, _ inner: @MainActor () async -> Void
    ) async {
        guard let around = arounds.first else { return await inner() }
        var calls = 0
        switch around.body {
        case .sync:
            // A synchronous block cannot wait for async work inside `run()`.
            FailureRecording.record(
                "[aroundEach] this scenario is async (an async body or hook), so its aroundEach must be async too: "
                    + "write `aroundEach { run async in … await run() … }`",
                file: around.site.file, line: around.site.line, expected: true)
            return
        case .async(let body):
            do {
                try await body {
                    calls += 1
                    if calls == 1 { await wrapAsync(arounds.dropFirst(), run, inner) }
                }
            } catch {
                handle(error, label: "aroundEach", site: around.site, run)
            }
        }
        reportRunCalls(calls, around, run)
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
        SwiftTestingReports.finishAtExit()
        let recorder = ScenarioRecorder(scenario: scenario)
        let started = DispatchTime.now().uptimeNanoseconds
        defer {
            // As under XCTest, unfocused scenarios stay out of the living document.
            if !recorder.isUnfocused {
                let seconds = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1_000_000_000
                SwiftTestingReports.write(recorder, suite: suite, duration: seconds)
            }
        }
        switch preflight(scenario) {
        case .run: break
        case .unfocused:
            // Swift Testing cannot skip one case of a parameterized test: it passes without
            // running, and the focus banner names the scenarios that did run.
            recorder.markUnfocused()
            return
        case .fail(let message):
            recorder.noteProblem(message, site: scenario.site)
            FailureRouter.deliver(message, file: scenario.site.file, line: scenario.site.line, expected: true, on: nil)
            return
        case .pending(let reason):
            // Swift Testing cannot skip one case of a parameterized test; the living
            // document and JUnit still show it as pending.
            recorder.markPending(reason)
            return
        }
        if let failure = SuiteHooks.runBeforeSuiteIfNeeded() {
            recorder.noteProblem(failure, site: scenario.site)
            FailureRouter.deliver(failure, file: scenario.site.file, line: scenario.site.line, expected: true, on: nil)
            return
        }
        let run = RunningScenario(spec: nil, recorder: recorder)
        RunningScenario.begin(run, swiftTestingSuite: suite)
        defer { RunningScenario.end() }
        // Snapshots taken in this test's tasks are named after the scenario; a plain test's beside it are not.
        await RunningTest.$scenarioOfTask.withValue(run.testScenario(swiftTestingSuite: suite)) {
            if scenario.needsAsync {
                await runAsyncWithTimeout(scenario, run)
            } else {
                // The same synchronous path as XCTest, so a synchronous aroundEach wraps it. The
                // task-local marks this test's failures as the scenario's (see `RunningScenario.ofCaller`).
                RunningScenario.$ofTask.withValue(run) { runSynchronously(scenario, run) }
            }
        }
    }

    /// The Swift Testing form of ``runWaiting(_:_:)``: the scenario runs in its own main-actor
    /// task; past `BDD_SCENARIO_TIMEOUT` it is abandoned exactly as under XCTest (cancelled,
    /// its later failures printed as late) and the test case fails.
    private static func runAsyncWithTimeout(_ scenario: ScenarioDefinition, _ run: RunningScenario) async {
        let task = Task { @MainActor in
            await RunningScenario.$ofTask.withValue(run) {
                await runLevelAsync(0, scenario.group.chain, scenario, run)
            }
        }
        let timeout = SpecSettings.scenarioTimeout
        if await TaskDeadline.finishes(task, within: timeout) { return }
        run.expired.withLock { $0 = true }
        task.cancel()
        // From the test's own task, which is not the run's: charged to the run explicitly.
        FailureRecording.record(
            timeoutMessage(timeout), of: run, file: scenario.site.file, line: scenario.site.line, expected: false)
    }

    // MARK: Errors

    /// A thrown `XCTSkip` skips the rest of the scenario; any other error is a
    /// failure at the line of the block (or step) that threw it.
    static func handle(_ error: Error, label: String?, site: CallSite, _ run: RunningScenario) {
        if let skip = error as? XCTSkip {
            run.recorder.markSkipped(skip.message ?? "skipped")
            return
        }
        // `require`/`unwrap` recorded their failure already.
        if error is RequirementFailure { return }
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
