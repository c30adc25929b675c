import Foundation

/// Where the app keeps small values between launches (the access token). The app would use the
/// keychain; specs use ``InMemoryKeyValueStore``.
///
/// ```swift
/// let store = InMemoryKeyValueStore()
/// store.set("b4f1…", forKey: AppEnvironment.accessTokenKey)
/// store.string(forKey: AppEnvironment.accessTokenKey)   // "b4f1…"
/// ```
public protocol KeyValueStore: Sendable {
    func string(forKey key: String) -> String?
    func set(_ value: String?, forKey key: String)
}

/// A ``KeyValueStore`` in memory, thread-safe. Each instance starts empty.
public final class InMemoryKeyValueStore: KeyValueStore {
    private let values: Locked<[String: String]>

    public init(_ values: [String: String] = [:]) {
        self.values = Locked(values)
    }

    public func string(forKey key: String) -> String? {
        values.withLock { $0[key] }
    }

    /// Stores `value`; nil removes the key.
    public func set(_ value: String?, forKey key: String) {
        values.withLock { $0[key] = value }
    }

    /// Every stored key and value.
    public var allValues: [String: String] {
        values.snapshot
    }
}
