/// What compiling a router needs beyond the stubs: the server's scenario states (shared across
/// reloads and with added stubs) and a path prefix no session may claim (the admin API's).
struct RouterOptions {
    var scenarios = ScenarioStates()
    /// `/__admin`: sessions whose `uri` lies under it are refused.
    var reservedPrefix: String?
}

/// The outcome of routing one request.
public struct RouteResult: Sendable {
    /// What to send (its `onSent` is left for the caller to fill).
    public var reply: HTTPReply
    /// The stub that answered; nil when nothing matched and `reply` is the near-miss 400.
    public var stub: StubReference?
    /// When nothing matched: the closest stubs (at most three), closest first, and what each failed.
    public var nearMisses: [StubNearMiss]
    /// The closest stub, when nothing matched.
    public var nearMiss: StubNearMiss? { nearMisses.first }

    public init(reply: HTTPReply, stub: StubReference?, nearMiss: StubNearMiss? = nil) {
        self.init(reply: reply, stub: stub, nearMisses: nearMiss.map { [$0] } ?? [])
    }

    public init(reply: HTTPReply, stub: StubReference?, nearMisses: [StubNearMiss]) {
        self.reply = reply
        self.stub = stub
        self.nearMisses = nearMisses
    }
}

/// The compiled, immutable routing table: the first stub in config order whose conditions all
/// hold answers; catch-alls (sessions without a request) answer only when no other stub does,
/// the first applicable one winning. Unmatched requests get a 400 whose plain-text body names
/// the closest stub and each condition it failed.
///
/// ```swift
/// let router = try Router(stubs: [
///     StubDefinition(request: .get("/ping"), response: .text("pong")),
/// ])
/// router.route(HTTPRequest(method: "GET", target: "/ping")).reply.status   // 200
/// ```
///
/// Routing is safe from any number of threads; `seq`/`cycle` state lives in the router, so a
/// hot reload (a new router) starts sequences over.
public final class Router: Sendable {
    private let stubs: [CompiledStub]
    /// `stubs` unretained, for the index's candidate checks (see `UnmanagedList`).
    private let stubReferences: UnmanagedList<CompiledStub>
    let catchAlls: [CompiledStub]
    /// Sessions with request conditions, counted once (the near-miss page's last line).
    let comparedSessions: Int
    private let index: RouteIndex
    /// What bounds each stub's near-miss score without evaluating it, arranged best-first.
    private let nearMissIndex: NearMissIndex
    /// Recordings, saved-exchange files and the upstream client the stubs share.
    let runtime: StubRuntime
    /// Where the stubs' scenarios keep their states.
    let scenarios: ScenarioStates
    /// Every scenario a stub mentions, in order.
    let scenarioNames: [String]

    /// Compiles the stubs. Swift-built stubs without a `reference` are named `stubs#i`.
    /// Throws a `ConfigError` listing every bad regex, template, cookie or file.
    public convenience init(stubs definitions: [StubDefinition]) throws {
        try self.init(stubs: definitions, adjustingRouteKeys: nil)
    }

    /// `adjustingRouteKeys` lets tests file stubs under deliberately wrong keys, to prove the
    /// index-versus-scan comparison notices.
    init(
        stubs definitions: [StubDefinition], adjustingRouteKeys adjust: ((RouteKey) -> RouteKey)?, options: RouterOptions = RouterOptions()
    ) throws {
        let runtime = StubRuntime()
        let (compiled, compileProblems) = Self.compile(definitions, runtime: runtime, options: options)
        let diagnostics = compileProblems + Self.webSocketEndpointProblems(definitions)
        guard diagnostics.isEmpty else { throw ConfigError(diagnostics) }
        self.runtime = runtime
        stubs = compiled.filter { !$0.isCatchAll }
        catchAlls = compiled.filter(\.isCatchAll)
        comparedSessions = NearMissReport.comparedSessions(stubs)
        stubReferences = UnmanagedList(stubs)
        index = RouteIndex(stubs, adjustingKeys: adjust)
        var nearMissIndex = NearMissIndex(newestFirst: false)
        for stub in stubs { nearMissIndex.insert(NearMissHint(stub)) }
        self.nearMissIndex = nearMissIndex
        scenarios = options.scenarios
        var names: [String] = []
        for definition in definitions {
            if let name = definition.scenario?.name, !names.contains(name) { names.append(name) }
        }
        scenarioNames = names
    }

    convenience init(stubs definitions: [StubDefinition], options: RouterOptions) throws {
        try self.init(stubs: definitions, adjustingRouteKeys: nil, options: options)
    }

