/// Every bound the engine enforces. The defaults suit a developer's stub server; tests shorten
/// the timeouts to exercise them.
///
/// ```swift
/// var limits = HTTPServerLimits()
/// limits.headerReadTimeout = .milliseconds(200)
/// ```
public struct HTTPServerLimits: Sendable, Equatable {
    /// Longest request line before the server answers 414.
    public var maxRequestLineBytes = 8 * 1024
    /// Largest header block (and trailer section) before the server answers 431.
    public var maxHeaderBytes = 64 * 1024
    /// Largest request body before the server answers 413.
    public var maxBodyBytes = 10 * 1024 * 1024
    /// Time allowed for a request's head (from its first byte, or from connecting), and the
    /// base allowance of its body (see `minimumBodyBytesPerSecond`); past it the server answers
    /// 408 and closes.
    public var headerReadTimeout: Duration = .seconds(10)
    /// The slowest a request body may arrive: it has `headerReadTimeout` plus one second per
    /// this many bytes received, in total (not per byte), before the server answers 408.
    public var minimumBodyBytesPerSecond = 16 * 1024
    /// How long a keep-alive connection may sit between requests (or a blocked write may make
    /// no progress) before it is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// Open connections at once, upgraded ones included. At the cap a new connection displaces
    /// the longest-idle one: keep-alive between requests, or upgraded without a byte either way
    /// for `idleTimeout`; when none is idle it is closed as soon as accepted.
    public var maxConnections = 4096
    /// How long `stop()` lets in-flight requests finish before closing them.
    public var stopTimeout: Duration = .seconds(2)
    /// Unsent response bytes at which the server stops reading more requests on a connection.
    /// An upgraded connection with this much queued beyond what its socket took is closed (a
    /// peer that stopped reading).
    public var outputHighWaterMark = 1024 * 1024
    /// The server's memory budget: buffered request bodies, buffered response bytes and the
    /// journal together. Past it, new bodies or responses of 64 KiB or more get 503 (after the
    /// journal dropped its oldest bodies). `stubserver start --max-memory`.
    public var maxMemoryBytes = 256 * 1024 * 1024
    /// What each open connection is charged against the memory budget from the moment it is
    /// accepted until it closes, for what its buffers do not show: the connection and parser
    /// objects, TLS state and allocator slack. Its read and write buffers are charged on top, at
    /// the capacity they hold (not the bytes in them). Without it, 200 stalled uploads took the
    /// process 5% past the budget.
    public var connectionMemoryReserve = 16 * 1024
    /// Charges the process's own resident memory at start (code, Swift runtime, event-loop
    /// threads) to the budget, so the budget bounds the whole process. The standalone
    /// `stubserver` sets it (the process is the server); an embedded server shares its process
    /// with the app or test runner, so by default it does not.
    public var chargesProcessBaseline = false
    /// How long a deferred reply may stay unfulfilled (then `504` and its promise is cancelled),
    /// and how long a streamed body's producer may stay silent (then the connection closes).
    public var replyTimeout: Duration = .seconds(120)
    /// How long an upgraded connection (websocket) may go without a byte either way.
    public var upgradedIdleTimeout: Duration = .seconds(600)

    public init() {}
}

extension Duration {
    /// Whole nanoseconds, clamped to 0...2^62 (about 146 years), so a deadline `now + this`
    /// never wraps however long a configured latency or timeout is.
    package var nanoseconds: UInt64 {
        let parts = components
        guard parts.seconds >= 0, parts.attoseconds >= 0 else { return 0 }
        let ceiling: UInt64 = 1 << 62
        guard parts.seconds < Int64(ceiling / 1_000_000_000) else { return ceiling }
        return UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000)
    }
}
