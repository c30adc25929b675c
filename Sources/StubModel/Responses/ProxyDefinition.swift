/// moco's `proxy`: forward the request to a live backend and answer with what it says.
///
/// ```swift
/// ProxyDefinition(url: "http://staging.example.test/api/stories")                       // one URL
/// ProxyDefinition(from: "/api", to: "http://staging.example.test/v2")                     // a whole subtree
/// ProxyDefinition(url: "http://staging.example.test/x", failover: SavedExchanges(file: "failover.json"))
/// ```
public struct ProxyDefinition: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        /// One URL (a template may build it from the request); the request's query is appended.
        case url(TextValue)
        /// `/from/rest?q` goes to `to/rest?q`.
        case batch(from: String, to: String)
    }

    public var target: Target
    /// Save each successful exchange; replay it when the upstream is unreachable or answers one
    /// of `statuses`.
    public var failover: SavedExchanges?
    /// Answer from the file first; ask the upstream only on a miss, then save its answer.
    public var playback: SavedExchanges?

    public init(target: Target, failover: SavedExchanges? = nil, playback: SavedExchanges? = nil) {
        self.target = target
        self.failover = failover
        self.playback = playback
    }

    public init(url: TextValue, failover: SavedExchanges? = nil, playback: SavedExchanges? = nil) {
        self.init(target: .url(url), failover: failover, playback: playback)
    }

    public init(url: String, failover: SavedExchanges? = nil, playback: SavedExchanges? = nil) {
        self.init(target: .url(.literal(url)), failover: failover, playback: playback)
    }

    public init(from: String, to: String, failover: SavedExchanges? = nil, playback: SavedExchanges? = nil) {
        self.init(target: .batch(from: from, to: to), failover: failover, playback: playback)
    }
}

/// A failover or playback file: `{"file": "failover.json", "status": [502, 503]}`.
public struct SavedExchanges: Sendable, Hashable {
    /// Relative to the stub's file root (moco: the working directory).
    public var file: String
    /// Upstream statuses that trigger a failover replay (moco's default: 400 only).
    public var statuses: [Int]

    public init(file: String, statuses: [Int] = [400]) {
        self.file = file
        self.statuses = statuses
    }
}
