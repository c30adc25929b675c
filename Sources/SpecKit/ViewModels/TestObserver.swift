import Foundation

/// Records every value a view-model output emits, Kickstarter style.
///
/// ```swift
/// let titles = TestObserver<String>()
/// vm.outputs.title.observe(titles.observer)
/// vm.inputs.viewDidLoad()
/// titles.assertValues(["Top stories"])
/// expect(titles.values).toEventually(equal(["Top stories", "Newest"]))
/// ```
/// `observer` is a `@Sendable (Value) -> Void`, so it plugs into any signal
/// type's `observe`. Recording is thread-safe. Assertions report at the
/// caller's line and, inside a step, count as that step's failure.
public final class TestObserver<Value>: @unchecked Sendable {
    private let recorded = Locked<[Value]>([])

    public init() {}

    /// The sink to hand to an output's `observe`.
    public var observer: @Sendable (Value) -> Void {
        { [recorded] value in recorded.withLock { $0.append(value) } }
    }

    /// Records a value directly (what `observer` does).
    public func send(_ value: Value) {
        recorded.withLock { $0.append(value) }
    }

    /// Every value emitted so far, oldest first.
    public var values: [Value] { recorded.snapshot }

    /// The most recent value, or `nil` before the first one.
    public var lastValue: Value? { recorded.withLock { $0.last } }

    /// Forgets the values recorded so far.
    public func reset() {
        recorded.withLock { $0.removeAll() }
    }

    /// Fails unless exactly `count` values were emitted.
    public func assertValueCount(
        _ count: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let values = self.values
        guard values.count != count else { return }
        report(
            "expected \(count) value\(count == 1 ? "" : "s"), got \(values.count): \(describeValue(values))",
            message, file, line)
    }

    /// Fails if any value was emitted.
    public func assertDidNotEmitValue(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let values = self.values
        guard !values.isEmpty else { return }
        report("expected no values, got \(values.count): \(describeValue(values))", message, file, line)
    }

    /// Fails unless at least one value was emitted.
    public func assertDidEmitValue(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        guard values.isEmpty else { return }
        report("expected at least one value, got none", message, file, line)
    }

    private func report(_ text: String, _ message: String, _ file: StaticString, _ line: UInt) {
        FailureRecording.record(message.isEmpty ? text : "\(text) - \(message)", file: file, line: line)
    }
}

extension TestObserver where Value: Equatable {
    /// Fails unless the emitted values are exactly `expected`, in order.
    public func assertValues(
        _ expected: [Value], _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let values = self.values
        guard values != expected else { return }
        let result = EqualityDiff.result(expected: expected, actual: values)
        var text = "expected values \(result.expectation.dropFirst("equal ".count)), got \(result.actual ?? "")"
        if let details = result.details { text += "\n" + details }
        report(text, message, file, line)
    }

    /// Fails unless the most recent value equals `expected`.
    public func assertLastValue(
        _ expected: Value, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let last = lastValue
        guard last != expected else { return }
        report(
            "expected last value \(describeValue(expected)), got \(last.map { describeValue($0) } ?? "no values")",
            message, file, line)
    }
}
