import Foundation

// Nimble spells its waits `toEventually(…, timeout: .seconds(2))`, `toNever(…, until: .milliseconds(100))`,
// `waitUntil(timeout: .seconds(2))` — the spellings of Swift's `Duration`. SpecKit's waits take
// seconds as `TimeInterval`; these static members give `TimeInterval` the same spellings, so such a
// spec compiles unchanged and plain numbers (`timeout: 2`) and `TimeInterval` values keep working.
//
// Members, not `Duration` overloads of every waiting call: an overload is one more candidate the
// type checker tries at each call site (measured: +8% constraint scopes for a `toEventually` with a
// literal timeout, +84% for a `waitUntil(timeout: 2) { … }`), while a member costs only the calls
// that spell it (see CHANGELOG, issue 26). They live in SpecKit, which only test targets link.

extension TimeInterval {
    /// `timeout: .seconds(2)` is `timeout: 2`.
    public static func seconds(_ value: Double) -> TimeInterval { value }
    /// `timeout: .seconds(n)` for an integer `n`.
    @_disfavoredOverload
    public static func seconds<T: BinaryInteger>(_ value: T) -> TimeInterval { TimeInterval(value) }

    /// `until: .milliseconds(100)` is `until: 0.1`.
    public static func milliseconds(_ value: Double) -> TimeInterval { value / 1_000 }
    /// `until: .milliseconds(n)` for an integer `n`.
    @_disfavoredOverload
    public static func milliseconds<T: BinaryInteger>(_ value: T) -> TimeInterval { TimeInterval(value) / 1_000 }

    /// `pollInterval: .microseconds(500)` is `pollInterval: 0.0005`.
    public static func microseconds(_ value: Double) -> TimeInterval { value / 1_000_000 }
    /// `pollInterval: .microseconds(n)` for an integer `n`.
    @_disfavoredOverload
    public static func microseconds<T: BinaryInteger>(_ value: T) -> TimeInterval { TimeInterval(value) / 1_000_000 }

    /// `.nanoseconds(n)`, as Nimble and `Duration` spell it.
    public static func nanoseconds(_ value: Double) -> TimeInterval { value / 1_000_000_000 }
    /// `.nanoseconds(n)` for an integer `n`.
    @_disfavoredOverload
    public static func nanoseconds<T: BinaryInteger>(_ value: T) -> TimeInterval { TimeInterval(value) / 1_000_000_000 }

    /// A Swift `Duration` in seconds: `timeout: .duration(.seconds(2))`, or `timeout: .duration(limit)`
    /// for a `Duration` you already have.
    public static func duration(_ value: Duration) -> TimeInterval {
        let parts = value.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
