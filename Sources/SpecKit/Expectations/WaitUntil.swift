import Foundation

/// Waits until `action` calls `done()`, for work that reports completion through a callback:
///
/// ```swift
/// waitUntil(timeout: 2) { done in
///     client.fetchStories { result in
///         expect(result).toNot(beNil())
///         done()
///     }
/// }
/// ```
/// Spins the current run loop (so main-queue callbacks run). `timeout` defaults to
/// ``PollingDefaults/timeout``. Fails at the caller's line when `done` is not called in time;
/// a second call of `done` is ignored. In async code use the `await` form.
@available(*, noasync, message: "in async code write `await waitUntil { done in … }`")
@_disfavoredOverload // so `await waitUntil { done in … }` in async code picks the async form
public func waitUntil(
    timeout: TimeInterval? = nil, file: StaticString = #filePath, line: UInt = #line,
    action: (@escaping @Sendable () -> Void) throws -> Void
) {
    let limit = timeout ?? PollingDefaults.timeout
    let signal = DoneSignal()
    do {
        try action { signal.fire() }
    } catch {
        FailureRecording.record(
            "waitUntil's action threw " + ErrorText.describe(error), file: file, line: line, expected: false)
        return
    }
    let deadline = Date(timeIntervalSinceNow: limit)
    let runLoop = RunLoop.current
    let keepAlive = Timer(timeInterval: PollingDefaults.pollInterval, repeats: true) { _ in }
    runLoop.add(keepAlive, forMode: .default)
    defer { keepAlive.invalidate() }
    while !signal.isDone {
        if Date() >= deadline {
            FailureRecording.record(WaitUntilMessage.timedOut(limit), file: file, line: line)
            return
        }
        _ = runLoop.run(mode: .default, before: min(Date(timeIntervalSinceNow: PollingDefaults.pollInterval), deadline))
    }
}

/// Async form of ``waitUntil(timeout:file:line:action:)``: `action` runs on the caller's actor and
/// the wait sleeps between checks, so main-actor callbacks can run.
public func waitUntil(
    timeout: TimeInterval? = nil, file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    action: (@escaping @Sendable () -> Void) async throws -> Void
) async {
    let limit = timeout ?? PollingDefaults.timeout
    let signal = DoneSignal()
    do {
        try await action { signal.fire() }
    } catch {
        FailureRecording.record(
            "waitUntil's action threw " + ErrorText.describe(error), file: file, line: line, expected: false)
        return
    }
    let deadline = Date(timeIntervalSinceNow: limit)
    while !signal.isDone {
        if Date() >= deadline || Task.isCancelled {
            FailureRecording.record(WaitUntilMessage.timedOut(limit), file: file, line: line)
            return
        }
        try? await Task.sleep(nanoseconds: UInt64(max(PollingDefaults.pollInterval, 0.001) * 1_000_000_000))
    }
}

enum WaitUntilMessage {
    static func timedOut(_ limit: TimeInterval) -> String {
        "waitUntil timed out after \(Format.seconds(limit)): done() was never called"
    }
}

/// Set once by `done()`, read by the waiting loop; `done()` may be called from any thread.
final class DoneSignal: @unchecked Sendable {
    private let state = Locked(false)
    var isDone: Bool { state.snapshot }
    func fire() { state.withLock { $0 = true } }
}
