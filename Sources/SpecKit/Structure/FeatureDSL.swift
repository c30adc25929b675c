/// Declares the feature a spec class describes. Call it once from
/// `testFeature()`; its body declares backgrounds, rules and scenarios.
///
/// ```swift
/// final class LoginFeature: FeatureSpec {
///     override func testFeature() {
///         Feature("Login", description: "As a reader I want to sign in", tags: "login") {
///             var vm: LoginViewModel!
///             Background { vm = LoginViewModel() }
///             Scenario("The button starts disabled") {
///                 Then("the login button is disabled") { expect(vm.isLoginEnabled).to(beFalse()) }
///             }
///         }
///     }
/// }
/// ```
/// The body runs once, while XCTest builds its test list; scenario bodies run
/// later, each as its own test.
public func Feature(
    _ title: String, description: String? = nil, tags: String..., file: StaticString = #filePath,
    line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    declareGroup(.feature, title, description, tags, nil, CallSite(file: file, line: line), body)
}

/// Declares the feature without a body, as a Gherkin file's `Feature:` line does: the scenarios,
/// backgrounds and rules declared after it in `testFeature()` belong to it, up to the next `Feature`
/// or the end of `testFeature()`.
///
/// ```swift
/// final class LoginFeature: FeatureSpec {
///     override func testFeature() {
///         Feature("Login", tags: "login")
///         var vm: LoginViewModel!
///         Background { vm = LoginViewModel() }
///         Scenario("The button starts disabled") {
///             Then("the login button is disabled") { expect(vm.isLoginEnabled).to(beFalse()) }
///         }
///     }
/// }
/// ```
/// It means the same as the closure form; it compiles faster for a long feature. Swift type-checks
/// a closure's statements together with the call that takes the closure, so a `Feature { … }` with
/// many scenarios is one expression whose checking grows with the square of its length (issue 23:
/// 20 scenarios took longer than Quick's `describe`); written this way each scenario is a statement
/// of `testFeature()` that the compiler checks on its own.
public func Feature(
    _ title: String, description: String? = nil, tags: String..., file: StaticString = #filePath,
    line: UInt = #line
) {
    declareGroup(.feature, title, description, tags, nil, CallSite(file: file, line: line), {}, keepOpen: true)
}

/// A Gherkin `Rule`: a business rule inside a feature that groups scenarios.
public func Rule(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () throws -> Void
) {
    declareGroup(.rule, title, nil, tags, nil, CallSite(file: file, line: line), body)
}

/// Groups scenarios (Quick style). At the top of `testFeature()` it declares the feature.
public func describe(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () throws -> Void
) {
    declareGroup(.describe, title, nil, tags, nil, CallSite(file: file, line: line), body)
}

/// Groups scenarios that share a situation; an alias of `describe`.
public func context(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () throws -> Void
) {
    declareGroup(.context, title, nil, tags, nil, CallSite(file: file, line: line), body)
}

/// A `describe` whose scenarios are all pending (reported as skipped with `reason`).
public func xdescribe(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    declareGroup(.describe, title, nil, tags, reason, CallSite(file: file, line: line), body)
}

/// A `context` whose scenarios are all pending (reported as skipped with `reason`).
public func xcontext(
    _ title: String, _ reason: String = "not implemented yet", tags: String...,
    file: StaticString = #filePath, line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    declareGroup(.context, title, nil, tags, reason, CallSite(file: file, line: line), body)
}

/// A focused ``Feature(_:description:tags:file:line:_:)``: while any spec in the test process is
/// focused, only focused scenarios run (the run says so loudly), and on CI (`CI=true`) a focused
/// scenario fails unless `BDD_ALLOW_FOCUS=1`. For local debugging; never commit it.
public func fFeature(
    _ title: String, description: String? = nil, tags: String..., file: StaticString = #filePath,
    line: UInt = #line, _ body: @MainActor () throws -> Void
) {
    declareGroup(.feature, title, description, tags, nil, CallSite(file: file, line: line), body, focused: true)
}

/// A focused `describe`: only focused scenarios run. See ``fFeature(_:description:tags:file:line:_:)``.
public func fdescribe(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () throws -> Void
) {
    declareGroup(.describe, title, nil, tags, nil, CallSite(file: file, line: line), body, focused: true)
}

/// A focused `context`: only focused scenarios run. See ``fFeature(_:description:tags:file:line:_:)``.
public func fcontext(
    _ title: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor () throws -> Void
) {
    declareGroup(.context, title, nil, tags, nil, CallSite(file: file, line: line), body, focused: true)
}

func declareGroup(
    _ kind: SpecGroup.Kind, _ title: String, _ narrative: String?, _ tags: [String], _ pending: String?,
    _ site: CallSite, _ body: @MainActor () throws -> Void, focused: Bool = false, keepOpen: Bool = false
) {
    onMainActor {
        guard let collector = SpecCollector.active else {
            DeclarationMisuse.report(kind.rawValue, title, site)
            return
        }
        collector.declareGroup(
            kind: kind, title: title, narrative: narrative, tags: tags, pendingReason: pending, site: site,
            focused: focused, keepOpen: keepOpen, body: body)
    }
}
