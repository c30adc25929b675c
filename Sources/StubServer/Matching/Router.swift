/// Where a stub came from, printed as `file#index` in log lines and near-miss reports.
public struct StubReference: Sendable, Hashable, CustomStringConvertible {
    /// The config file's name as the user wrote it (e.g. `Stubs/login_conf.json`), or `stubs` for
    /// stubs built in Swift.
    public var file: String
    /// Zero-based position of the session in that file.
    public var index: Int

    public init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    public var description: String { "\(file)#\(index)" }
}

/// The outcome of routing one request.
public struct RouteResult: Sendable {
    /// What to send (its `onSent` is left for the caller to fill).
    public var reply: HTTPReply
    /// The stub that answered; nil when nothing matched and `reply` is the near-miss 400.
    public var stub: StubReference?

    public init(reply: HTTPReply, stub: StubReference?) {
        self.reply = reply
        self.stub = stub
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
    private let catchAlls: [CompiledStub]
    private let index: RouteIndex

    /// Compiles the stubs. Swift-built stubs without a `reference` are named `stubs#i`.
    /// Throws a `ConfigError` listing every bad regex, template, cookie or file.
    public convenience init(stubs definitions: [StubDefinition]) throws {
        try self.init(stubs: definitions, adjustingRouteKeys: nil)
    }

    /// `adjustingRouteKeys` lets tests file stubs under deliberately wrong keys, to prove the
    /// index-versus-scan comparison notices.
    init(stubs definitions: [StubDefinition], adjustingRouteKeys adjust: ((RouteKey) -> RouteKey)?) throws {
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
                    if let stub = StubCompiler.compile(session, reference: reference, problems: &sessionProblems) { compiled.append(stub) }
                    problems += sessionProblems.map { StubCompileProblem(path: session.sourcePath + $0.path, message: $0.message) }
                }
                problems += expansionProblems
            } else if let stub = StubCompiler.compile(definitions[position], reference: reference, problems: &problems) {
                compiled.append(stub)
            }
            for problem in problems {
                diagnostics.append(ConfigDiagnostic(file: reference.file, path: "[\(reference.index)]" + problem.path, message: problem.message))
            }
        }
        guard diagnostics.isEmpty else { throw ConfigError(diagnostics) }
        stubs = compiled.filter { !$0.isCatchAll }
        catchAlls = compiled.filter(\.isCatchAll)
        stubReferences = UnmanagedList(stubs)
        index = RouteIndex(stubs, adjustingKeys: adjust)
    }

    deinit { stubReferences.free() }

    /// Number of sessions, catch-alls included.
    public var stubCount: Int { stubs.count + catchAlls.count }

    /// Every session in the order it is tried (catch-alls last).
    public var references: [StubReference] { (stubs + catchAlls).map(\.reference) }

    public func route(_ request: HTTPRequest) -> RouteResult {
        let view = RequestView(request)
        if let stub = firstMatch(view) {
            return RouteResult(reply: stub.reply(view), stub: stub.reference)
        }
        if Favicon.answers(method: view.method, path: view.path) {
            return RouteResult(reply: HTTPReply(.prepared(Favicon.prepared)), stub: Favicon.reference)
        }
        let body = NearMissReport.body(for: view, stubs: stubs)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: ContentTypes.text)
        return RouteResult(reply: HTTPReply(.response(HTTPResponse(status: 400, headers: headers, body: Array(body.utf8)))), stub: nil)
    }

    /// The stub that would answer `request`, without building a response (no `seq` advance).
    public func stub(matching request: HTTPRequest) -> StubReference? {
        firstMatch(RequestView(request))?.reference
    }

    private func firstMatch(_ view: RequestView) -> CompiledStub? {
        if let found = index.firstMatch(path: view.path, method: view.method, check: ResidualCheck(stubs: stubReferences.buffer, view: view)) {
            return stubs[found]
        }
        for stub in catchAlls where stub.matches(view) { return stub }
        return nil
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
        for stub in catchAlls where stub.matches(view) { return stub.reference }
        return nil
    }
}
