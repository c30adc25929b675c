/// Records what a spec declares while its `testFeature()` runs in collect mode.
///
/// Collection happens on the main thread while XCTest builds its test list
/// (`swift test list` included), so it must have no side effects beyond memory.
@MainActor
final class SpecCollector {
    /// The collector of the spec class being expanded, if any.
    static var active: SpecCollector?

    let specName: String
    private(set) var scenarios: [ScenarioDefinition] = []
    private var stack: [SpecGroup] = []
    private var featureCount = 0
    /// The feature at the bottom of `stack` came from `Feature("…")` without a body.
    private var featureOpenWithoutBody = false

    init(specName: String) {
        self.specName = specName
    }

    var currentGroup: SpecGroup? { stack.last }

    // MARK: Groups

    func declareGroup(
        kind: SpecGroup.Kind, title: String, narrative: String? = nil, tags: [String],
        pendingReason: String?, site: CallSite, focused: Bool = false, keepOpen: Bool = false,
        body: @MainActor () throws -> Void
    ) {
        guard
            let group = openGroup(
                kind: kind, title: title, narrative: narrative, tags: tags, pendingReason: pendingReason,
                site: site, focused: focused)
        else { return }
        stack.append(group)
        if keepOpen {
            // `Feature("…")` without a body: the declarations after it join it, up to the next
            // `Feature` or the end of `testFeature()` (the collector, and its stack, end there).
            featureOpenWithoutBody = true
            return
        }
        defer { stack.removeLast() }
        do {
            try body()
        } catch {
            addProblem(
                "declaring \(group.kind.rawValue) \"\(title)\" threw \(ErrorText.describe(error))",
                title: title + " (declaration failed)", site: site)
        }
    }

    /// The group a declaration opens, or nil (with a problem recorded) where it may not open.
    private func openGroup(
        kind: SpecGroup.Kind, title: String, narrative: String?, tags: [String], pendingReason: String?,
        site: CallSite, focused: Bool
    ) -> SpecGroup? {
        if kind == .feature, featureOpenWithoutBody, stack.count == 1 {
            // A new top-level Feature ends the one opened without a body.
            stack.removeAll()
            featureOpenWithoutBody = false
        }
        let parent = stack.last
        if let parent, kind == .feature {
            addProblem(
                "Feature \"\(title)\" is declared inside \"\(parent.title)\"; declare one Feature per "
                    + "testFeature() body and use Rule, describe or context inside it",
                title: title, site: site)
            return nil
        }
        let featureIndex: Int
        if let parent {
            featureIndex = parent.featureIndex
        } else {
            featureIndex = featureCount
            featureCount += 1
        }
        // A top-level describe/context/Rule acts as the feature.
        return SpecGroup(
            kind: parent == nil ? .feature : kind, title: title, narrative: narrative, tags: Tags.normalize(tags),
            parent: parent, pendingReason: pendingReason, site: site, featureIndex: featureIndex, focused: focused)
    }

    // MARK: Hooks

    func declareHook(_ kind: Hook.Kind, body: SpecBody, site: CallSite) {
        guard let group = stack.last else {
            addProblem("\(kind.rawValue) must be declared inside a Feature", title: kind.rawValue, site: site)
            return
        }
        group.add(Hook(kind: kind, body: body, site: site))
    }

    func declareAround(_ around: AroundHook) {
        guard let group = stack.last else {
            addProblem("aroundEach must be declared inside a Feature", title: "aroundEach", site: around.site)
            return
        }
        group.add(around)
    }

    // MARK: Scenarios

    func declareScenario(
        keyword: String, title: String, tags: [String], pendingReason: String?, body: SpecBody?,
        site: CallSite, focused: Bool = false
    ) {
        guard let group = stack.last else {
            addProblem("\(keyword) \"\(title)\" must be declared inside a Feature", title: title, site: site)
            return
        }
        scenarios.append(
            ScenarioDefinition(
                keyword: keyword, group: group, title: title, tags: Tags.normalize(tags), body: body,
                pendingReason: pendingReason, site: site, ordinal: scenarios.count, focused: focused))
    }

    func declareOutline<Example>(
        title: String, tags: [String], pendingReason: String?, examples: [Example], site: CallSite,
        makeBody: @escaping (Example) -> SpecBody
    ) {
        guard let group = stack.last else {
            addProblem("ScenarioOutline \"\(title)\" must be declared inside a Feature", title: title, site: site)
            return
        }
        if examples.isEmpty {
            addProblem(
                "ScenarioOutline \"\(title)\" has no examples; give it at least one row",
                title: title, site: site)
            return
        }
        let placeholders = OutlineTitle.placeholders(in: title)
        for (index, row) in examples.enumerated() {
            let fields = OutlineTitle.fields(of: row)
            let filled = OutlineTitle.fill(title, with: fields)
            var problem: String?
            if !filled.missing.isEmpty {
                let known = fields.map(\.name).joined(separator: ", ")
                problem =
                    "ScenarioOutline \"\(title)\": example \(index + 1) has no field named "
                    + filled.missing.map { "<\($0)>" }.joined(separator: ", ")
                    + " (its fields: \(known.isEmpty ? "none" : known))"
            }
            let rowTitle = placeholders.isEmpty ? "\(title) (example \(index + 1))" : filled.text
            scenarios.append(
                ScenarioDefinition(
                    keyword: "Example", group: group, title: rowTitle, tags: Tags.normalize(tags),
                    body: problem == nil ? makeBody(row) : nil, pendingReason: pendingReason,
                    problem: problem, example: fields, site: site, ordinal: scenarios.count))
        }
    }

    /// A declaration mistake becomes a test that fails with the explanation,
    /// so it can never be silently dropped.
    func addProblem(_ message: String, title: String, site: CallSite) {
        let group =
            stack.last
            ?? SpecGroup(
                kind: .feature, title: specName, tags: [], parent: nil, pendingReason: nil, site: site,
                featureIndex: featureCount)
        scenarios.append(
            ScenarioDefinition(
                keyword: "Scenario", group: group, title: title, tags: [], body: nil, pendingReason: nil,
                problem: message, site: site, ordinal: scenarios.count))
    }
}