    /// Compiles sessions in order (a REST resource into several); what did not compile is
    /// named in the diagnostics. `reference` defaults to `stubs#i`.
    static func compile(_ definitions: [StubDefinition], runtime: StubRuntime, options: RouterOptions) -> (
        [CompiledStub], [ConfigDiagnostic]
    ) {
        var compiled: [CompiledStub] = []
        var diagnostics: [ConfigDiagnostic] = []
        compiled.reserveCapacity(definitions.count)
        // One thread on purpose: compiling is allocation-bound, and splitting it across cores
        // measured slower (allocator arenas, shared reference counts), not faster.
        for position in definitions.indices {
            let reference = definitions[position].reference ?? StubReference(file: "stubs", index: position)
            var problems: [StubCompileProblem] = []
            if definitions[position].resource != nil {
                // A REST resource becomes several sessions; problems name where in it they are.
                var expansionProblems: [StubCompileProblem] = []
                for session in ResourceExpansion.sessions(for: definitions[position], problems: &expansionProblems) {
                    var sessionProblems: [StubCompileProblem] = []
                    if let stub = StubCompiler.compile(
                        session, reference: reference, runtime: runtime, problems: &sessionProblems, scenarios: options.scenarios)
                    {
                        compiled.append(stub)
                    }
                    problems += sessionProblems.map { StubCompileProblem(path: session.sourcePath + $0.path, message: $0.message) }
                }
                problems += expansionProblems
            } else if let stub = StubCompiler.compile(
                definitions[position], reference: reference, runtime: runtime, problems: &problems, scenarios: options.scenarios)
            {
                compiled.append(stub)
                if let prefix = options.reservedPrefix, let (path, prefixOnly) = Self.claimedPath(stub, under: prefix) {
                    let what =
                        prefixOnly
                        ? "this uri matcher's fixed start reaches into \(prefix)/, where the admin API answers first, so the session would be silently hidden there"
                        : "this uri lies under \(prefix)/, where the admin API answers, so the session would never be reached"
                    problems.append(
                        StubCompileProblem(
                            path: path,
                            message: what + "; choose another uri, or start with --no-admin (StubServer.Options.admin = .off) to serve it"))
                }
            }
            for problem in problems {
                diagnostics.append(
                    ConfigDiagnostic(file: reference.file, path: "[\(reference.index)]" + problem.path, message: problem.message))
            }
        }
        return (compiled, diagnostics)
    }

    /// The JSON path of a stub's `uri` when it can only match under `prefix` (`/__admin`), or
    /// when its fixed start reaches into it (`startsWith: "/__adm"`, a regex or glob starting
    /// `/__admin/`): the admin API answers those paths first, hiding the session there.
    private static func claimedPath(_ stub: CompiledStub, under prefix: String) -> (path: String, prefixOnly: Bool)? {
        func under(_ text: String) -> Bool { text == prefix || text.hasPrefix(prefix + "/") }
        // At least "/__a": a shorter start ("/", "/_") is a broad matcher, not one aimed here.
        func reaches(_ start: String) -> Bool {
            start.count > 3 && ((prefix + "/").hasPrefix(start) || start.hasPrefix(prefix + "/"))
        }
        for condition in stub.conditions {
            switch condition.test {
            case .uri(.equal(let text)):
                if under(text) { return (".request.uri", false) }
            case .uri(.startsWith(let text)):
                if under(text) { return (".request.uri", false) }
                if reaches(text) { return (".request.uri", true) }
            case .uri(.regex(let regex)):
                if !regex.caseInsensitive, reaches(Self.literalStart(ofRegex: regex.pattern)) { return (".request.uri", true) }
            case .uri(.path(let pattern)):
                if let literal = pattern.literal, under(literal) { return (".request.uri", false) }
                if pattern.source.hasPrefix(prefix + "/") { return (".request.uri", false) }
                if reaches(String(pattern.source.prefix { !"*?{".contains($0) })) { return (".request.uri", true) }
            case .uriWithin(let context):
                if under(context) { return (".request.uri", false) }
            default:
                continue
            }
        }
        return nil
    }

    /// The text every match of `pattern` starts with: its characters up to the first one with
    /// a meaning in a regex (a leading `^` skipped; `/__adm.*` → `/__adm`).
    static func literalStart(ofRegex pattern: String) -> String {
        var text = Substring(pattern)
        if text.first == "^" { text = text.dropFirst() }
        var literal = String(text.prefix { !"\\.[](){}*+?|^$".contains($0) })
        // A quantifier after the last character makes that character optional.
        let rest = text.dropFirst(literal.count)
        if let next = rest.first, "*?{".contains(next), !literal.isEmpty { literal.removeLast() }
        return literal
    }

    deinit { stubReferences.free() }

