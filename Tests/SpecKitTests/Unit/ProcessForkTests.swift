import XCTest

@testable import SpecKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child `throwAssertion` forks must die by its signal at once. The Swift runtime installs a crash
/// handler in every process (it starts `swift-backtrace`); inherited by the child, it made a trap take
/// seconds (past the 10 s limit on a loaded machine) and left a `swift-backtrace` holding the test's
/// output pipe, so `swift test` waited forever after the tests had finished.
final class ProcessForkTests: XCTestCase {
    func testTheForkedChildHasTheDefaultActionForEveryCrashSignal() {
        let outcome = TrapProbe.run {
            for (index, signalNumber) in ProcessFork.crashSignals.enumerated() {
                // `signal` returns the handler it replaces: nil is SIG_DFL.
                if signal(signalNumber, SIG_DFL) != nil { ProcessFork.exitImmediately(Int32(40 + index)) }
            }
        }
        XCTAssertEqual(outcome, .returned, "exited(40 + n): the child still had a handler for ProcessFork.crashSignals[n]")
    }
}
