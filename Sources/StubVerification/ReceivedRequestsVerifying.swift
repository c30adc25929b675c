/// Something that can say which requests it received: an embedded `StubServer` or a
/// `StubServerClient` talking to a running `stubserver`. SpecKit's `haveReceived` asks it.
///
/// ```swift
/// let report = try server.verifyReceived(.post("/oauth/token"), nearMisses: 3)
/// report.matchCount            // requests that matched the filter
/// report.nearMisses.first?.differences   // ["forms.password: expected \"secret\", got \"wrong\""]
/// ```
public protocol ReceivedRequestsVerifying {
    /// How many journaled requests match `filter`, and (when fewer than expected may have
    /// matched) up to `nearMisses` of the others that came closest, each with what differed.
    /// Blocking: a client waits for the server's answer.
    func verifyReceived(_ filter: RequestFilter, nearMisses: Int) throws -> ReceivedRequestsReport
}

/// What a server answered about a filter.
public struct ReceivedRequestsReport: Sendable, Codable, Equatable {
    /// Requests matching the filter.
    public var matchCount: Int
    /// Requests in the journal (refused ones excluded).
    public var totalCount: Int
    /// The closest requests that did not match, closest first.
    public var nearMisses: [RequestNearMiss]

    public init(matchCount: Int, totalCount: Int, nearMisses: [RequestNearMiss]) {
        self.matchCount = matchCount
        self.totalCount = totalCount
        self.nearMisses = nearMisses
    }
}

/// One received request that a filter did not match, and why.
public struct RequestNearMiss: Sendable, Codable, Equatable {
    /// `POST /oauth/token?x=1`: method and target as received.
    public var request: String
    /// The status the server answered with (0: closed without an answer).
    public var status: Int
    /// Each condition of the filter the request failed:
    /// `forms.password: expected "secret", got "wrong"`.
    public var differences: [String]

    public init(request: String, status: Int, differences: [String]) {
        self.request = request
        self.status = status
        self.differences = differences
    }
}
