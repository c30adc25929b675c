/// A `Feature`, `Rule`, `describe` or `context` block and the hooks declared in it.
///
/// Built on the main thread while XCTest's test list is being made, then only
/// read, so the unchecked `Sendable` is honest.
final class SpecGroup: @unchecked Sendable {
    enum Kind: String, Codable, Sendable {
        case feature = "Feature"
        case rule = "Rule"
        case describe
        case context
    }

    let kind: Kind
    let title: String
    let narrative: String?
    let ownTags: [String]
    let parent: SpecGroup?
    let pendingReason: String?
    let site: CallSite
    /// Position of the enclosing feature among the spec class's features.
    let featureIndex: Int
    /// Declared with `fFeature`, `fdescribe` or `fcontext`, or inside one.
    let focused: Bool

    private(set) var hooks: [Hook] = []
    /// `aroundEach` blocks, outermost (first declared) first.
    private(set) var arounds: [AroundHook] = []

    init(
        kind: Kind, title: String, narrative: String? = nil, tags: [String], parent: SpecGroup?,
        pendingReason: String?, site: CallSite, featureIndex: Int, focused: Bool = false
    ) {
        self.focused = focused || (parent?.focused ?? false)
        self.kind = kind
        self.title = title
        self.narrative = narrative
        self.ownTags = tags
        self.parent = parent
        self.pendingReason = pendingReason ?? parent?.pendingReason
        self.site = site
        self.featureIndex = featureIndex
    }

    func add(_ hook: Hook) {
        hooks.append(hook)
    }

    func add(_ around: AroundHook) {
        arounds.append(around)
    }

    /// `Background` and `beforeEach` of this group, in declaration order.
    var befores: [Hook] { hooks.filter { $0.kind == .background || $0.kind == .beforeEach } }

    var afters: [Hook] { hooks.filter { $0.kind == .afterEach } }

    var hasAsyncHooks: Bool { hooks.contains { $0.body.isAsync } || arounds.contains { $0.isAsync } }

    /// Outermost group first.
    var chain: [SpecGroup] {
        var groups: [SpecGroup] = []
        var node: SpecGroup? = self
        while let group = node {
            groups.append(group)
            node = group.parent
        }
        return groups.reversed()
    }

    var feature: SpecGroup { chain[0] }

    /// Tags of this group and every enclosing one, outermost first, without repeats.
    var effectiveTags: [String] {
        Tags.merge(chain.map(\.ownTags))
    }
}

/// A `Background`, `beforeEach`, `justBeforeEach` or `afterEach` block.
struct Hook {
    enum Kind: String, Sendable {
        case background = "Background"
        case beforeEach
        case justBeforeEach
        case afterEach
    }

    let kind: Kind
    let body: SpecBody
    let site: CallSite
}

/// An `aroundEach` block: it receives the rest of the scenario (inner hooks, the body and the
/// `afterEach` blocks of its group) as a closure to call once.
struct AroundHook {
    enum Body {
        case sync(@MainActor (_ run: () -> Void) throws -> Void)
        case async(@MainActor (_ run: () async -> Void) async throws -> Void)
    }

    let body: Body
    let site: CallSite

    var isAsync: Bool {
        if case .async = body { return true }
        return false
    }
}
