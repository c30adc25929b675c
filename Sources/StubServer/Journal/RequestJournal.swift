import Foundation

/// Every exchange a server saw, newest last, in a bounded ring buffer: once `capacity` entries
/// or `byteCapacity` bytes are held, each new one drops the oldest. Bodies are kept up to
/// `bodyExcerptLimit` bytes. Under memory pressure the server's budget asks it to drop the
/// bodies of its oldest entries first (`JournalEntry.bodyDropped`).
/// Safe to read from any thread while the server runs.
///
/// ```swift
/// XCTAssertEqual(server.journal.count(matching: .post("/oauth/token")), 1)
/// let stories = server.journal.requests(method: "GET", path: "/api/v1/stories")
/// XCTAssertEqual(server.journal.unmatched.count, 0)
/// ```
public final class RequestJournal: @unchecked Sendable {
    public let capacity: Int
    /// Bytes of requests (bodies, headers, targets) held at most; the oldest entries go first.
    public let byteCapacity: Int
    public let bodyExcerptLimit: Int

    private let lock = NSLock()
    private var ring: [JournalEntry?]
    private var start = 0
    private var stored = 0
    private var nextSequence = 1
    private var evicted = 0
    private var heldBytes = 0
    /// The oldest entry whose body may still be held (bodies are dropped oldest first).
    private var shedCursor = 0
    private var budget: MemoryBudget?

    public init(capacity: Int = 10_000, byteCapacity: Int = 64 * 1024 * 1024, bodyExcerptLimit: Int = 64 * 1024) {
        self.capacity = max(0, capacity)
        self.byteCapacity = max(0, byteCapacity)
        self.bodyExcerptLimit = max(0, bodyExcerptLimit)
        ring = []
    }

    /// Bytes the held entries account for (see `byteCapacity`).
    public var bytes: Int {
        lock.lock(); defer { lock.unlock() }
        return heldBytes
    }

    /// Counts the journal against `budget`, which may ask it to drop old bodies.
    func attach(to budget: MemoryBudget) {
        lock.lock()
        self.budget = budget
        budget.adjust(by: heldBytes)
        lock.unlock()
        budget.setRelief { [weak self] wanted in self?.dropOldestBodies(atLeast: wanted) ?? 0 }
    }

    /// What one entry costs: its body excerpt, head fields and a fixed overhead.
    static func cost(of request: HTTPRequest) -> Int {
        var total = 160 + request.body.count + request.method.utf8.count + request.target.utf8.count + request.remoteAddress.utf8.count
        for field in request.headers { total += field.name.utf8.count + field.value.utf8.count + 32 }
        return total
    }

    /// Drops the bodies of the oldest entries until `wanted` bytes are freed (or none are
    /// left) and returns the bytes freed. The entries themselves stay.
    @discardableResult
    func dropOldestBodies(atLeast wanted: Int) -> Int {
        lock.lock()
        var freed = 0
        if capacity > 0 {
            shedCursor = max(shedCursor, 0)
            while freed < wanted && shedCursor < stored {
                let slot = (start + shedCursor) % capacity
                if let entry = ring[slot], !entry.request.body.isEmpty {
                    freed += entry.request.body.count
                    ring[slot] = entry.withoutBody()
                }
                shedCursor += 1
            }
        }
        heldBytes -= freed
        let budget = budget
        lock.unlock()
        budget?.adjust(by: -freed)
        return freed
    }

    /// Removes the oldest entry. Called with the lock held; returns its cost.
    private func evictOldest() -> Int {
        let cost = ring[start].map { Self.cost(of: $0.request) } ?? 0
        ring[start] = nil
        start = (start + 1) % capacity
        stored -= 1
        evicted += 1
        shedCursor = max(0, shedCursor - 1)
        return cost
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

    /// Entries dropped to respect `capacity` or `byteCapacity` since the journal was created or cleared.
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
        shedCursor = 0
        let released = heldBytes
        heldBytes = 0
        let budget = budget
        lock.unlock()
        budget?.adjust(by: -released)
    }

    /// Adds an entry and returns it. Called by the server after each reply.
    @discardableResult
    func record(
        request: HTTPRequest, stub: StubReference?, status: Int, duration: Duration, rejection: String? = nil,
        nearMisses: [StubNearMiss] = [], contract: [RuntimeContractCheck.Finding] = []
    ) -> JournalEntry {
        var kept = request
        let size = request.body.count
        let truncated = size > bodyExcerptLimit
        if truncated { kept.body = Array(request.body.prefix(bodyExcerptLimit)) }
        lock.lock()
        let entry = JournalEntry(
            sequence: nextSequence, request: kept, bodyTruncated: truncated, bodySize: size, stub: stub,
            status: status, receivedAt: Date(timeIntervalSinceNow: -Double(duration.nanoseconds) / 1e9),
            duration: duration, rejection: rejection, nearMisses: nearMisses,
            contractViolations: contract.map {
                ContractViolation(
                    sequence: nextSequence, method: request.method,
                    path: String(request.rawPath.removingPercentEncoding ?? String(request.rawPath)),
                    status: status, side: $0.side, location: $0.location, message: $0.message)
            }
        )
        nextSequence += 1
        let cost = Self.cost(of: kept)
        guard capacity > 0, cost <= byteCapacity else {
            evicted += 1
            lock.unlock()
            return entry
        }
        var delta = cost
        if ring.isEmpty { ring = Array(repeating: nil, count: min(capacity, 1024)) }
        if stored == capacity { delta -= evictOldest() }
        while stored > 0 && heldBytes + delta > byteCapacity { delta -= evictOldest() }
        let slot = (start + stored) % capacity
        if slot >= ring.count { ring.append(contentsOf: repeatElement(nil, count: min(capacity, ring.count * 2) - ring.count)) }
        ring[slot] = entry
        stored += 1
        heldBytes += delta
        let budget = budget
        lock.unlock()
        budget?.adjust(by: delta)
        return entry
    }
}
