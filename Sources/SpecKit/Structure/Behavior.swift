/// A shared behaviour (Quick's `Behavior<Context>`): scenarios written once and declared in every
/// group that should behave that way, each time with its own context.
///
/// ```swift
/// final class RefreshableBehavior: Behavior<any Refreshable> {
///     override class var name: String { "a refreshable screen" }
///     override class func spec(_ subject: @escaping () -> any Refreshable) {
///         it("shows a spinner while refreshing") {
///             let screen = subject()
///             screen.refresh()
///             expect(screen.isRefreshing).to(beTrue())
///         }
///     }
/// }
///
/// describe("the stories screen") {
///     itBehavesLike(RefreshableBehavior.self) { StoriesViewModel() }
/// }
/// ```
/// The behaviour's scenarios sit in a `context` titled ``name``; the context closure is called
/// when each scenario runs, not while the test list is built.
open class Behavior<Context> {
    /// The title of the group the behaviour's scenarios are declared in; the class name by default.
    open class var name: String { String(describing: self) }

    /// Declares the shared scenarios (and hooks). Override it; `context` gives the subject.
    @MainActor
    open class func spec(_ context: @escaping () -> Context) {}
}

/// Declares a ``Behavior``'s scenarios here, in a `context` named after it.
public func itBehavesLike<Context>(
    _ behavior: Behavior<Context>.Type, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    context: @escaping () -> Context
) {
    declareBehavior(behavior, tags, CallSite(file: file, line: line), context, focused: false)
}

/// A focused ``itBehavesLike(_:tags:file:line:context:)``.
public func fitBehavesLike<Context>(
    _ behavior: Behavior<Context>.Type, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    context: @escaping () -> Context
) {
    declareBehavior(behavior, tags, CallSite(file: file, line: line), context, focused: true)
}

private func declareBehavior<Context>(
    _ behavior: Behavior<Context>.Type, _ tags: [String], _ site: CallSite, _ context: @escaping () -> Context,
    focused: Bool
) {
    let box = UncheckedSendable(context)
    declareGroup(.context, behavior.name, nil, tags, nil, site, { behavior.spec(box.value) }, focused: focused)
}

/// Quick's string-named shared examples: declare them once per spec process (in any Feature body,
/// before use), then `itBehavesLike("a list", context: { ["items": items] })`.
public func sharedExamples(
    _ name: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @MainActor (_ context: @escaping () -> [String: Any]) -> Void
) {
    onMainActor {
        guard SpecCollector.active != nil else {
            return DeclarationMisuse.report("sharedExamples", name, CallSite(file: file, line: line))
        }
        SharedExamples.registry[name] = body
    }
}

/// Declares the shared examples registered as `name`, in a `context` with that title.
public func itBehavesLike(
    _ name: String, tags: String..., file: StaticString = #filePath, line: UInt = #line,
    context: @escaping () -> [String: Any] = { [:] }
) {
    let box = UncheckedSendable(context)
    let site = CallSite(file: file, line: line)
    declareGroup(
        .context, name, nil, tags, nil, site,
        {
            guard let examples = SharedExamples.registry[name] else {
                let known = SharedExamples.registry.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                SpecCollector.active?.addProblem(
                    "itBehavesLike(\"\(name)\"): no sharedExamples named \"\(name)\" were declared before it "
                        + "(known: \(known.isEmpty ? "none" : known))",
                    title: "\(name) (unknown shared examples)", site: site)
                return
            }
            examples(box.value)
        })
}

@MainActor
enum SharedExamples {
    static var registry: [String: @MainActor (@escaping () -> [String: Any]) -> Void] = [:]
}
