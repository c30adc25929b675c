import Foundation

/// Starts an expectation about a value: `expect(vm.title).to(equal("Stories"))`.
///
/// The expression is evaluated lazily, once for `to`/`toNot` and on every poll
/// for `toEventually`. Failures are recorded at the caller's line and, inside
/// a step, start with the step: `[Then the title is shown] expected to …`.
///
/// Disfavoured so that a trailing closure always means the closure form: without it a
/// multi-statement closure returning nothing (`expect { let y = 1; throw E() }`) could be
/// wrapped in this autoclosure and checked as a value, never run.
@_disfavoredOverload
public func expect<Value>(
    _ expression: @autoclosure @escaping () throws -> Value?, file: StaticString = #filePath, line: UInt = #line
) -> Expectation<Value> {
    Expectation(expression: expression, file: file, line: line)
}

/// Closure form, for code that throws or returns nothing, in one expression or several statements:
/// `expect { try decode(Story.self, fromJSON: json) }.to(throwError())`,
/// `expect { vm.inputs.retry(); try vm.save() }.toNot(throwError())`.
public func expect<Value>(
    file: StaticString = #filePath, line: UInt = #line, _ expression: @escaping () throws -> Value?
) -> Expectation<Value> {
    Expectation(expression: expression, file: file, line: line)
}

/// An expression waiting for a matcher. See ``expect(_:file:line:)``.
public struct Expectation<Value> {
    let expression: () throws -> Value?
    let file: StaticString
    let line: UInt

    /// Passes when the matcher matches.
    @discardableResult
    public func to(_ matcher: Matcher<Value>, description: String? = nil) -> Bool {
        verify(matcher, .to, description)
    }

    /// Passes when the matcher does not match.
    @discardableResult
    public func toNot(_ matcher: Matcher<Value>, description: String? = nil) -> Bool {
        verify(matcher, .toNot, description)
    }

    /// Same as ``toNot(_:description:)``.
    @discardableResult
    public func notTo(_ matcher: Matcher<Value>, description: String? = nil) -> Bool {
        verify(matcher, .toNot, description)
    }

