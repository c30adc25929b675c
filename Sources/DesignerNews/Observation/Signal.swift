import Foundation

/// A stream of events a view model sends to whoever observes it (a view, a `TestObserver`),
/// in the spirit of ReactiveSwift's `Signal` that Kickstarter's view models output.
///
/// ```swift
/// let (tapped, sendTapped) = Signal<URL>.pipe()
/// let token = tapped.observe { url in print("open", url) }
/// sendTapped(URL(string: "https://example.com")!)   // prints "open https://example.com"
/// token.dispose()
/// ```
/// Observing and sending are thread-safe; observers are called on the sender's thread, in the
/// order they were added, outside the lock (so an observer may observe or send again).
public final class Signal<Value: Sendable>: Sendable {
    public typealias Observer = @Sendable (Value) -> Void

    private struct Registry {
        var nextID = 0
        var observers: [(id: Int, observer: Observer)] = []
    }

    private let registry = Locked(Registry())

    init() {}

    /// A signal and the function that sends on it; keep the function private to the view model.
    public static func pipe() -> (signal: Signal<Value>, send: @Sendable (Value) -> Void) {
        let signal = Signal<Value>()
        return (signal, { [signal] value in signal.send(value) })
    }

    /// Calls `observer` with every value sent from now on.
    @discardableResult
    public func observe(_ observer: @escaping Observer) -> ObservationToken {
        let id = registry.withLock { registry -> Int in
            defer { registry.nextID += 1 }
            registry.observers.append((registry.nextID, observer))
            return registry.nextID
        }
        return ObservationToken { [weak self] in
            self?.registry.withLock { $0.observers.removeAll { $0.id == id } }
        }
    }

    /// How many observers are attached.
    public var observerCount: Int {
        registry.withLock { $0.observers.count }
    }

    func send(_ value: Value) {
        let observers = registry.withLock { $0.observers.map(\.observer) }
        for observer in observers {
            observer(value)
        }
    }
}

/// Stops an observation when disposed (or never, if you drop it: outputs live as long as
/// their view model).
public final class ObservationToken: Sendable {
    private let onDispose: Locked<(@Sendable () -> Void)?>

    init(_ onDispose: @escaping @Sendable () -> Void) {
        self.onDispose = Locked(onDispose)
    }

    /// Removes the observer; later calls do nothing.
    public func dispose() {
        let action = onDispose.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}
