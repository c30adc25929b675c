/// One scenario (or one row of a scenario outline) as collected from a spec:
/// it becomes exactly one XCTest test.
final class ScenarioDefinition: @unchecked Sendable {
    /// "Scenario", "Example" (an outline row) or "it".
    let keyword: String
    let group: SpecGroup
    /// The title with outline placeholders filled in.
    let title: String
    let ownTags: [String]
    let tags: [String]
    let body: SpecBody?
    let pendingReason: String?
    /// A declaration mistake found while collecting; the test fails with it.
    var problem: String?
    /// The outline row, as (column, value) pairs, for the living document.
    let example: [ExampleField]?
    let site: CallSite
    /// Declaration order within the spec class.
    let ordinal: Int
    /// The XCTest test name, assigned once every scenario of the class is known.
    var testName: String = ""
    /// Declared with `fit`/`fScenario`, or inside a focused group.
    let focused: Bool

    init(
        keyword: String, group: SpecGroup, title: String, tags: [String], body: SpecBody?,
        pendingReason: String?, problem: String? = nil, example: [ExampleField]? = nil,
        site: CallSite, ordinal: Int, focused: Bool = false
    ) {
        self.focused = focused || group.focused
        self.keyword = keyword
        self.group = group
        self.title = title
        self.ownTags = tags
        self.tags = Tags.merge([group.effectiveTags, tags])
        self.body = body
        self.pendingReason = pendingReason ?? group.pendingReason
        self.problem = problem
        self.example = example
        self.site = site
        self.ordinal = ordinal
    }

    /// Every hook that applies, grouped the way they run.
    var befores: [Hook] { hooks(of: [.background, .beforeEach], in: group.chain) }

    var justBefores: [Hook] { hooks(of: [.justBeforeEach], in: group.chain) }

    /// Innermost group first.
    var afters: [Hook] { hooks(of: [.afterEach], in: group.chain.reversed()) }

    /// A loop rather than `flatMap { $0.hooks.filter { $0.kind == … } }`: those nested closures
    /// with `==` against an implicit member were among SpecKit's slowest expressions to type-check.
    private func hooks(of kinds: [Hook.Kind], in groups: some Sequence<SpecGroup>) -> [Hook] {
        var result: [Hook] = []
        for group in groups {
            for hook in group.hooks where kinds.contains(hook.kind) { result.append(hook) }
        }
        return result
    }

    var needsAsync: Bool {
        (body?.isAsync ?? false) || group.chain.contains { $0.hasAsyncHooks }
    }

    /// A row of a `ScenarioOutline`.
    var isOutlineRow: Bool { keyword == "Example" }

    /// Context path below the feature: rule, describe and context titles.
    var contextPath: [String] {
        group.chain.dropFirst().map(\.title)
    }
}
