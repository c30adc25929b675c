import Foundation

/// Like `expect`, but returns the value so the rest of the step can use it, and throws
/// (failing the step once, with the matcher's message) when the matcher does not pass:
///
/// ```swift
/// When("the first story opens") {
///     let story = try require(vm.stories.first).toNot(beNil())
///     let id = try require(story.id).to(beGreaterThan(0))
///     vm.inputs.open(id)
/// }
/// ```
public func require<Value>(
    _ expression: @autoclosure @escaping () throws -> Value?, file: StaticString = #filePath, line: UInt = #line
) -> Requirement<Value> {
    Requirement(expectation: Expectation(expression: expression, file: file, line: line))
}

/// Closure form of ``require(_:file:line:)``.
public func require<Value>(
    file: StaticString = #filePath, line: UInt = #line, _ expression: @escaping () throws -> Value?
) -> Requirement<Value> {
    Requirement(expectation: Expectation(expression: expression, file: file, line: line))
}

/// The value, or a failure (`expected to not be nil, got <nil>`) and a thrown ``RequirementFailure``:
/// `let user = try unwrap(session.user)`.
public func unwrap<Value>(
    _ expression: @autoclosure @escaping () throws -> Value?, file: StaticString = #filePath, line: UInt = #line
) throws -> Value {
    try require(expression(), file: file, line: line).toNot(beNil())
}

/// Async form of ``unwrap(_:file:line:)`` for an `async` expression.
public func unwrap<Value>(
    file: StaticString = #filePath, line: UInt = #line, _ expression: () async throws -> Value?
) async throws -> Value {
    let value = try await expression()
    return try require(value, file: file, line: line).toNot(beNil())
}

/// Thrown by `require(…)` and `unwrap(…)` after their failure was recorded; a step or scenario
/// that ends with it reports nothing more.
public struct RequirementFailure: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// An expectation that hands back its value. See ``require(_:file:line:)``.
public struct Requirement<Value> {
    let expectation: Expectation<Value>

    /// The value when the matcher passes and the value is not nil; throws otherwise.
    @discardableResult
    public func to(_ matcher: Matcher<Value>, description: String? = nil) throws -> Value {
        try check(matcher, .to, description)
    }

    /// The value when the matcher does not match and the value is not nil; throws otherwise.
    @discardableResult
    public func toNot(_ matcher: Matcher<Value>, description: String? = nil) throws -> Value {
        try check(matcher, .toNot, description)
    }

    /// Same as ``toNot(_:description:)``.
    @discardableResult
    public func notTo(_ matcher: Matcher<Value>, description: String? = nil) throws -> Value {
        try check(matcher, .toNot, description)
    }

    /// Polls like `toEventually`, then returns the value that matched.
    @available(*, noasync, message: "in async code write `try await require(…).toEventually(…)`")
    @discardableResult
    public func toEventually(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil
    ) throws -> Value {
        guard expectation.toEventually(matcher, timeout: timeout, pollInterval: pollInterval, description: description)
        else { throw RequirementFailure(message: "requirement timed out") }
        return try value(description)
    }

    /// Async form of ``toEventually(_:timeout:pollInterval:description:)``.
    @discardableResult
    public func toEventually(
        _ matcher: Matcher<Value>, timeout: TimeInterval? = nil, pollInterval: TimeInterval? = nil,
        description: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws -> Value {
        guard
            await expectation.toEventually(
                matcher, timeout: timeout, pollInterval: pollInterval, description: description)
        else { throw RequirementFailure(message: "requirement timed out") }
        return try value(description)
    }

    private func check(_ matcher: Matcher<Value>, _ style: ExpectationStyle, _ description: String?) throws -> Value {
        // One evaluation serves the matcher and the returned value.
        let actual = ActualValue(cached: true, expectation.expression)
        let outcome: (passed: Bool, message: String)
        do {
            let result = try matcher.evaluate(actual)
            outcome = (result.passes(style), result.message(for: style))
        } catch {
            outcome = (false, "expected a value, but the expression threw " + ErrorText.describe(error))
        }
        guard outcome.passed else {
            expectation.fail(outcome.message, description)
            throw RequirementFailure(message: outcome.message)
        }
        guard let value = try? actual.evaluate() else {
            let message = "expected a value to continue with, got <nil>"
            expectation.fail(message, description)
            throw RequirementFailure(message: message)
        }
        return value
    }

    private func value(_ description: String?) throws -> Value {
        guard let value = try? expectation.expression() else {
            let message = "expected a value to continue with, got <nil>"
            expectation.fail(message, description)
            throw RequirementFailure(message: message)
        }
        return value
    }
}

/// Fails the current step (or test) with `message` at the caller's line, as Nimble's `fail` does:
/// `guard case .loaded(let stories) = vm.state else { return fail("expected loaded, got \(vm.state)") }`.
public func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
    FailureRecording.record(message, file: file, line: line)
}
