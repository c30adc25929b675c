import Foundation

/// The timeout and poll interval of `toEventually`, `toEventuallyNot`, `toNever`, `toAlways` and
/// `waitUntil` when a call gives none. Start from `BDD_EVENTUALLY_TIMEOUT` (1 s) and
/// `BDD_POLL_INTERVAL` (10 ms); set them once, e.g. in a `beforeSuite`:
///
/// ```swift
/// beforeSuite {
///     PollingDefaults.timeout = 3
///     PollingDefaults.pollInterval = 0.05
/// }
/// ```
public enum PollingDefaults {
    private static let values = Locked((timeout: SpecSettings.eventuallyTimeout, interval: SpecSettings.pollInterval))

    /// Seconds to wait (or, for `toNever`/`toAlways`, to watch). Non-positive values are ignored.
    public static var timeout: TimeInterval {
        get { values.withLock { $0.timeout } }
        set { if newValue > 0, newValue.isFinite { values.withLock { $0.timeout = newValue } } }
    }

    /// Seconds between two evaluations. Non-positive values are ignored.
    public static var pollInterval: TimeInterval {
        get { values.withLock { $0.interval } }
        set { if newValue > 0, newValue.isFinite { values.withLock { $0.interval = newValue } } }
    }
}
