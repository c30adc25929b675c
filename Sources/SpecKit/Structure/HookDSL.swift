/// Gherkin's `Background`: runs before every scenario of the enclosing group,
/// after the backgrounds of outer groups. Steps inside it are reported as
/// background steps of each scenario.
public func Background(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareHook(.background, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``Background(file:line:_:)``.
@_disfavoredOverload
public func Background(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareHook(.background, .async(body), CallSite(file: file, line: line))
}

/// Runs before every scenario of the enclosing group (outer groups first).
public func beforeEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareHook(.beforeEach, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``beforeEach(file:line:_:)``.
@_disfavoredOverload
public func beforeEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareHook(.beforeEach, .async(body), CallSite(file: file, line: line))
}

/// Runs after every `Background`/`beforeEach` of all enclosing groups and right
/// before the scenario body: configure in `beforeEach`, then call
/// `vm.inputs.viewDidLoad()` once here.
public func justBeforeEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareHook(.justBeforeEach, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``justBeforeEach(file:line:_:)``.
@_disfavoredOverload
public func justBeforeEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareHook(.justBeforeEach, .async(body), CallSite(file: file, line: line))
}

/// Runs after every scenario of the enclosing group, even a failed one;
/// inner groups' `afterEach` run before outer ones.
public func afterEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareHook(.afterEach, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``afterEach(file:line:_:)``.
@_disfavoredOverload
public func afterEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareHook(.afterEach, .async(body), CallSite(file: file, line: line))
}

/// Wraps every scenario of the enclosing group: code before `run()` runs before the group's
/// `beforeEach` blocks, code after it after the group's `afterEach` blocks. Outer groups' blocks
/// wrap inner ones; several in one group nest in declaration order. Call `run()` exactly once.
///
/// ```swift
/// aroundEach { run in
///     let previous = FeatureFlags.current
///     FeatureFlags.current = .beta
///     run()
///     FeatureFlags.current = previous
/// }
/// ```
/// An async scenario needs the async form (`aroundEach { run async in … await run() … }`).
public func aroundEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor (_ run: () -> Void) throws -> Void
) {
    declareAround(AroundHook(body: .sync(body), site: CallSite(file: file, line: line)))
}

/// Async form of ``aroundEach(file:line:_:)``: `aroundEach { run async in await withServer { await run() } }`.
public func aroundEach(
    file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor (_ run: () async -> Void) async throws -> Void
) {
    declareAround(AroundHook(body: .async(body), site: CallSite(file: file, line: line)))
}

/// Runs once per test process, before the first scenario that runs (in any spec class):
/// start a shared server, set ``PollingDefaults``. If it fails, every scenario fails with its message.
public func beforeSuite(file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void) {
    declareSuiteHook(.before, body, CallSite(file: file, line: line))
}

/// Runs once per test process, after the last test, if a scenario ran. A failure is printed as
/// `file:line: error: afterSuite: …` and makes the test process exit with status 1.
public func afterSuite(file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void) {
    declareSuiteHook(.after, body, CallSite(file: file, line: line))
}

private func declareSuiteHook(_ kind: SuiteHooks.Kind, _ body: @escaping @MainActor () throws -> Void, _ site: CallSite) {
    onMainActor {
        guard SpecCollector.active != nil else {
            DeclarationMisuse.report(kind == .before ? "beforeSuite" : "afterSuite", "", site)
            return
        }
        SuiteHooks.register(kind, body, site)
    }
}

private func declareAround(_ around: AroundHook) {
    let box = UncheckedSendable(around)
    onMainActor {
        guard let collector = SpecCollector.active else {
            DeclarationMisuse.report("aroundEach", "", box.value.site)
            return
        }
        collector.declareAround(box.value)
    }
}

private func declareHook(_ kind: Hook.Kind, _ body: SpecBody, _ site: CallSite) {
    onMainActor {
        guard let collector = SpecCollector.active else {
            DeclarationMisuse.report(kind.rawValue, "", site)
            return
        }
        collector.declareHook(kind, body: body, site: site)
    }
}
