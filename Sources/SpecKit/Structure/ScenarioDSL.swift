/// Declares a scenario: one XCTest test whose body runs `Given`/`When`/`Then` steps.
///
/// ```swift
/// Scenario("Valid credentials enable the button", tags: "smoke") {
///     When("the reader types a valid email and password") { vm.inputs.email("a@b.co"); vm.inputs.password("secret") }
///     Then("the login button is enabled") { expect(buttonEnabled.lastValue).to(beTrue()) }
/// }
/// ```
/// The test is named `<rule/describe path> - <title> @tags`.
public func Scenario(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () throws -> Void
) {
    declareScenario("Scenario", title, tags, nil, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``Scenario(_:tags:file:line:_:)``; write `await` before each step.
@_disfavoredOverload
public func Scenario(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () async throws -> Void
) {
    declareScenario("Scenario", title, tags, nil, .async(body), CallSite(file: file, line: line))
}

/// Quick-style alias of ``Scenario(_:tags:file:line:_:)``.
public func it(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () throws -> Void
) {
    declareScenario("it", title, tags, nil, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``it(_:tags:file:line:_:)``.
@_disfavoredOverload
public func it(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () async throws -> Void
) {
    declareScenario("it", title, tags, nil, .async(body), CallSite(file: file, line: line))
}

/// A focused ``Scenario(_:tags:file:line:_:)``: while any spec in the test process is focused,
/// only focused scenarios run, the run says so loudly, and on CI (`CI=true`) the focused scenario
/// fails unless `BDD_ALLOW_FOCUS=1`. For local debugging; never commit it.
public func fScenario(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () throws -> Void
) {
    declareScenario("Scenario", title, tags, nil, .sync(body), CallSite(file: file, line: line), focused: true)
}

/// Async form of ``fScenario(_:tags:file:line:_:)``.
@_disfavoredOverload
public func fScenario(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () async throws -> Void
) {
    declareScenario("Scenario", title, tags, nil, .async(body), CallSite(file: file, line: line), focused: true)
}

/// A focused `it`. See ``fScenario(_:tags:file:line:_:)``.
public func fit(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () throws -> Void
) {
    declareScenario("it", title, tags, nil, .sync(body), CallSite(file: file, line: line), focused: true)
}

/// Async form of ``fit(_:tags:file:line:_:)``.
@_disfavoredOverload
public func fit(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor () async throws -> Void
) {
    declareScenario("it", title, tags, nil, .async(body), CallSite(file: file, line: line), focused: true)
}

/// A pending scenario without a body yet: listed, never run, reported as
/// skipped with `reason` (console, living document and JUnit).
public func xScenario(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line
) {
    declareScenario("Scenario", title, tags, reason, nil, CallSite(file: file, line: line))
}

/// A scenario switched off: its body is kept but not run; reported as skipped with `reason`.
public func xScenario(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareScenario("Scenario", title, tags, reason, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``xScenario(_:_:tags:file:line:_:)``.
@_disfavoredOverload
public func xScenario(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareScenario("Scenario", title, tags, reason, .async(body), CallSite(file: file, line: line))
}

/// Pending alias of `it`.
public func xit(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line
) {
    declareScenario("it", title, tags, reason, nil, CallSite(file: file, line: line))
}

/// Pending alias of `it`, keeping the body.
public func xit(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareScenario("it", title, tags, reason, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``xit(_:_:tags:file:line:_:)``.
@_disfavoredOverload
public func xit(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareScenario("it", title, tags, reason, .async(body), CallSite(file: file, line: line))
}

/// A scenario run once per example row, each row its own XCTest test. `<name>`
/// placeholders in the title are filled from the row's labels (tuple labels,
/// struct properties or `[String: …]` keys).
///
/// ```swift
/// ScenarioOutline("<email> is <verdict>", examples: [
///     (email: "a@b.co", verdict: "accepted", valid: true),
///     (email: "nope", verdict: "rejected", valid: false),
/// ]) { row in
///     When("the reader types \(row.email)") { vm.inputs.email(row.email) }
///     Then("the address is \(row.verdict)") { expect(valid.lastValue).to(equal(row.valid)) }
/// }
/// ```
public func ScenarioOutline<Example>(
    _ title: String, tags: String..., examples: [Example], file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor (Example) throws -> Void
) {
    declareOutline(title, tags, examples, CallSite(file: file, line: line)) { row in
        let row = UncheckedSendable(row)
        return .sync({ try body(row.value) })
    }
}

/// Async form of ``ScenarioOutline(_:tags:examples:file:line:_:)``.
@_disfavoredOverload
public func ScenarioOutline<Example>(
    _ title: String, tags: String..., examples: [Example], file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor (Example) async throws -> Void
) {
    declareOutline(title, tags, examples, CallSite(file: file, line: line)) { row in
        let row = UncheckedSendable(row)
        return .async({ try await body(row.value) })
    }
}

private func declareScenario(
    _ keyword: String, _ title: String, _ tags: [String], _ pending: String?, _ body: SpecBody?, _ site: CallSite,
    focused: Bool = false
) {
    onMainActor {
        guard let collector = SpecCollector.active else {
            DeclarationMisuse.report(keyword, title, site)
            return
        }
        collector.declareScenario(
            keyword: keyword, title: title, tags: tags, pendingReason: pending, body: body, site: site,
            focused: focused)
    }
}

private func declareOutline<Example>(
    _ title: String, _ tags: [String], _ examples: [Example], _ site: CallSite,
    _ makeBody: @escaping (Example) -> SpecBody
) {
    let box = UncheckedSendable((examples, makeBody))
    onMainActor {
        guard let collector = SpecCollector.active else {
            DeclarationMisuse.report("ScenarioOutline", title, site)
            return
        }
        collector.declareOutline(
            title: title, tags: tags, pendingReason: nil, examples: box.value.0, site: site,
            makeBody: box.value.1)
    }
}
