import Foundation
import XCTest

/// Times a step, attributes failures to it, and skips it after an earlier failure.
@MainActor
enum StepRunner {
    static func run(
        _ keyword: String, _ text: String, _ site: CallSite, attachment: StepAttachment? = nil,
        _ body: () throws -> Void
    ) {
        // A timed-out scenario's task runs no further step (the next test owns the process now).
        if RunningScenario.ofTask?.isExpired == true { return }
        guard let run = RunningScenario.ofCaller else {
            return runOutsideScenario(keyword, text, site) {
                try checkArguments(attachment)
                try body()
            }
        }
        guard let step = OpenStep(run, keyword, text, site, attachment) else { return }
        do {
            try checkArguments(attachment)
            try body()
        } catch {
            step.fail(error)
        }
        step.close()
    }

    static func run(
        _ keyword: String, _ text: String, _ site: CallSite, attachment: StepAttachment? = nil,
        _ body: () async throws -> Void
    ) async {
        if RunningScenario.ofTask?.isExpired == true { return }
        guard let run = RunningScenario.ofCaller else {
            do {
                try checkArguments(attachment)
                try await body()
            } catch {
                reportOutside(error, keyword, text, site)
            }
            return
        }
        guard let step = OpenStep(run, keyword, text, site, attachment) else { return }
        do {
            try checkArguments(attachment)
            try await body()
        } catch {
            step.fail(error)
        }
        step.close()
    }

    /// A ragged or empty table fails the step before its body runs.
    private static func checkArguments(_ attachment: StepAttachment?) throws {
        if let problem = attachment?.table?.problem { throw StepArgumentError(message: problem) }
    }

    /// Steps belong in scenario bodies. Declared directly in a Feature they are
    /// a declaration mistake; in a plain XCTest method they simply run.
    private static func runOutsideScenario(
        _ keyword: String, _ text: String, _ site: CallSite, _ body: () throws -> Void
    ) {
        if let collector = SpecCollector.active {
            collector.addProblem(
                "\(keyword) \"\(text)\" is a step: put it inside a Scenario (or a hook), not directly in "
                    + "\(collector.currentGroup.map { "\"\($0.title)\"" } ?? "the spec")",
                title: "\(keyword) \(text) (misplaced step)", site: site)
            return
        }
        do {
            try body()
        } catch {
            reportOutside(error, keyword, text, site)
        }
    }

    private static func reportOutside(_ error: Error, _ keyword: String, _ text: String, _ site: CallSite) {
        if error is XCTSkip || error is RequirementFailure { return }
        FailureRecording.record(
            "[\(keyword) \(text)] " + ErrorText.failureMessage(for: error), file: site.file, line: site.line,
            expected: false)
    }
}

/// A step begun in the running scenario's record, timed from its start until ``close()``.
@MainActor
private struct OpenStep {
    let run: RunningScenario
    let site: CallSite
    let index: Int
    let start: UInt64

    /// Nil when the recorder takes no more steps.
    init?(_ run: RunningScenario, _ keyword: String, _ text: String, _ site: CallSite, _ attachment: StepAttachment?) {
        guard
            let index = run.recorder.beginStep(
                keyword: keyword, text: text, site: site, background: run.inBackground, attachment: attachment)
        else { return nil }
        self.run = run
        self.site = site
        self.index = index
        self.start = DispatchTime.now().uptimeNanoseconds
    }

    func fail(_ error: Error) {
        ScenarioRunner.handle(error, label: nil, site: site, run)
    }

    func close() {
        run.recorder.endStep(index, duration: Double(DispatchTime.now().uptimeNanoseconds &- start) / 1_000_000_000)
    }
}

/// A step's data table cannot be used (ragged or empty).
struct StepArgumentError: Error, SpecKitFailureDescribing {
    let message: String
    var failureDescription: String { message }
}
