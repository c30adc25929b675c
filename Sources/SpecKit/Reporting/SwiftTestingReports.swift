import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Report fragments of scenarios run by Swift Testing, which has no bundle observer:
/// each scenario's fragment is written as it finishes, and the report is merged when the
/// process exits, into the same directory and run as the XCTest scenarios of that
/// `swift test` (both processes share a parent), so the living document and JUnit hold both.
/// `afterSuite` blocks run at that exit too, as under XCTest when the last test is not a scenario.
enum SwiftTestingReports {
    private static let registered = Locked(false)

    static func write(_ recorder: ScenarioRecorder, suite: String, duration: Double) {
        guard let store = ReportObserver.shared.store else { return }
        let report = ScenarioReport(
            recorder: recorder, specClass: suite, runID: store.runID, xctestSkipped: false, xctestFailures: 0,
            duration: duration)
        do {
            try store.write(report)
        } catch {
            SpecSettings.warn("could not write the report fragment of \(report.testName): \(error)")
        }
    }

    /// Once per process, when the first scenario runs: at exit, run the `afterSuite` blocks and
    /// merge the report. A failed `afterSuite` makes the exit status 1.
    static func finishAtExit() {
        let first = registered.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { atexit { SwiftTestingReports.finishProcess() } }
    }

    private static func finishProcess() {
        // Swift Testing's entry point returns to `main`, which calls `exit` on the main thread.
        let afterSuiteFailed = onMainActor { SuiteHooks.runAfterSuiteIfNeeded() }
        if let store = ReportObserver.shared.store, store.wroteFragments {
            do {
                try store.merge()
            } catch {
                SpecSettings.warn("could not merge the living document in \(store.directory.path): \(error)")
            }
        }
        if afterSuiteFailed {
            fflush(nil)
            _exit(1)
        }
    }
}
