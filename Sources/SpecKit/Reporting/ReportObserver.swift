import Foundation
import TestRunObservation
import XCTest

/// Watches the test run: writes a fragment when a scenario's test finishes and
/// merges the report when the bundle finishes (in every process, so
/// `swift test --parallel` works). Installed while the test list is built.
final class ReportObserver: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared = ReportObserver()
    private static let installed = Locked(false)
    private static let current = Locked<UncheckedSendable<XCTestCase>?>(nil)

    /// The XCTest test running now, for expectations used in plain test methods.
    static var currentTestCase: XCTestCase? { current.snapshot?.value }

    /// Made on first use, after the spec files are known, so the default report folder is found from
    /// them (the observer itself is installed before any spec is collected).
    var store: ReportStore? {
        storeSlot.withLock { slot in
            if let made = slot { return made }
            let made = SpecSettings.reportDirectory.map { ReportStore(directory: $0, runID: RunIdentity.current) }
            slot = .some(made)
            return made
        }
    }
    private let storeSlot = Locked<ReportStore??>(nil)

    static func installIfNeeded() {
        let first = installed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        FailureRecording.installRouting()
        ScenarioSnapshots.installListener()
        // Apple: "Test observers can only be registered … on the main thread"; hop there as
        // RunningTest and SnapshotObserver do.
        let observer = shared
        if Thread.isMainThread {
            MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(observer) }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(observer) } }
        }
        // Before any test runs, so TextSnapshot's re-record commands can name even the first one.
        RunningTest.startObserving()
    }

    func testBundleWillStart(_ testBundle: Bundle) {
        SuitePlan.bundleWillStart()
    }

    func testSuiteWillStart(_ testSuite: XCTestSuite) {
        SuitePlan.suiteWillStart(testSuite)
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        Self.current.withLock { $0 = UncheckedSendable(testCase) }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        Self.current.withLock { $0 = nil }
        SuitePlan.testCaseDidFinish()
        guard let store, let spec = testCase as? FeatureSpec, let recorder = spec.recorder, !recorder.isUnfocused
        else { return }
        let run = testCase.testRun
        let report = ScenarioReport(
            recorder: recorder, specClass: String(reflecting: type(of: spec)), runID: store.runID,
            xctestSkipped: run?.hasBeenSkipped ?? false, xctestFailures: run?.totalFailureCount ?? 0,
            duration: run?.totalDuration ?? 0)
        do {
            try store.write(report)
        } catch {
            SpecSettings.warn("could not write the report fragment of \(report.testName): \(error)")
        }
    }

    /// The fallback when the last test was not a scenario or was not known: `afterSuite` runs now and
    /// a failure can only set the exit status.
    func testBundleDidFinish(_ testBundle: Bundle) {
        if onMainActor({ SuiteHooks.runAfterSuiteIfNeeded() }) { SuiteExit.failOnExit() }
        guard let store, store.wroteFragments else { return }
        do {
            try store.merge()
        } catch {
            SpecSettings.warn("could not merge the living document in \(store.directory.path): \(error)")
        }
    }
}
