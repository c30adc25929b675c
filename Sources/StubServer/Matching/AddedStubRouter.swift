import Foundation

/// The stubs added at run time (`POST /__admin/stubs`, `StubServer.addStubs`), newest first,
/// changed in place: adding or removing a session compiles or drops that session's stubs and
/// updates an `IncrementalRouteIndex`; no other stub is touched. So every other added stub
/// keeps its `seq`/`cycle` position and its `record`/`replay` runtime across adds and removes
/// (a rebuild used to start them all over), and one change costs the same with 100,000 added
/// stubs as with one. Scenario states live in the server's `ScenarioStates` and hit counts in
/// its `StubHitCounter`, neither of which a change touches.
///
/// Order: the newest session first; within a session (a REST resource is several stubs) its
/// own order; catch-alls after every stub. Exactly what a `Router` built from the sessions,
/// newest first, answers (the property tests compare the two).
///
/// Lookups run under a read lock, changes under the write lock: requests on every event loop
/// route at once, and a change waits for the lookups in flight.
final class AddedStubRouter: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private let options: RouterOptions
    /// Recordings and saved exchanges the added stubs share.
    let runtime = StubRuntime()

    /// One added session: its definition and the numbers of its stubs (index numbers, or
    /// catch-all numbers).
    private struct Session {
        var definition: StubDefinition
        var numbers: [Int32]
        var catchAllNumbers: [Int32]
        var hasConditions: Bool
    }

    // Guarded by `lock`.
    private var index = IncrementalRouteIndex()
    /// By index number; nil once removed.
    private var stubs: [CompiledStub?] = []
    /// The stubs' near-miss bounds, numbered as `index` numbers them.
    private var nearMissIndex = NearMissIndex(newestFirst: true)
    /// Catch-alls by number, ascending: tried from the last.
    private var catchAlls: [(number: Int32, stub: CompiledStub)] = []
    private var nextCatchAllNumber: Int32 = 0
    /// By the id's number (`admin-3` → 3).
    private var sessions: [Int: Session] = [:]
    private var liveStubs = 0
    private var scenarioUses: [String: Int] = [:]
    private var scenarioOrder: [String] = []
    private var webSocketSession: Int?
    private var comparedSessionCount = 0

    init(options: RouterOptions) {
        self.options = options
    }

    // MARK: - Changes

    /// Compiles `definitions` (each with its `.added(n)` reference, `n` above every earlier
    /// one) and puts them before every stub added so far, the last first. Throws a
    /// `ConfigError` and adds nothing when one does not compile.
    func add(_ definitions: [StubDefinition]) throws {
        var problems: [ConfigDiagnostic] = []
        var compiled: [[CompiledStub]] = []
        for definition in definitions {
            let (stubs, diagnostics) = Router.compile([definition], runtime: runtime, options: options)
            compiled.append(stubs)
            problems += diagnostics
        }
        problems += Router.webSocketEndpointProblems(definitions)
        lock.writing {
            if let existing = webSocketSession, let clash = definitions.first(where: { $0.response.map { $0.websocket != nil } ?? false }),
                let reference = clash.reference
            {
                problems.append(
                    ConfigDiagnostic(
                        file: reference.file, path: "[\(reference.index)].websocket",
                        message: "a server has one websocket endpoint and \(StubReference.added(existing)) already declares it"))
            }
        }
        guard problems.isEmpty else { throw ConfigError(problems) }
        lock.writing {
            for (definition, stubs) in zip(definitions, compiled) {
                let number = definition.reference?.index ?? 0
                var session = Session(definition: definition, numbers: [], catchAllNumbers: [], hasConditions: false)
                // Numbers ascend against the order tried: a session's first stub gets its highest.
                for stub in stubs.reversed() {
                    if stub.isCatchAll {
                        catchAlls.append((nextCatchAllNumber, stub))
                        session.catchAllNumbers.append(nextCatchAllNumber)
                        nextCatchAllNumber += 1
                    } else {
                        session.numbers.append(file(stub))
                        if !stub.conditions.isEmpty { session.hasConditions = true }
                    }
                }
                if session.hasConditions { comparedSessionCount += 1 }
                if let name = definition.scenario?.name {
                    if scenarioUses[name, default: 0] == 0 { scenarioOrder.insert(name, at: 0) }
                    scenarioUses[name, default: 0] += 1
                }
                if definition.response.map({ $0.websocket != nil }) ?? false { webSocketSession = number }
                sessions[number] = session
            }
        }
    }

    private func file(_ stub: CompiledStub) -> Int32 {
        let number = index.insert(stub.routeKey, hasResidualConditions: !stub.residualConditions.isEmpty)
        stubs.append(stub)
        nearMissIndex.insert(NearMissHint(stub))
        liveStubs += 1
        return number
    }

    /// Removes the session `admin-<number>`; false when there is none.
    func remove(_ number: Int) -> Bool {
        lock.writing {
            guard let session = sessions.removeValue(forKey: number) else { return false }
            for stubNumber in session.numbers {
                guard let stub = stubs[Int(stubNumber)] else { continue }
                index.remove(stubNumber, key: stub.routeKey)
                stubs[Int(stubNumber)] = nil
                nearMissIndex.remove(stubNumber)
                liveStubs -= 1
            }
            for catchAll in session.catchAllNumbers {
                if let position = catchAlls.firstIndex(where: { $0.number == catchAll }) { catchAlls.remove(at: position) }
            }
            if session.hasConditions { comparedSessionCount -= 1 }
            if let name = session.definition.scenario?.name {
                scenarioUses[name, default: 1] -= 1
                if scenarioUses[name] == 0 {
                    scenarioUses[name] = nil
                    scenarioOrder.removeAll { $0 == name }
                }
            }
            if webSocketSession == number { webSocketSession = nil }
            compactIfSparse()
            return true
        }
    }

    /// Drops every added session.
    func removeAll() {
        lock.writing {
            index = IncrementalRouteIndex()
            stubs = []
            nearMissIndex = NearMissIndex(newestFirst: true)
            catchAlls = []
            sessions = [:]
            liveStubs = 0
            scenarioUses = [:]
            scenarioOrder = []
            webSocketSession = nil
            comparedSessionCount = 0
        }
    }

    /// Once removed stubs outnumber live ones (and a thousand), files the live ones again in a
    /// fresh index under new numbers, in the same order: lookups then skip no more removed
    /// entries than there are live ones, and the cost is amortized over those removals. The
    /// stubs themselves (and their state) are kept.
    private func compactIfSparse() {
        guard index.removedCount > max(1024, liveStubs) else { return }
        var renumbered = [Int32](repeating: -1, count: stubs.count)
        let old = stubs
        index = IncrementalRouteIndex()
        stubs = []
        nearMissIndex = NearMissIndex(newestFirst: true)
        liveStubs = 0
        for (number, stub) in old.enumerated() {
            if let stub { renumbered[number] = file(stub) }
        }
        for key in sessions.keys { sessions[key]!.numbers = sessions[key]!.numbers.map { renumbered[Int($0)] } }
    }

    // MARK: - Reading

    /// Runs `body` with lookups on this router allowed (a change waits until it returns).
    func reading<T>(_ body: () throws -> T) rethrows -> T {
        try lock.reading(body)
    }

    /// The added sessions' definitions, newest first.
    var definitions: [StubDefinition] {
        lock.reading { sessions.keys.sorted(by: >).map { sessions[$0]!.definition } }
    }

    /// Added sessions.
    var sessionCount: Int { lock.reading { sessions.count } }

    /// Every scenario an added session mentions, newest first.
    var scenarioNames: [String] { lock.reading { scenarioOrder } }

    /// The stub that would answer `request` (no `seq` advance).
    func stub(matching request: HTTPRequest) -> StubReference? {
        lock.reading {
            let view = RequestView(request)
            if let stub = firstNonCatchAll(view) { return stub.reference }
            if let preflight = CORSPreflight(view), let (stub, _) = firstCORSStub(answering: preflight, view) { return stub.reference }
            return firstCatchAll(view)?.reference
        }
    }

    /// Routes through the added stubs alone.
    func route(_ request: HTTPRequest) -> RouteResult {
        lock.reading { Router.route(request, first: self, then: nil) }
    }

    /// The same answer as `stub(matching:)` by trying every stub in order, newest first: the
    /// specification the incremental index must agree with.
    func stubByLinearScan(matching request: HTTPRequest) -> StubReference? {
        lock.reading {
            let view = RequestView(request)
            let live = stubs.reversed().compactMap { $0 }
            for stub in live where stub.matches(view) { return stub.reference }
            if let preflight = CORSPreflight(view) {
                for stub in live where stub.corsPolicy(answering: preflight, view) != nil { return stub.reference }
            }
            return firstCatchAll(view)?.reference
        }
    }
}

