/// Lets one scenario run at a time. Swift Testing runs test cases in parallel, but a
/// scenario's steps, hooks and failure bookkeeping (``RunningScenario/current``) assume
/// they have the process to themselves, as they do under XCTest.
@MainActor
final class ScenarioGate {
    static let shared = ScenarioGate()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
