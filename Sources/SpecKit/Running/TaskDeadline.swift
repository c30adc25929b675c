import Foundation

/// Waits for a task, but not forever: Swift Testing has no `XCTWaiter`, and an abandoned
/// scenario must not hold the next one (``ScenarioGate``) hostage.
enum TaskDeadline {
    /// True when `task` finished within `seconds`; false when the time ran out first (the task
    /// is left running: cancelling it is the caller's decision).
    static func finishes(_ task: Task<Void, Never>, within seconds: TimeInterval) async -> Bool {
        let pending = Locked<CheckedContinuation<Bool, Never>?>(nil)
        let timer = Locked<Task<Void, Never>?>(nil)
        @Sendable func resume(_ finished: Bool) {
            let continuation = pending.withLock { slot -> CheckedContinuation<Bool, Never>? in
                defer { slot = nil }
                return slot
            }
            continuation?.resume(returning: finished)
        }
        return await withCheckedContinuation { continuation in
            pending.withLock { $0 = continuation }
            let nanoseconds = UInt64(max(0, min(seconds, 1e9)) * 1_000_000_000)
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(nanoseconds: nanoseconds)
                    if !Task.isCancelled { resume(false) }
                }
            }
            Task {
                await task.value
                // The timer sleeps up to BDD_SCENARIO_TIMEOUT (10 minutes by default): stop it.
                timer.withLock { $0?.cancel() }
                resume(true)
            }
        }
    }
}
