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

    private(set) var hooks: [Hook] = []

    init(
        kind: Kind, title: String, narrative: String? = nil, tags: [String], parent: SpecGroup?,
        pendingReason: String?, site: CallSite, featureIndex: Int
    ) {
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
