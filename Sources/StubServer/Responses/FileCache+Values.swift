// The values `FileCache` hands out and counts, apart from the cache's locking and watching.
extension FileCache {
    /// A file as read: its bytes and the identity they belong to.
    struct File: Sendable {
        let key: String
        let identity: FileIdentity
        let bytes: [UInt8]
    }

    /// Counters for tests and benchmarks.
    struct Statistics: Sendable, Equatable {
        var hits = 0
        var misses = 0
        var storedBytes = 0
        var entries = 0
        /// Reads of the inotify queue: one per event-loop turn that looked a file up, not one
        /// per request.
        var watchDrains = 0
        /// Hits answered from a `Memo`, without a cache lookup.
        var recalls = 0
    }

    /// A value derived from one file, kept by whoever derived it (a response plan) and handed
    /// back by `recall` for the cost of a lock: no path to hash, no cast. It holds while no watch
    /// event and no eviction happened since `remember` stored it. Guarded by the cache's lock.
    final class Memo<Value: Sendable>: @unchecked Sendable {
        var value: Value?
        var generation: UInt64 = 0
        var evictions: UInt64 = 0

        init() {}
    }
}
