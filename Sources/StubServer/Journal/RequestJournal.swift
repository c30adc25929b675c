import Foundation

/// Every exchange a server saw, newest last, in a bounded ring buffer: once `capacity` entries
/// are held, each new one drops the oldest. Bodies are kept up to `bodyExcerptLimit` bytes.
/// Safe to read from any thread while the server runs.
///
/// ```swift
/// XCTAssertEqual(server.journal.count(matching: .post("/oauth/token")), 1)
/// let stories = server.journal.requests(method: "GET", path: "/api/v1/stories")
/// XCTAssertEqual(server.journal.unmatched.count, 0)
/// ```
public final class RequestJournal: @unchecked Sendable {
    public let capacity: Int
    public let bodyExcerptLimit: Int

    private let lock = NSLock()
    private var ring: [JournalEntry?]
    private var start = 0
    private var stored = 0
    private var nextSequence = 1
    private var evicted = 0

    public init(capacity: Int = 10_000, bodyExcerptLimit: Int = 64 * 1024) {
        self.capacity = max(0, capacity)
        self.bodyExcerptLimit = max(0, bodyExcerptLimit)
        ring = []
    }

    /// Entries held now, oldest first.
    public var entries: [JournalEntry] {
        lock.lock(); defer { lock.unlock() }
        return (0..<stored).compactMap { ring[(start + $0) % capacity] }
    }

    /// Number of entries held now (at most `capacity`).
    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return stored
    }

    /// Entries dropped to respect `capacity` since the journal was created or cleared.
    public var droppedCount: Int {
        lock.lock(); defer { lock.unlock() }
        return evicted
    }

    /// The newest entry.
    public var last: JournalEntry? {
        lock.lock(); defer { lock.unlock() }
        guard stored > 0 else { return nil }
        return ring[(start + stored - 1) % capacity]
    }

    /// Requests with this method (case-insensitive) and/or decoded path, oldest first.
    public func requests(method: String? = nil, path: String? = nil) -> [JournalEntry] {
        requests(matching: RequestFilter(method: method, path: path))
    }

    /// Requests matching `filter` (moco's request matcher), oldest first. A filter built from
    /// malformed `mocoJSON` matches nothing; `StubServer.findRequests(matching:)` throws instead.
    public func requests(matching filter: RequestFilter) -> [JournalEntry] {
        (try? requestsOrThrow(matching: filter)) ?? []
    }

    public func count(matching filter: RequestFilter) -> Int {
        requests(matching: filter).count
    }

    /// Throws a `ConfigError` naming the JSON path when the filter is malformed.
    func requestsOrThrow(matching filter: RequestFilter) throws -> [JournalEntry] {
        let compiled = try CompiledFilter(filter)
        return entries.filter { $0.rejection == nil && compiled.matches($0.request) }
    }

    /// Requests no stub answered: near misses and requests the engine refused.
    public var unmatched: [JournalEntry] {
        entries.filter { $0.stub == nil }
    }

    /// Forgets every entry (sequence numbers keep counting).
    public func clear() {
        lock.lock()
        ring = []
        start = 0
        stored = 0
        evicted = 0
        lock.unlock()
    }

    /// Adds an entry and returns it. Called by the server after each reply.
    @discardableResult
    func record(
        request: HTTPRequest, stub: StubReference?, status: Int, duration: Duration, rejection: String? = nil,
        nearMiss: StubNearMiss? = nil
    ) -> JournalEntry {
        var kept = request
        let size = request.body.count
        let truncated = size > bodyExcerptLimit
        if truncated { kept.body = Array(request.body.prefix(bodyExcerptLimit)) }
        lock.lock()
        defer { lock.unlock() }
        let entry = JournalEntry(
            sequence: nextSequence, request: kept, bodyTruncated: truncated, bodySize: size, stub: stub,
            status: status, receivedAt: Date(timeIntervalSinceNow: -Double(duration.nanoseconds) / 1e9),
            duration: duration, rejection: rejection, nearMiss: nearMiss
        )
        nextSequence += 1
        guard capacity > 0 else { evicted += 1; return entry }
        if ring.isEmpty { ring = Array(repeating: nil, count: min(capacity, 1024)) }
        if stored < capacity {
            let slot = (start + stored) % capacity
            if slot >= ring.count { ring.append(contentsOf: repeatElement(nil, count: min(capacity, ring.count * 2) - ring.count)) }
            ring[slot] = entry
            stored += 1
        } else {
            ring[start] = entry
            start = (start + 1) % capacity
            evicted += 1
        }
        return entry
    }
}
