import Foundation

/// The current state of every stateful scenario of one server, shared by the file's stubs and
/// the ones added through the admin API, and kept across hot reloads for scenarios that
/// still exist. A scenario nobody moved is in `Started`.
///
/// ```swift
/// let states = ScenarioStates()
/// states.state(of: "cart")                  // "Started"
/// states.set("cart", to: "HasItem")
/// ```
public final class ScenarioStates: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [String: String] = [:]
    /// Names the current stubs mention, in first-seen order (what `all` lists).
    private var known: [String] = []

    public init() {}

    public func state(of name: String) -> String {
        lock.lock(); defer { lock.unlock() }
        return states[name] ?? StubScenario.started
    }

    /// Moves `name` to `state`.
    public func set(_ name: String, to state: String) {
        lock.lock(); defer { lock.unlock() }
        states[name] = state
        if !known.contains(name) { known.append(name) }
    }

    /// Moves `name` from `from` (nil: any state) to `to`, unless another request moved it first.
    func transition(_ name: String, from: String?, to: String) {
        lock.lock(); defer { lock.unlock() }
        if let from, (states[name] ?? StubScenario.started) != from { return }
        states[name] = to
    }

    /// Every scenario the stubs mention (and any set by hand), with its state.
    public var all: [(name: String, state: String)] {
        lock.lock(); defer { lock.unlock() }
        return known.map { ($0, states[$0] ?? StubScenario.started) }
    }

    /// Every scenario back to `Started`.
    public func reset() {
        lock.lock(); defer { lock.unlock() }
        states = [:]
    }

    /// After a reload: the scenarios the stubs now mention; states of the others are dropped.
    func keepOnly(_ names: [String]) {
        lock.lock(); defer { lock.unlock() }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        known = unique
        states = states.filter { unique.contains($0.key) }
    }

    func isKnown(_ name: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return known.contains(name)
    }
}
