import Foundation

/// A value guarded by a lock: the one primitive the observation types need.
/// (`Synchronization.Mutex` would do, but it needs macOS 15 / iOS 18.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var snapshot: Value {
        withLock { $0 }
    }
}
