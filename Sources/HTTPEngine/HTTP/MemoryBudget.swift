import Foundation

/// One ceiling for the bytes a server holds: buffered request bodies, buffered response bytes,
/// each open connection's buffers (at their capacity) and reserve, the journal and — for the
/// standalone server — the process's own footprint all draw on it. Small work is always admitted (it
/// is counted, never refused); *large* work — a body or response of at least `largeWork`
/// bytes — is admitted only while it fits, after asking the journal to shed its oldest bodies.
/// Thread-safe: every event loop and the journal share one.
///
/// ```swift
/// let budget = MemoryBudget(limit: 256 << 20)
/// guard budget.admit(20 << 20) else { /* answer 503 */ }
/// ```
public final class MemoryBudget: @unchecked Sendable {
    /// The ceiling in bytes.
    public let limit: Int
    /// Work at least this large must fit under `limit` to be admitted.
    public let largeWork: Int

    private let lock = NSLock()
    private var used = 0
    private var peakUsed = 0
    private var refusals = 0
    private var processBaseline = 0
    /// Frees at least the given number of bytes if it can (the journal drops old bodies) and
    /// returns how many it freed. Called without the lock held.
    private var relief: (@Sendable (Int) -> Int)?

    public init(limit: Int, largeWork: Int = 64 * 1024) {
        self.limit = max(0, limit)
        self.largeWork = max(1, largeWork)
    }

    /// Bytes counted now.
    public var inUse: Int { locked { used } }

    /// The most bytes ever counted at once.
    public var peak: Int { locked { peakUsed } }

    /// How many pieces of large work were refused.
    public var refusedCount: Int { locked { refusals } }

    /// The process's own footprint charged at start (0 unless
    /// `HTTPServerLimits.chargesProcessBaseline`); part of `inUse`.
    public var baseline: Int { locked { processBaseline } }

    /// Charges `bytes` as the process's own footprint, replacing an earlier charge (a restart
    /// measures again rather than counting the process twice).
    package func chargeBaseline(_ bytes: Int) {
        let change = locked {
            defer { processBaseline = bytes }
            return bytes - processBaseline
        }
        adjust(by: change)
    }

    private func locked<Value>(_ read: () -> Value) -> Value {
        lock.lock(); defer { lock.unlock() }
        return read()
    }

    package func setRelief(_ relief: (@Sendable (Int) -> Int)?) {
        lock.lock(); self.relief = relief; lock.unlock()
    }

    /// Counts `delta` bytes more (or fewer, when negative) without refusing.
    package func adjust(by delta: Int) {
        guard delta != 0 else { return }
        lock.lock()
        used += delta
        if used > peakUsed { peakUsed = used }
        lock.unlock()
    }

    /// Whether `bytes` more can be taken on now. Small amounts always can; a large one only
    /// when it fits, after the journal shed what it could. It does not count the bytes: the
    /// caller does as it buffers them.
    public func admit(_ bytes: Int) -> Bool {
        guard bytes >= largeWork else { return true }
        lock.lock()
        var over = used + bytes - limit
        let relief = self.relief
        lock.unlock()
        if over > 0, let relief {
            _ = relief(over)
            lock.lock(); over = used + bytes - limit; lock.unlock()
        }
        if over > 0 {
            lock.lock(); refusals += 1; lock.unlock()
            return false
        }
        return true
    }

    /// `admit` and, for large work, count in one step: two event loops cannot both take the last
    /// room, as they could when each admitted first and counted later (200 uploads arriving at
    /// once went past the budget by a body or two). Small work is admitted and left uncounted,
    /// as with `admit`: the caller counts it as it buffers.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes >= largeWork else { return true }
        var askedForRelief = false
        while true {
            lock.lock()
            if used + bytes <= limit {
                used += bytes
                if used > peakUsed { peakUsed = used }
                lock.unlock()
                return true
            }
            let over = used + bytes - limit
            let relief = askedForRelief ? nil : self.relief
            if relief == nil { refusals += 1 }
            lock.unlock()
            guard let relief else { return false }
            askedForRelief = true
            _ = relief(over)
        }
    }

    /// True when the counted bytes are past the ceiling (used to stop growing chunked bodies).
    var isExhausted: Bool { locked { used >= limit } }
}
