import Foundation
import Locking

/// SpecKit's shared state is touched from XCTest's callbacks, which are not actor-isolated, so a
/// plain lock is the honest tool: the package's one `Locked` (target Locking), named here once so
/// SpecKit's files use it without each importing Locking.
typealias Locked<Value> = Locking.Locked<Value>

/// Carries a value across an isolation boundary that the compiler cannot see is
/// safe (XCTest calls SpecKit on the main thread, outside any actor context).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `body` on the main actor from a synchronous, nonisolated caller.
/// XCTest builds its test list and calls test closures on the main thread, so
/// this is normally a plain call; from another thread it hops with `main.sync`.
func onMainActor<Result>(_ body: @MainActor () throws -> Result) rethrows -> Result {
    if Thread.isMainThread || MainQueue.isCurrent {
        return try withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            return try MainActor.assumeIsolated { UncheckedSendable(try box.value()) }.value
        }
    }
    return try withoutActuallyEscaping(body) { body in
        let box = UncheckedSendable(body)
        return try DispatchQueue.main.sync {
            try MainActor.assumeIsolated { UncheckedSendable(try box.value()) }.value
        }
    }
}

/// Whether the caller runs on the main queue. Under Swift Testing on Linux the main
/// queue (and so the main actor) is drained by a worker thread while the main thread
/// sits in `dispatchMain()`, so `Thread.isMainThread` is false there and a
/// `DispatchQueue.main.sync` would deadlock.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}
