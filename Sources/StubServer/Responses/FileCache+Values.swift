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
    }
}
