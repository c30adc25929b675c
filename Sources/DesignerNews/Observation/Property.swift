import Foundation

/// A value that changes over time: read `value` now, or `observe` it to get the current value at
/// once and every change after (ReactiveSwift's `Property.producer`). A view model owns the
/// ``MutableProperty`` and hands out this read-only view.
///
/// ```swift
/// let isLoading = MutableProperty(false)
/// let output = Property(isLoading)
/// output.observe { print($0) }   // prints "false"
/// isLoading.value = true         // prints "true"
/// isLoading.value = true         // nothing: equal values are not sent again
/// ```
/// Thread-safe; observers run on the writer's thread, outside the lock.
public final class Property<Value: Sendable>: Sendable {
    private let source: MutableProperty<Value>

    /// A read-only view of `source`.
    public init(_ source: MutableProperty<Value>) {
        self.source = source
    }

    /// A property that never changes.
    public convenience init(value: Value) {
        self.init(MutableProperty(value))
    }

    /// The current value.
    public var value: Value { source.value }

    /// Calls `observer` with the current value now and with every change after.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (Value) -> Void) -> ObservationToken {
        source.observe(observer)
    }

    /// Only the changes, without the current value (ReactiveSwift's `Property.signal`).
    public var signal: Signal<Value> { source.signal }
}

/// The writable side of a ``Property``. Setting a value equal to the current one (for
/// `Equatable` values) sends nothing, like ReactiveSwift's `skipRepeats`.
public final class MutableProperty<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    private let changes: (signal: Signal<Value>, send: @Sendable (Value) -> Void)
    private let isDuplicate: @Sendable (Value, Value) -> Bool

    public init(_ initial: Value) {
        storage = Locked(initial)
        changes = Signal<Value>.pipe()
        isDuplicate = { _, _ in false }
    }

    public init(_ initial: Value) where Value: Equatable {
        storage = Locked(initial)
        changes = Signal<Value>.pipe()
        isDuplicate = { $0 == $1 }
    }

    /// The current value; setting it notifies observers when it changed.
    public var value: Value {
        get { storage.snapshot }
        set {
            let changed = storage.withLock { current -> Bool in
                guard !isDuplicate(current, newValue) else { return false }
                current = newValue
                return true
            }
            if changed { changes.send(newValue) }
        }
    }

    /// Changes the value in place: `rows.modify { $0[2].voteCount += 1 }`.
    public func modify(_ update: (inout Value) -> Void) {
        var copy = value
        update(&copy)
        value = copy
    }

    /// Calls `observer` with the current value now and with every change after.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (Value) -> Void) -> ObservationToken {
        // Read and register under the value's lock, so no change slips in between; a change
        // made by another thread while the current value is delivered may arrive first.
        let (current, token) = storage.withLock { value in (value, changes.signal.observe(observer)) }
        observer(current)
        return token
    }

    /// Only the changes.
    public var signal: Signal<Value> { changes.signal }
}
