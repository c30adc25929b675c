import Foundation

/// One exchange the server saw: the request, the stub that answered (or none), the status.
public struct JournalEntry: Sendable, CustomStringConvertible {
    /// Position in the server's history, starting at 1; keeps counting when old entries fall
    /// out of the bounded journal.
    public let sequence: Int
    /// The request as received; its body is cut at the journal's excerpt limit.
    public let request: HTTPRequest
    /// True when `request.body` is only the first part of the body that was sent.
    public let bodyTruncated: Bool
    /// Size of the whole body as sent.
    public let bodySize: Int
    /// The stub that answered, or nil when nothing matched (the near-miss 400) or the engine
    /// refused the request before routing.
    public let stub: StubReference?
    /// The status sent; 0 when the connection was closed without an answer.
    public let status: Int
    /// When the request was complete (wall clock).
    public let receivedAt: Date
    /// From the complete request to the reply being handed to the socket, latency included.
    public let duration: Duration
    /// Why the engine refused the request (malformed, too large, too slow), or nil.
    public let rejection: String?
    /// When no stub matched: the closest stubs (at most three), closest first, and what each failed.
    public var nearMisses: [StubNearMiss] = []
    /// When the server checks an OpenAPI document: how this exchange broke it (at most ten,
    /// messages capped; see `StubServer.Options.openAPI`).
    public var contractViolations: [ContractViolation] = []

    /// When no stub matched: the closest stub and what it failed.
    public var nearMiss: StubNearMiss? { nearMisses.first }

    public var method: String { request.method }

    /// True when the server dropped the body under memory pressure (`request.body` is empty
    /// although `bodySize` is not).
    public var bodyDropped: Bool { request.body.isEmpty && bodySize > 0 }

    /// The same entry without its body, to give memory back.
    func withoutBody() -> JournalEntry {
        var request = request
        request.body = []
        return JournalEntry(
            sequence: sequence, request: request, bodyTruncated: true, bodySize: bodySize, stub: stub,
            status: status, receivedAt: receivedAt, duration: duration, rejection: rejection, nearMisses: nearMisses,
            contractViolations: contractViolations)
    }

    /// The percent-decoded path, without the query (`/api/v1/stories`).
    public var path: String {
        let raw = String(request.rawPath)
        return raw.removingPercentEncoding ?? raw
    }

    /// True when a stub answered.
    public var isMatched: Bool { stub != nil }

    /// `GET /api/v1/stories 200 Stubs/stories_conf.json#0 1.2ms`: the CLI's log line;
    /// `GET /x 400 no match (closest: Stubs/stories_conf.json#0, queries.client_id missing) 0.2ms`.
    public var description: String {
        let answeredBy =
            stub?.description
            ?? (rejection.map { "refused: \($0)" } ?? (nearMiss.map { "no match (\($0))" } ?? "no match"))
        // Tenths of a millisecond by integer arithmetic: this runs once per request on the CLI's
        // log path, where `String(format:)` cost more than the rest of the line.
        let tenths = duration.components.seconds * 10_000 + (duration.components.attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        let target = request.target.isEmpty ? "-" : request.target
        let method = request.method.isEmpty ? "-" : request.method
        let line = "\(method) \(target) \(status) \(answeredBy) \(tenths / 10).\(tenths % 10)ms"
        guard let first = contractViolations.first else { return line }
        let count = contractViolations.count
        return line + " ✗ contract: \(first.side.rawValue) \(first.location): \(first.message)" + (count > 1 ? " (+\(count - 1) more)" : "")
    }
}