// MARK: - Routing (called under the read lock)

extension AddedStubRouter: RoutingStage {
    func firstNonCatchAll(_ view: RequestView) -> CompiledStub? {
        index.firstMatch(path: view.path, method: view.method, check: ResidualCheck(stubs: stubs, view: view)).map { stubs[$0]! }
    }

    func firstCORSStub(answering preflight: CORSPreflight, _ view: RequestView) -> (CompiledStub, CORSPolicy)? {
        let check = PreflightCheck(stubs: stubs, view: view, preflight: preflight)
        guard let number = index.firstMatch(path: view.path, method: preflight.requestedMethod, check: check),
            let stub = stubs[number], let policy = stub.corsPolicy(answering: preflight, view)
        else { return nil }
        return (stub, policy)
    }

    func firstCatchAll(_ view: RequestView) -> CompiledStub? {
        for entry in catchAlls.reversed() where entry.stub.matches(view) { return entry.stub }
        return nil
    }

    func nearMissPool(_ view: RequestView) -> AddedPool {
        AddedPool(
            stubs: stubs, candidates: nearMissIndex,
            offered: index.candidatesForEveryMethod(path: view.path).reversed().map { stubs.count - 1 - $0 })
    }

    var comparedSessions: Int { comparedSessionCount }
    var hasStubs: Bool { liveStubs > 0 }

    /// Positions count from the newest number down (the order tried).
    struct AddedPool: NearMissPool {
        let stubs: [CompiledStub?]
        let candidates: NearMissIndex
        let offered: [Int]

        var count: Int { stubs.count }
        @inline(__always) func stub(at position: Int) -> CompiledStub? { stubs[stubs.count - 1 - position] }
    }

    private struct ResidualCheck: CandidateCheck {
        let stubs: [CompiledStub?]
        let view: RequestView

        func accepts(_ position: Int) -> Bool { stubs[position]?.matchesResidual(view) ?? false }
    }

    private struct PreflightCheck: CandidateCheck {
        let stubs: [CompiledStub?]
        let view: RequestView
        let preflight: CORSPreflight

        func accepts(_ position: Int) -> Bool { stubs[position]?.corsPolicy(answering: preflight, view) != nil }
    }
}
