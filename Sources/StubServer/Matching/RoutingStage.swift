/// One router's part in routing a request: its stubs, then (after every stage's stubs) its
/// catch-alls, and its stubs' near-miss pool. `Router` (a configuration's stubs, immutable) and
/// `AddedStubRouter` (the admin API's, changed in place) are stages.
protocol RoutingStage {
    associatedtype Pool: NearMissPool
    /// The first stub in order (catch-alls aside) whose conditions all hold.
    func firstNonCatchAll(_ view: RequestView) -> CompiledStub?
    /// The first stub with `cors` that would serve the preflight's requested method at its URI.
    func firstCORSStub(answering preflight: CORSPreflight, _ view: RequestView) -> (CompiledStub, CORSPolicy)?
    func firstCatchAll(_ view: RequestView) -> CompiledStub?
    func nearMissPool(_ view: RequestView) -> Pool
    /// Sessions with request conditions, counted once (the near-miss page's last line).
    var comparedSessions: Int { get }
    /// Any stub besides catch-alls.
    var hasStubs: Bool { get }
}

extension Router: RoutingStage {
    /// Routes through two routers as one (a server's added stubs, then its configuration's):
    /// the first router's stubs, the second's, then the first's catch-alls and the second's; a
    /// miss is compared with the stubs of both. (Two parameters, not an array: no allocation
    /// per request.)
    static func route<First: RoutingStage>(_ request: HTTPRequest, first: First, then second: Router?) -> RouteResult {
        let view = RequestView(request)
        if let stub = first.firstNonCatchAll(view) ?? second?.firstNonCatchAll(view) {
            return RouteResult(reply: stub.reply(view), stub: stub.reference)
        }
        // Sessions that match OPTIONS themselves answered above; catch-alls come after.
        if let preflight = CORSPreflight(view),
            let (stub, policy) = first.firstCORSStub(answering: preflight, view) ?? second?.firstCORSStub(answering: preflight, view)
        {
            return RouteResult(reply: CORSPreflight.reply(policy, view), stub: stub.reference)
        }
        if let stub = first.firstCatchAll(view) ?? second?.firstCatchAll(view) {
            return RouteResult(reply: stub.reply(view), stub: stub.reference)
        }
        if Favicon.answers(method: view.method, path: view.path) {
            return RouteResult(reply: HTTPReply(.prepared(Favicon.prepared)), stub: Favicon.reference)
        }
        let closest = NearMissRanking.closest(
            view, pools: first.nearMissPool(view), second?.nearMissPool(view), count: NearMissRanking.reportedCount)
        let body = NearMissReport.body(
            for: view, closest: closest, comparedSessions: first.comparedSessions + (second?.comparedSessions ?? 0),
            anyStubs: first.hasStubs || (second?.hasStubs ?? false))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: ContentTypes.text)
        let nearMisses = closest.map { found in
            StubNearMiss(
                stub: found.stub.reference, summary: found.stub.summary,
                differences: NearMissRanking.differences(found.failed, view),
                briefDifferences: found.failed.map { NearMissRanking.brief($0, view) },
                conditionCount: found.stub.conditions.count)
        }
        return RouteResult(
            reply: HTTPReply(.response(HTTPResponse(status: 400, headers: headers, body: Array(body.utf8)))), stub: nil,
            nearMisses: nearMisses)
    }

}
