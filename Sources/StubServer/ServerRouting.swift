import Foundation

/// Anything that turns a request into a reply plus the stub that made it. `Router` is the one
/// the configuration builds.
protocol RequestRouting: Sendable {
    func route(_ request: HTTPRequest) -> RouteResult
}

extension Router: RequestRouting {}

/// Added stubs first, then the configuration's (one routing pass over both, so catch-alls
/// still come last and a miss is compared with every stub).
struct ServerRouting: RequestRouting {
    let added: AddedStubRouter
    let file: any RequestRouting

    func route(_ request: HTTPRequest) -> RouteResult {
        if let router = file as? Router { return added.reading { Router.route(request, first: added, then: router) } }
        if added.stub(matching: request) != nil { return added.route(request) }
        return file.route(request)
    }
}

/// The current routes; reload swaps the whole table at once.
final class RouteTable: @unchecked Sendable {
    private let lock = NSLock()
    private var current: any RequestRouting

    init(_ routing: any RequestRouting) { current = routing }

    var routing: any RequestRouting {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    func replace(with routing: any RequestRouting) {
        lock.lock(); current = routing; lock.unlock()
    }
}

/// Routes each request and records the exchange in the journal once the reply goes out.
struct JournalingResponder: HTTPResponder {
    let routes: RouteTable
    let journal: RequestJournal
    let logger: (@Sendable (JournalEntry) -> Void)?
    /// The admin API, when on; its calls are not journaled.
    var admin: AdminEndpoint? = nil
    /// The dashboard's feed and hit counts.
    var feed: DashboardFeed? = nil
    var hits: StubHitCounter? = nil
    /// The OpenAPI document every exchange is checked against, when the server has one.
    var contract: RuntimeContractCheck? = nil

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let admin, AdminEndpoint.claims(request) { return admin.respond(to: request) }
        let result = routes.routing.route(request)
        var reply = result.reply
        let stub = result.stub
        let nearMisses = result.nearMisses
        let previous = reply.onSent
        let journal = journal
        let logger = logger
        let feed = feed
        let hits = hits
        let findings = contract.map { Self.contractFindings($0, request, reply, stubAnswered: stub != nil) } ?? []
        if stub == nil, !findings.isEmpty, let contract { Self.markNearMissPage(&reply, findings, document: contract.api.name) }
        reply.onSent = { status, elapsed in
            previous?(status, elapsed)
            let entry = journal.record(
                request: request, stub: stub, status: status, duration: elapsed, nearMisses: nearMisses, contract: findings)
            logger?(entry)
            if let stub { hits?.count(stub) }
            if let feed, feed.hasSubscribers { feed.publish(DashboardEndpoint.requestMessage(entry)) }
        }
        return reply
    }

    /// The near-miss page (the 400 no stub answered) also says how the request breaks the
    /// document: the app may be sending what the real API would reject, not just missing a stub.
    static func markNearMissPage(_ reply: inout HTTPReply, _ findings: [RuntimeContractCheck.Finding], document: String) {
        guard case .response(var response) = reply.payload, response.status == 400 else { return }
        var text = "\nThe request also breaks the API's OpenAPI document (\(document)):\n"
        for finding in findings { text += "  ✗ \(finding.location): \(finding.message)\n" }
        response.body += Array(text.utf8)
        reply.payload = .response(response)
    }

    /// The request's violations, and the stub's response's when it is already known (a
    /// complete or prepared response; deferred, streamed and proxied bodies are not checked).
    /// A near miss (no stub answered) is only checked on the request side.
    static func contractFindings(_ check: RuntimeContractCheck, _ request: HTTPRequest, _ reply: HTTPReply, stubAnswered: Bool)
        -> [RuntimeContractCheck.Finding]
    {
        let raw = String(request.rawPath)
        let path = raw.removingPercentEncoding ?? raw
        var found = check.check(request, path: path)
        if stubAnswered, !found.contains(where: { $0.location == "operation" }) {
            switch reply.payload {
            case .response(let response): found += check.check(response, for: request, path: path)
            case .prepared(let prepared): found += check.check(prepared.response, for: request, path: path)
            default: break
            }
        }
        return check.bounded(found)
    }
}