    /// Polls until the matcher matches, spinning the current run loop so main
    /// queue and main-actor work can progress. `timeout` and `pollInterval` default to
    /// ``PollingDefaults`` (1 s and 10 ms; `BDD_EVENTUALLY_TIMEOUT`, `BDD_POLL_INTERVAL`).
    /// In async code use the `await` form.
    @available(*, noasync, message: "in async code write `await expect(…).toEventually(…)`")
    @discardableResult
    public func toEventually(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toEventually, timeout, pollInterval, description)
    }

    /// Polls until the matcher stops matching. See ``toEventually(_:timeout:pollInterval:description:)``.
    @available(*, noasync, message: "in async code write `await expect(…).toEventuallyNot(…)`")
    @discardableResult
    public func toEventuallyNot(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toEventuallyNot, timeout, pollInterval, description)
    }

    /// Same as ``toEventuallyNot(_:timeout:pollInterval:description:)``.
    @available(*, noasync, message: "in async code write `await expect(…).toNotEventually(…)`")
    @discardableResult
    public func toNotEventually(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toEventuallyNot, timeout, pollInterval, description)
    }

    /// Checks for the whole of `until` (default ``PollingDefaults/timeout``) that the matcher
    /// never matches; fails at the first poll that matches:
    /// `expect(vm.errorShown).toNever(beTrue(), until: 0.5)`.
    @available(*, noasync, message: "in async code write `await expect(…).toNever(…)`")
    @discardableResult
    public func toNever(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toNever, until, pollInterval, description)
    }

    /// Same as ``toNever(_:until:pollInterval:description:)``.
    @available(*, noasync, message: "in async code write `await expect(…).neverTo(…)`")
    @discardableResult
    public func neverTo(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toNever, until, pollInterval, description)
    }

    /// Checks for the whole of `until` that the matcher keeps matching; fails at the first
    /// poll that does not: `expect(session.isValid).toAlways(beTrue(), until: 0.5)`.
    @available(*, noasync, message: "in async code write `await expect(…).toAlways(…)`")
    @discardableResult
    public func toAlways(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toAlways, until, pollInterval, description)
    }

    /// Same as ``toAlways(_:until:pollInterval:description:)``.
    @available(*, noasync, message: "in async code write `await expect(…).alwaysTo(…)`")
    @discardableResult
    public func alwaysTo(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) -> Bool {
        poll(matcher, .toAlways, until, pollInterval, description)
    }

    /// Async form: polls with `Task.sleep`, on the caller's actor.
    @discardableResult
    public func toEventually(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toEventually, timeout, pollInterval, description, isolation)
    }

    /// Async form of ``toEventuallyNot(_:timeout:pollInterval:description:)``.
    @discardableResult
    public func toEventuallyNot(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toEventuallyNot, timeout, pollInterval, description, isolation)
    }

    /// Async form of ``toNotEventually(_:timeout:pollInterval:description:)``.
    @discardableResult
    public func toNotEventually(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toEventuallyNot, timeout, pollInterval, description, isolation)
    }

    /// Async form of ``toNever(_:until:pollInterval:description:)``.
    @discardableResult
    public func toNever(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toNever, until, pollInterval, description, isolation)
    }

    /// Async form of ``neverTo(_:until:pollInterval:description:)``.
    @discardableResult
    public func neverTo(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toNever, until, pollInterval, description, isolation)
    }

    /// Async form of ``toAlways(_:until:pollInterval:description:)``.
    @discardableResult
    public func toAlways(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toAlways, until, pollInterval, description, isolation)
    }

    /// Async form of ``alwaysTo(_:until:pollInterval:description:)``.
    @discardableResult
    public func alwaysTo(
        _ matcher: Matcher<Value>, until: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await pollAsync(matcher, .toAlways, until, pollInterval, description, isolation)
    }

    // MARK: Evaluation

    func evaluate(_ matcher: Matcher<Value>, _ style: ExpectationStyle, cached: Bool) -> (passed: Bool, message: String) {
        do {
            let result = try matcher.evaluate(ActualValue(cached: cached, expression))
            return (result.passes(style), result.message(for: style))
        } catch {
            return (false, "expected a value, but the expression threw " + ErrorText.describe(error))
        }
    }

    private func verify(_ matcher: Matcher<Value>, _ style: ExpectationStyle, _ description: String?) -> Bool {
        let outcome = evaluate(matcher, style, cached: true)
        if !outcome.passed { fail(outcome.message, description) }
        return outcome.passed
    }

    /// Spins the current run loop between polls. See ``pollOnce(_:_:_:limit:timeIsUp:hint:)``.
    private func poll(
        _ matcher: Matcher<Value>, _ style: ExpectationStyle, _ timeout: TimeInterval?, _ interval: TimeInterval?,
        _ description: String?
    ) -> Bool {
        let limit = timeout ?? PollingDefaults.timeout
        let interval = interval ?? PollingDefaults.pollInterval
        let deadline = Date(timeIntervalSinceNow: limit)
        let runLoop = RunLoop.current
        // A repeating timer keeps the run loop from returning at once when it
        // has nothing else to do, so waiting does not become a busy spin.
        let keepAlive = Timer(timeInterval: max(interval, 0.001), repeats: true) { _ in }
        runLoop.add(keepAlive, forMode: .default)
        defer { keepAlive.invalidate() }
        while true {
            if let result = pollOnce(
                matcher, style, description, limit: limit, timeIsUp: { Date() >= deadline }, hint: Self.runLoopHint)
            {
                return result
            }
            _ = runLoop.run(mode: .default, before: min(Date(timeIntervalSinceNow: interval), deadline))
        }
    }

    /// Spinning the run loop from inside a main-actor task cannot run other main-actor work
    /// (Nimble #1006), so an async scenario whose `toEventually` times out is told how to wait instead.
    private static var runLoopHint: String {
        guard RunningScenario.ofCaller?.isAsync == true else { return "" }
        return "\n(this scenario is async: wait with `await expect(…).toEventually(…)` "
            + "in an `await` step so main-actor work can run)"
    }

    /// Sleeps with `Task.sleep` between polls; a cancelled task stops at the next poll.
    private func pollAsync(
        _ matcher: Matcher<Value>, _ style: ExpectationStyle, _ timeout: TimeInterval?, _ interval: TimeInterval?,
        _ description: String?, _ isolation: isolated (any Actor)?
    ) async -> Bool {
        let limit = timeout ?? PollingDefaults.timeout
        let interval = interval ?? PollingDefaults.pollInterval
        let deadline = Date(timeIntervalSinceNow: limit)
        while true {
            if let result = pollOnce(
                matcher, style, description, limit: limit, timeIsUp: { Date() >= deadline || Task.isCancelled })
            {
                return result
            }
            let wait = min(interval, max(0, deadline.timeIntervalSinceNow))
            try? await Task.sleep(nanoseconds: UInt64(max(wait, 0.001) * 1_000_000_000))
        }
    }

    /// One poll of `poll` and `pollAsync`: the expectation's result once polling is over, nil to
    /// poll again. `toEventually`-style styles stop at the first pass; `toNever`/`toAlways` stop at
    /// the first failure and pass when the time is up. `hint` follows a time-out's message.
    private func pollOnce(
        _ matcher: Matcher<Value>, _ style: ExpectationStyle, _ description: String?, limit: TimeInterval,
        timeIsUp: () -> Bool, hint: @autoclosure () -> String = ""
    ) -> Bool? {
        let outcome = evaluate(matcher, style, cached: false)
        if style.holdsForDuration {
            if !outcome.passed {
                fail(outcome.message, description)
                return false
            }
            return timeIsUp() ? true : nil
        }
        if outcome.passed { return true }
        guard timeIsUp() else { return nil }
        fail(Self.timedOut(outcome.message, after: limit) + hint(), description)
        return false
    }

    /// Puts the wait on the first line, before any diff.
    static func timedOut(_ message: String, after limit: TimeInterval) -> String {
        let note = " (timed out after \(Format.seconds(limit)))"
        guard let newline = message.firstIndex(of: "\n") else { return message + note }
        return message[..<newline] + note + message[newline...]
    }

    func fail(_ message: String, _ description: String?) {
        let text = description.map { "\($0): \(message)" } ?? message
        FailureRecording.record(text, file: file, line: line)
    }
}