    /// moco serves one websocket endpoint per server: every one after the first is an error.
    static func webSocketEndpointProblems(_ definitions: [StubDefinition]) -> [ConfigDiagnostic] {
        var first: StubReference?
        var problems: [ConfigDiagnostic] = []
        for position in definitions.indices where definitions[position].response.map({ $0.websocket != nil }) ?? false {
            let reference = definitions[position].reference ?? StubReference(file: "stubs", index: position)
            if let first {
                problems.append(
                    ConfigDiagnostic(
                        file: reference.file, path: "[\(reference.index)].websocket",
                        message: "a server has one websocket endpoint and \(first) already declares it"))
            } else {
                first = reference
            }
        }
        return problems
    }

    /// Number of sessions, catch-alls included.
    public var stubCount: Int { stubs.count + catchAlls.count }

    /// Every session in the order it is tried (catch-alls last).
    public var references: [StubReference] { (stubs + catchAlls).map(\.reference) }

    public func route(_ request: HTTPRequest) -> RouteResult {
        Self.route(request, first: self, then: nil)
    }

    var hasStubs: Bool { !stubs.isEmpty }

    func firstCatchAll(_ view: RequestView) -> CompiledStub? {
        for stub in catchAlls where stub.matches(view) { return stub }
        return nil
    }

    /// The stubs whose path can hold come from the index, not a scan (100,000 added stubs).
    func nearMissPool(_ view: RequestView) -> NearMissRanking.Pool {
        NearMissRanking.Pool(stubs: stubs, candidates: nearMissIndex, offered: index.candidatesForEveryMethod(path: view.path))
    }

    /// The compiled stubs (catch-alls last), for the ranking tests.
    var compiledStubs: [CompiledStub] { stubs + catchAlls }

    /// The stub that would answer `request`, without building a response (no `seq` advance).
    public func stub(matching request: HTTPRequest) -> StubReference? {
        firstMatch(RequestView(request))?.reference
    }

    func firstNonCatchAll(_ view: RequestView) -> CompiledStub? {
        index.firstMatch(path: view.path, method: view.method, check: ResidualCheck(stubs: stubReferences.buffer, view: view))
            .map { stubs[$0] }
    }

    private func firstMatch(_ view: RequestView) -> CompiledStub? {
        if let found = index.firstMatch(
            path: view.path, method: view.method, check: ResidualCheck(stubs: stubReferences.buffer, view: view))
        {
            return stubs[found]
        }
        if let preflight = CORSPreflight(view), let (stub, _) = firstCORSStub(answering: preflight, view) { return stub }
        for stub in catchAlls where stub.matches(view) { return stub }
        return nil
    }

    /// The first non-catch-all stub with `cors` that would serve the preflight's requested method
    /// at its URI. The index offers the candidates for that method; the check tries them.
    func firstCORSStub(answering preflight: CORSPreflight, _ view: RequestView) -> (CompiledStub, CORSPolicy)? {
        let check = PreflightCheck(stubs: stubReferences.buffer, view: view, preflight: preflight)
        guard let position = index.firstMatch(path: view.path, method: preflight.requestedMethod, check: check),
            let policy = stubs[position].corsPolicy(answering: preflight, view)
        else { return nil }
        return (stubs[position], policy)
    }

    private struct PreflightCheck: CandidateCheck {
        let stubs: UnsafeMutableBufferPointer<Unmanaged<CompiledStub>>
        unowned(unsafe) let view: RequestView
        let preflight: CORSPreflight

        func accepts(_ position: Int) -> Bool {
            stubs[position]._withUnsafeGuaranteedRef { $0.corsPolicy(answering: preflight, view) != nil }
        }
    }

    /// The conditions of an offered stub that the index does not prove. Plain pointers: the
    /// router keeps the stubs and the caller the view alive for the whole lookup.
    private struct ResidualCheck: CandidateCheck {
        let stubs: UnsafeMutableBufferPointer<Unmanaged<CompiledStub>>
        unowned(unsafe) let view: RequestView

        func accepts(_ position: Int) -> Bool { stubs[position]._withUnsafeGuaranteedRef { $0.matchesResidual(view) } }
    }

    /// The stub positions the index offers for `request` (before conditions), for tests.
    func indexCandidates(for request: HTTPRequest) -> [StubReference] {
        let view = RequestView(request)
        return index.candidates(path: view.path, method: view.method).map { stubs[$0].reference }
    }

    /// The same answer as `stub(matching:)` by trying every stub in order: the specification
    /// the route index must agree with (tests compare the two).
    func stubByLinearScan(matching request: HTTPRequest) -> StubReference? {
        let view = RequestView(request)
        for stub in stubs where stub.matches(view) { return stub.reference }
        if let preflight = CORSPreflight(view) {
            for stub in stubs where stub.corsPolicy(answering: preflight, view) != nil { return stub.reference }
        }
        for stub in catchAlls where stub.matches(view) { return stub.reference }
        return nil
    }
}
