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
                if let problem = attachment?.table?.problem { throw StepArgumentError(message: problem) }
                try body()
            }
        }
        guard
            let index = run.recorder.beginStep(
                keyword: keyword, text: text, site: site, background: run.inBackground, attachment: attachment)
        else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            if let problem = attachment?.table?.problem { throw StepArgumentError(message: problem) }
            try body()
        } catch {
            ScenarioRunner.handle(error, label: nil, site: site, run)
        }
        run.recorder.endStep(index, duration: elapsed(since: start))
    }

    static func run(
        _ keyword: String, _ text: String, _ site: CallSite, attachment: StepAttachment? = nil,
        _ body: () async throws -> Void
    ) async {
        if RunningScenario.ofTask?.isExpired == true { return }
        guard let run = RunningScenario.ofCaller else {
            do {
                if let problem = attachment?.table?.problem { throw StepArgumentError(message: problem) }
                try await body()
            } catch {
                reportOutside(error, keyword, text, site)
            }
            return
        }
        guard
            let index = run.recorder.beginStep(
                keyword: keyword, text: text, site: site, background: run.inBackground, attachment: attachment)
        else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            if let problem = attachment?.table?.problem { throw StepArgumentError(message: problem) }
            try await body()
        } catch {
            ScenarioRunner.handle(error, label: nil, site: site, run)
        }
        run.recorder.endStep(index, duration: elapsed(since: start))
    }

    private static func elapsed(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1_000_000_000
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

/// A step's data table cannot be used (ragged or empty).
struct StepArgumentError: Error, SpecKitFailureDescribing {
    let message: String
    var failureDescription: String { message }
}
