import Foundation

/// What happened to one step of a scenario run.
struct StepResult: Codable, Sendable, Equatable {
    enum Status: String, Codable, Sendable {
        case passed, failed, skipped
    }

    var keyword: String
    var text: String
    var status: Status
    var duration: Double
    var file: String
    var line: Int
    /// The first failure message recorded while the step ran.
    var failure: String?
    /// Declared in a `Background`/`beforeEach`/`justBeforeEach` hook.
    var background: Bool
    /// How many steps enclose this one (a ``StepGroup``'s steps are 1); nil means 0.
    var depth: Int? = nil
    /// The step's Gherkin data table, header row first.
    var table: [[String]]? = nil
    /// The step's Gherkin doc string.
    var docString: String? = nil

    var label: String { "\(keyword) \(text)" }
}

/// One failure recorded while a scenario ran, as XCTest reported it.
struct FailureRecord: Codable, Sendable, Equatable {
    var message: String
    var file: String
    var line: Int
}

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

    func markPending(_ reason: String) {
        state.withLock { $0.pendingReason = reason }
    }
}
