/// Gherkin's `Background`: runs before every scenario of the enclosing group,
/// after the backgrounds of outer groups. Steps inside it are reported as
/// background steps of each scenario.
public func Background(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () throws -> Void
) {
    declareHook(.background, .sync(body), CallSite(file: file, line: line))
}

/// Async form of ``Background(file:line:_:)``.
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
public func afterEach(
    file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> Void
) {
    declareHook(.afterEach, .async(body), CallSite(file: file, line: line))
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
