import Foundation

/// Remembers, for one process, which snapshot files were checked and by which assertion: the basis
/// for orphan detection (files no test touched) and for reporting two assertions sharing one file.
/// Thread-safe. ``SnapshotLedger/shared`` is the one the test bundle observer audits.
public final class SnapshotLedger: @unchecked Sendable {
    /// The process-wide ledger.
    public static let shared = SnapshotLedger()

    /// Where an assertion lives.
    public struct Site: Sendable, Hashable, CustomStringConvertible {
        public var file: String
        public var line: UInt
        public var testName: String
        public var description: String { "\(testName) at \(file):\(line)" }
    }

    private let lock = NSLock()
    private var touched: [String: Site] = [:]
    private var roots: Set<String> = []
    private var counters: [String: Int] = [:]

    public init() {}

    /// Records that `path` (inside the snapshot root `root`) was checked from `site`. Returns the
    /// earlier site when another assertion already used the same file in this process.
    @discardableResult
    public func touch(_ path: String, root: String, site: Site) -> Site? {
        lock.lock()
        defer { lock.unlock() }
        roots.insert(root)
        if let previous = touched[path], previous != site { return previous }
        touched[path] = site
        return nil
    }

    /// The next automatic snapshot number (1, 2, …) for an unnamed assertion in `key` (folder + test).
    public func nextCounter(for key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let next = (counters[key] ?? 0) + 1
        counters[key] = next
        return next
    }

    /// Forgets the automatic numbers (called when a test case finishes).
    public func resetCounters() {
        lock.lock()
        counters.removeAll()
        lock.unlock()
    }

    /// Every snapshot path checked so far, sorted.
    public var touchedPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return touched.keys.sorted()
    }

    /// Every snapshot root (a `__Snapshots__` folder or `TEXT_SNAPSHOT_DIR`) that was used, sorted.
    public var touchedRoots: [String] {
        lock.lock()
        defer { lock.unlock() }
        return roots.sorted()
    }

    /// Snapshot files under the used roots that no assertion touched.
    public func orphans() -> [String] {
        OrphanAudit.orphans(roots: touchedRoots, touched: Set(touchedPaths))
    }
}
