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
        let first = registered.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { atexit { SwiftTestingReports.mergeAtExit() } }
    }

    private static func mergeAtExit() {
        guard let store = ReportObserver.shared.store, store.wroteFragments else { return }
        do {
            try store.merge()
        } catch {
            SpecSettings.warn("could not merge the living document in \(store.directory.path): \(error)")
        }
    }
}
