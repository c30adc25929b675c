import TestRunObservation
import XCTest

/// Asserts that `value`, rendered by `strategy`, matches its reference file
/// `__Snapshots__/<TestFile>/<testName>.<name>.<ext>` beside the test file. A missing reference is
/// recorded (locally) or reported (on CI); a mismatch fails with a summary, the paths, the command that
/// re-records it and a unified diff with hint lines. Any write fails the test.
///
/// ```swift
/// func testReceipt() {
///     assertSnapshot(of: receipt, as: .dump)                 // testReceipt.1.txt
///     assertSnapshot(of: order, as: .json, named: "order")   // testReceipt.order.json
/// }
/// ```
/// Inside a SpecKit scenario the default name is the scenario's (`Sunny day.1.txt`), not the
/// enclosing function's. Failures are reported to Swift Testing inside a `@Test`, to XCTest otherwise.
public func assertSnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as strategy: Snapshotting<Value>,
    named name: String? = nil,
    record: RecordMode? = nil,
    snapshotDirectory: String? = nil,
    file: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line
) {
    if let failure = verifySnapshot(
        of: try value(), as: strategy, named: name, record: record,
        snapshotDirectory: snapshotDirectory, file: file, testName: testName, line: line)
    {
        FailureRouter.record(failure.message, file: file, line: line)
    }
}
