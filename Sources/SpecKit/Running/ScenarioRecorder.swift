import Foundation
import SpecReporting

/// Collects the steps and failures of the scenario running in one test case.
///
/// XCTest reports failures through `recordFailure`/`record(_:)`, which are not
/// actor-isolated; steps are recorded on the main actor. One lock serves both.
final class ScenarioRecorder: @unchecked Sendable {
    private struct State {
        var steps: [StepResult] = []
        var open: [Int] = []
        var failures: [FailureRecord] = []
        var skipReason: String?
        var pendingReason: String?
        var unfocused = false
        /// `Background`, `beforeEach`, … while a hook's own code runs.
        var hooks: [String] = []
    }

    let scenario: ScenarioDefinition
    private let state = Locked(State())

    init(scenario: ScenarioDefinition) {
        self.scenario = scenario
    }

    var steps: [StepResult] { state.withLock { $0.steps } }
    var failures: [FailureRecord] { state.withLock { $0.failures } }
    var hasFailed: Bool { state.withLock { !$0.failures.isEmpty } }
    var skipReason: String? { state.withLock { $0.skipReason } }
    var pendingReason: String? { state.withLock { $0.pendingReason } }
    /// Skipped because other scenarios are focused; left out of the report.
    var isUnfocused: Bool { state.withLock { $0.unfocused } }

    /// Notes a failure and returns the text XCTest should show: prefixed with
    /// the running step (`[Then the button is enabled] …`).
    func noteFailure(_ description: String, file: String?, line: Int) -> String {
        state.withLock { state in
            var text = description
            if state.open.isEmpty, let hook = state.hooks.last {
                // A failure in a hook's own code (not in a step inside it) says where it came from.
                let prefix = "[\(hook)] "
                if !text.hasPrefix(prefix) { text = prefix + text }
            }
            if let index = state.open.last {
                let prefix = "[\(state.steps[index].label)] "
                if !text.hasPrefix(prefix) { text = prefix + text }
                state.steps[index].status = .failed
                if state.steps[index].failure == nil { state.steps[index].failure = text }
                // The step groups around it failed too; the message stays with the innermost step.
                for outer in state.open.dropLast() { state.steps[outer].status = .failed }
            }
            state.failures.append(FailureRecord(message: text, file: file ?? "", line: line))
            return text
        }
    }

    /// Starts a step, or records it as skipped (returning `nil`) when the
    /// scenario has already failed or been skipped: Gherkin semantics.
    func beginStep(
        keyword: String, text: String, site: CallSite, background: Bool, attachment: StepAttachment? = nil
    ) -> Int? {
        state.withLock { state in
            let skip = !state.failures.isEmpty || state.skipReason != nil
            state.steps.append(
                StepResult(
                    keyword: keyword, text: text, status: skip ? .skipped : .passed, duration: 0,
                    file: site.path, line: Int(site.line), failure: nil, background: background,
                    depth: state.open.isEmpty ? nil : state.open.count, table: attachment?.table?.rows,
                    docString: attachment?.docString))
            if skip { return nil }
            state.open.append(state.steps.count - 1)
            return state.steps.count - 1
        }
    }

    func endStep(_ index: Int, duration: Double) {
        state.withLock { state in
            state.steps[index].duration = duration
            state.open.removeAll { $0 == index }
        }
    }

    /// The step asked to skip the rest of the scenario (it threw `XCTSkip`).
    func markSkipped(_ reason: String) {
        state.withLock { state in
            if state.skipReason == nil { state.skipReason = reason }
            if let index = state.open.last { state.steps[index].status = .skipped }
        }
    }

    func markUnfocused() {
        state.withLock { $0.unfocused = true }
    }

    func enterHook(_ label: String) {
        state.withLock { $0.hooks.append(label) }
    }

    func leaveHook() {
        state.withLock { _ = $0.hooks.popLast() }
    }

    /// A declaration problem fails the scenario before anything runs.
    func noteProblem(_ message: String, site: CallSite) {
        state.withLock { $0.failures.append(FailureRecord(message: message, file: site.path, line: Int(site.line))) }
    }

    func markPending(_ reason: String) {
        state.withLock { $0.pendingReason = reason }
    }
}
