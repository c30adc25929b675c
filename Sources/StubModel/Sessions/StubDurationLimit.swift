/// The longest latency, cookie max age or CORS max age a stub may have: what the config decoder
/// accepts and the moco encoding writes.
package enum StubDurationLimit {
    /// Far beyond any use, and small enough that every later conversion (nanoseconds in a
    /// UInt64 timer, dates) is exact.
    package static let maximumSeconds: Double = 100 * 365 * 86_400
    package static let maximumDescription = "100 years (3153600000 seconds)"
}
