import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `beforeSuite` and `afterSuite` blocks of every spec class, run once per test process.
///
/// They are registered while the test list is built; `beforeSuite` runs right before the first
/// scenario runs (so `swift test list` runs nothing). Under XCTest `afterSuite` runs at the end of
/// the run's last test when that is a scenario (``SuitePlan``), else when the test bundle finishes;
/// under Swift Testing when the process exits (`SwiftTestingReports`).
@MainActor
enum SuiteHooks {
    enum Kind { case before, after }

    private struct Entry {
        let body: @MainActor () throws -> Void
        let site: CallSite
    }

    private static var befores: [Entry] = []
    private static var afters: [Entry] = []
    /// nil until the before-suite blocks ran; then the failure they left, if any.
    private static var beforeOutcome: String??
    private static var afterRan = false

    static func register(_ kind: Kind, _ body: @escaping @MainActor () throws -> Void, _ site: CallSite) {
        // A spec class is collected once, but guard against the same block twice anyway.
        let entry = Entry(body: body, site: site)
        switch kind {
        case .before where !befores.contains { $0.site == site }: befores.append(entry)
        case .after where !afters.contains { $0.site == site }: afters.append(entry)
        default: break
        }
    }

    /// Runs the `beforeSuite` blocks the first time; returns the failure they recorded (now and
    /// for every later scenario), reported on the calling scenario's test case.
    static func runBeforeSuiteIfNeeded() -> String? {
        if let outcome = beforeOutcome { return outcome }
        var failure: String?
        for entry in befores {
            let failures = captureFailures {
                do { try entry.body() } catch {
                    FailureRecording.record(
                        "threw " + ErrorText.describe(error), file: entry.site.file, line: entry.site.line)
                }
            }
            if let first = failures.first {
                failure = "beforeSuite (\(DisplayPath.relativeToCurrentDirectory(entry.site.path)):\(entry.site.line)) failed: \(first)"
                break
            }
        }
        beforeOutcome = .some(failure)
        return failure
    }

    /// Where the exit status is not the verdict, say so next to the failure.
    static var afterSuiteVerdictNote: String {
        #if canImport(ObjectiveC)
        return "SpecKit: afterSuite failed after the last test finished. `swift test` exits with status 1; "
            + "Xcode and app-hosted iOS runners judge the run by its test results and may report it as passed "
            + "(docs/apple-platforms.md, \"afterSuite on Apple platforms\").\n"
        #else
        return ""
        #endif
    }

    /// Runs the `afterSuite` blocks once, if any scenario ran. Failures are printed in the compiler's
    /// `file:line: error:` form; returns true when there were any, and the caller makes the process
    /// exit with status 1 (no test is left to fail).
    static func runAfterSuiteIfNeeded() -> Bool {
        guard beforeOutcome != nil, !afterRan else { return false }
        afterRan = true
        var failed = false
        for entry in afters {
            for message in failures(of: entry) {
                failed = true
                let line = "\(entry.site.path):\(entry.site.line): error: afterSuite : \(message)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
                if !afterSuiteVerdictNote.isEmpty { FileHandle.standardError.write(Data(afterSuiteVerdictNote.utf8)) }
            }
        }
        return failed
    }

    /// Runs the `afterSuite` blocks once, if any scenario ran, inside `testCase`, the last test of
    /// the XCTest run (``SuitePlan``): each failure is recorded on it at the block's line, so every
    /// runner that reads test results (Xcode, app-hosted iOS runners, `swift test`) fails the run.
    static func runAfterSuiteInLastTest(_ testCase: XCTestCase) {
        guard beforeOutcome != nil, !afterRan else { return }
        afterRan = true
        for entry in afters {
            for message in failures(of: entry) {
                FailureRecording.record(
                    "afterSuite : \(message)", on: testCase, file: entry.site.path, line: Int(entry.site.line), expected: true)
            }
        }
    }

    private static func failures(of entry: Entry) -> [String] {
        captureFailures {
            do { try entry.body() } catch {
                FailureRecording.record(
                    "threw " + ErrorText.describe(error), file: entry.site.file, line: entry.site.line)
            }
        }
    }
}

/// When `afterSuite` ran after the bundle finished (the fallback: the last test was not a scenario or
/// was not known), XCTest has no test case left to fail, so a failed `afterSuite` turns the
/// process's exit status into 1 from an `atexit` handler (after XCTest printed its summary).
enum SuiteExit {
    private static let armed = Locked(false)

    static func failOnExit() {
        let first = armed.withLock { armed -> Bool in
            defer { armed = true }
            return !armed
        }
        guard first else { return }
        atexit {
            fflush(nil)
            _exit(1)
        }
    }
}
