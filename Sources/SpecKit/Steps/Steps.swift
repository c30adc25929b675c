/// Steps run inline, in order, on the main actor. A step that fails (an
/// expectation, an XCTest assertion from a helper, or a thrown error) marks
/// itself failed, and every later step of the scenario is recorded as skipped
/// without running. Failure messages start with the step: `[Then …] expected …`.
///
/// In an `async` scenario, steps are awaited: `await When("…") { await vm.load() }`.
///
/// Every async twin (steps, scenarios, hooks) is `@_disfavoredOverload`: a block without `await`
/// matches the sync form, and the type checker stops there instead of also checking the block
/// against the async form; a block with `await` cannot match the sync form and takes the async
/// one, as before. Which form a spec gets is unchanged (issue 23: spec compile time).

/// Puts the system in a known state: `Given("a signed-out reader") { … }`.
@MainActor
public func Given(
    _ text: String, file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    StepRunner.run("Given", text, CallSite(file: file, line: line), body)
}

/// Async form of ``Given(_:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func Given(
    _ text: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () async throws -> Void
) async {
    await StepRunner.run("Given", text, CallSite(file: file, line: line), body)
}

/// Performs the action under test: `When("the reader taps Login") { vm.inputs.loginTapped() }`.
@MainActor
public func When(
    _ text: String, file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    StepRunner.run("When", text, CallSite(file: file, line: line), body)
}

/// Async form of ``When(_:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func When(
    _ text: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () async throws -> Void
) async {
    await StepRunner.run("When", text, CallSite(file: file, line: line), body)
}

/// Checks an outcome: `Then("the login button is enabled") { expect(enabled.lastValue).to(beTrue()) }`.
@MainActor
public func Then(
    _ text: String, file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    StepRunner.run("Then", text, CallSite(file: file, line: line), body)
}

/// Async form of ``Then(_:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func Then(
    _ text: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () async throws -> Void
) async {
    await StepRunner.run("Then", text, CallSite(file: file, line: line), body)
}

/// Continues the previous `Given`, `When` or `Then`.
@MainActor
public func And(
    _ text: String, file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    StepRunner.run("And", text, CallSite(file: file, line: line), body)
}

/// Async form of ``And(_:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func And(
    _ text: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () async throws -> Void
) async {
    await StepRunner.run("And", text, CallSite(file: file, line: line), body)
}

/// A contrasting continuation of the previous step.
@MainActor
public func But(
    _ text: String, file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    StepRunner.run("But", text, CallSite(file: file, line: line), body)
}

/// Async form of ``But(_:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func But(
    _ text: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () async throws -> Void
) async {
    await StepRunner.run("But", text, CallSite(file: file, line: line), body)
}
