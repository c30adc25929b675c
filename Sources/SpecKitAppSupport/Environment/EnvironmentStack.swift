import Foundation

/// A stack of environments (API client, language, clock, …) with the current
/// one on top, as Kickstarter's `AppEnvironment` keeps. Use it in app code; it
/// does not depend on XCTest.
///
/// ```swift
/// enum AppEnvironment {
///     static let stack = EnvironmentStack(Environment())
///     static var current: Environment { stack.current }
/// }
///
/// // in a spec
/// AppEnvironment.stack.withEnvironment(Environment(api: MockAPI(), language: .de)) {
///     vm.inputs.viewDidLoad()
/// }   // the previous environment is back, even if the body threw
/// ```
/// Thread-safe. Scopes are meant to nest; overlapping `withEnvironment` calls
/// from concurrent tasks would restore each other's stacks.
public final class EnvironmentStack<Environment: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stack: [Environment]

    /// A stack whose root (never popped) is `initial`.
    public init(_ initial: Environment) {
        stack = [initial]
    }

    /// The environment on top of the stack.
    public var current: Environment {
        locked { $0[$0.count - 1] }
    }

    /// How many environments are stacked, the root included.
    public var depth: Int {
        locked { $0.count }
    }

    /// Makes `environment` current until it is popped.
    public func push(_ environment: Environment) {
        locked { $0.append(environment) }
    }

    /// Pushes a copy of the current environment changed by `update`.
    public func push(modifying update: (inout Environment) -> Void) {
        var copy = current
        update(&copy)
        push(copy)
    }

    /// Removes the current environment and returns it. The root is never
    /// popped: with only the root left this returns `nil` and changes nothing.
    @discardableResult
    public func pop() -> Environment? {
        locked { stack in stack.count > 1 ? stack.removeLast() : nil }
    }

    /// Replaces the environment on top of the stack (the root, if nothing is pushed).
    public func replaceCurrent(with environment: Environment) {
        locked { $0[$0.count - 1] = environment }
    }

    /// Runs `body` with `environment` current, then restores the stack exactly
    /// as it was, even when `body` throws or left extra environments pushed.
    @discardableResult
    public func withEnvironment<Result>(_ environment: Environment, body: () throws -> Result) rethrows -> Result {
        let saved = locked { stack -> [Environment] in
            defer { stack.append(environment) }
            return stack
        }
        defer { locked { $0 = saved } }
        return try body()
    }

    /// Async form of ``withEnvironment(_:body:)``.
    @discardableResult
    public func withEnvironment<Result>(
        _ environment: Environment, isolation: isolated (any Actor)? = #isolation, body: () async throws -> Result
    ) async rethrows -> Result {
        let saved = locked { stack -> [Environment] in
            defer { stack.append(environment) }
            return stack
        }
        defer { locked { $0 = saved } }
        return try await body()
    }

    /// Runs `body` with a copy of the current environment changed by `update`.
    @discardableResult
    public func withEnvironment<Result>(
        modifying update: (inout Environment) -> Void, body: () throws -> Result
    ) rethrows -> Result {
        var copy = current
        update(&copy)
        return try withEnvironment(copy, body: body)
    }

    /// Async form of ``withEnvironment(modifying:body:)``.
    @discardableResult
    public func withEnvironment<Result>(
        modifying update: (inout Environment) -> Void, isolation: isolated (any Actor)? = #isolation,
        body: () async throws -> Result
    ) async rethrows -> Result {
        var copy = current
        update(&copy)
        return try await withEnvironment(copy, body: body)
    }

    private func locked<Result>(_ body: (inout [Environment]) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stack)
    }
}
