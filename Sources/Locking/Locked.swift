import Foundation

/// A value guarded by a lock: the package's one lock-protected box, for state touched from
/// threads the compiler cannot see are safe (XCTest's callbacks, event loops, completion
/// handlers). `Synchronization.Mutex` would do, but it needs macOS 15 / iOS 18.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// print(hits.snapshot)   // 1
/// ```
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now (a copy).
    package var snapshot: Value {
        withLock { $0 }
    }

    /// Replaces the value.
    package func set(_ newValue: Value) {
        withLock { $0 = newValue }
    }
}
