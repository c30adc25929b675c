/// A stub ready to serve: its conditions (cheapest first), the key the route index files it
/// under, and its response plan.
final class CompiledStub: Sendable {
    let reference: StubReference
    let summary: String?
    let conditions: [RequestCondition]
    /// The conditions the route index does not prove when it offers this stub (it proves an
    /// exact `uri` and a literal `method`).
    let residualConditions: ArraySlice<RequestCondition>
    let routeKey: RouteKey
    /// `residualConditions` as unretained references, read on the hot path without touching
    /// the reference counts that every event-loop thread would otherwise contend for (the
    /// `conditions` array keeps the objects alive).
    private let residualReferences: UnmanagedList<RequestCondition>
    let isCatchAll: Bool
    /// The `uri` `path` pattern whose captures templates read as `req.path.name`.
    let pathPattern: AntPathPattern?
    let plan: ResponsePlan
    /// The stateful scenario this stub takes part in, and where its states live.
    let scenario: StubScenario?
    let scenarioStates: ScenarioStates?

    init(
        reference: StubReference, summary: String?, conditions: [RequestCondition], isCatchAll: Bool,
        pathPattern: AntPathPattern?, plan: ResponsePlan, scenario: StubScenario? = nil, scenarioStates: ScenarioStates? = nil
    ) {
        self.scenario = scenario
        self.scenarioStates = scenarioStates
        self.reference = reference
        self.summary = summary
        // Stable insertion sort (a stub has a handful of conditions): equal costs keep the
        // order they were written in.
        var sorted = conditions
        if !conditions.indices.dropFirst().allSatisfy({ conditions[$0 - 1].cost <= conditions[$0].cost }) {
            for index in 1..<sorted.count {
                let condition = sorted[index]
                let cost = condition.cost
                var slot = index
                while slot > 0, sorted[slot - 1].cost > cost {
                    sorted[slot] = sorted[slot - 1]
                    slot -= 1
                }
                sorted[slot] = condition
            }
        }
        self.conditions = sorted
        let key = isCatchAll ? RouteKey.unkeyed : RouteKey(conditions: sorted)
        routeKey = key
        // The implied conditions are the cheapest, so usually the first ones: then the rest is
        // a slice of the same storage.
        var leading = 0
        while leading < sorted.count, key.implies(leading) { leading += 1 }
        if sorted[leading...].indices.contains(where: key.implies) {
            residualConditions = ArraySlice(sorted.indices.filter { !key.implies($0) }.map { sorted[$0] })
        } else {
            residualConditions = sorted[leading...]
        }
        // Evaluated cheapest first; which stub matches does not depend on the order.
        let residual = residualConditions
        if residual.indices.dropFirst().allSatisfy({ residual[$0 - 1].evaluationCost <= residual[$0].evaluationCost }) {
            residualReferences = UnmanagedList(residual)
        } else {
            residualReferences = UnmanagedList(
                residual.enumerated().sorted {
                    ($0.element.evaluationCost, $0.offset) < ($1.element.evaluationCost, $1.offset)
                }.map(\.element))
        }
        self.isCatchAll = isCatchAll
        self.pathPattern = pathPattern
        self.plan = plan
    }

    deinit { residualReferences.free() }

    /// Every condition holds (what a top-to-bottom scan asks).
    @inline(__always)
    func matches(_ view: RequestView) -> Bool {
        for condition in conditions where !condition.matches(view) { return false }
        return true
    }

    /// The conditions the route index left to check hold.
    @inline(__always)
    func matchesResidual(_ view: RequestView) -> Bool {
        for condition in residualReferences.buffer where !condition._withUnsafeGuaranteedRef({ $0.matches(view) }) { return false }
        return true
    }

    /// The stub's `cors` policy when it would serve the method `preflight` asks about at the
    /// preflight's URI (conditions a preflight cannot carry, such as headers and body, are left out).
    func corsPolicy(answering preflight: CORSPreflight, _ view: RequestView) -> CORSPolicy? {
        guard let policy = plan.corsPolicy else { return nil }
        for condition in conditions where condition.appliesToPreflight {
            if case .method(let predicate) = condition.test {
                if !predicate.matches(preflight.requestedMethod) { return nil }
            } else if !condition.matches(view) {
                return nil
            }
        }
        return policy
    }

    func reply(_ view: RequestView) -> HTTPReply {
        if let scenario, let next = scenario.next, let scenarioStates {
            scenarioStates.transition(scenario.name, from: scenario.requires, to: next)
        }
        return plan.reply(TemplateContext(view: view, pathVariables: pathPattern.flatMap { $0.match(view.path) }))
    }
}

/// Unretained references to objects that something else keeps alive, in a buffer read
/// without reference counting (immutable once made; the owner calls `free` in its `deinit`).
struct UnmanagedList<Object: AnyObject>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Unmanaged<Object>>

    init(_ objects: some Collection<Object>) {
        buffer = .allocate(capacity: objects.count)
        _ = buffer.initialize(from: objects.lazy.map { Unmanaged.passUnretained($0) })
    }

    func free() { buffer.deallocate() }
}
