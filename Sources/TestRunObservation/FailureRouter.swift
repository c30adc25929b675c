import Foundation
import Locking
import XCTest

#if canImport(Testing)
import Testing
#endif

/// The one place a Rehearsal failure (an expectation, a `TestObserver` assertion, a decoding
/// failure, a snapshot) is turned into a test failure: `Issue.record` when the code runs inside a
/// Swift Testing test, XCTest otherwise, always at the spec author's file and line.
///
/// SpecKit installs an interceptor so that failures raised by TextSnapshot (which does not depend
/// on SpecKit) still reach SpecKit's own bookkeeping: the running step, `captureFailures`, the
/// living document. Everything therefore flows `FailureRouter.record` → SpecKit's
/// `FailureRecording.record` (when linked) → `FailureRouter.deliver`.
package enum FailureRouter {
    /// Returns true when it handled the failure (SpecKit's `FailureRecording.record`).
    package typealias Interceptor = @Sendable (_ message: String, _ file: StaticString, _ line: UInt, _ expected: Bool) -> Void

    private static let interceptor = Locked<Interceptor?>(nil)

    /// SpecKit calls this once; later failures from any module go through `interceptor`.
    package static func install(_ handler: @escaping Interceptor) {
        interceptor.set(handler)
    }

    /// Reports a failure from any Rehearsal module.
    package static func record(_ message: String, file: StaticString, line: UInt, expected: Bool = true) {
        if let handler = interceptor.snapshot {
            handler(message, file, line, expected)
        } else {
            deliver(message, file: file, line: line, expected: expected, on: nil)
        }
    }

    /// True while the calling task runs inside a Swift Testing test.
    package static var isInSwiftTesting: Bool {
        #if canImport(Testing)
        return Test.current != nil
        #else
        return false
        #endif
    }

    /// Hands the failure to the test library that runs the current test: Swift Testing's
    /// `Issue.record` inside a `@Test`, else `testCase` (or the running XCTest test), else `XCTFail`.
    package static func deliver(
        _ message: String, file: StaticString, line: UInt, expected: Bool, on testCase: XCTestCase?
    ) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(file: "\(file)", line: line))
            return
        }
        #endif
        if let testCase = testCase ?? RunningTest.currentTestCase {
            record(message, on: testCase, file: "\(file)", line: Int(line), expected: expected)
        } else {
            XCTFail(message, file: file, line: line)
        }
    }

    #if canImport(Testing)
    /// `Module/File.swift` is what `#fileID` would say; the module is the folder above the file
    /// (SwiftPM's `Sources/<Target>/…` and `Tests/<Target>/…` layout), which only affects display.
    static func sourceLocation(file: String, line: UInt) -> SourceLocation {
        let url = URL(fileURLWithPath: file)
        let module = url.deletingLastPathComponent().lastPathComponent
        let fileID = (module.isEmpty ? "Tests" : module) + "/" + url.lastPathComponent
        return SourceLocation(fileID: fileID, filePath: file, line: max(1, Int(line)), column: 1)
    }
    #endif

    /// Records on a specific XCTest test case.
    package static func record(_ message: String, on testCase: XCTestCase, file: String, line: Int, expected: Bool) {
        #if canImport(ObjectiveC)
        let location = XCTSourceCodeLocation(filePath: file, lineNumber: line)
        let issue = XCTIssue(
            type: expected ? .assertionFailure : .thrownError, compactDescription: message,
            sourceCodeContext: XCTSourceCodeContext(location: location))
        testCase.record(issue)
        #else
        testCase.recordFailure(withDescription: message, inFile: file, atLine: line, expected: expected)
        #endif
    }
}
