import Foundation

/// How many requests each stub answered since the start (or the last reset), for the
/// dashboard's stub list. Unlike the journal it forgets nothing, so counts stay right however
/// many requests the bounded journal has dropped; it holds one number per stub that answered.
final class StubHitCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [StubReference: Int] = [:]

    func count(_ stub: StubReference) {
        lock.lock()
        counts[stub, default: 0] += 1
        lock.unlock()
    }

    /// Hits by stub id (`Stubs/login_conf.json#0`, `admin-3`).
    var byID: [String: Int] {
        lock.lock(); defer { lock.unlock() }
        var result: [String: Int] = [:]
        for (stub, count) in counts { result[stub.description, default: 0] += count }
        return result
    }

    func reset() {
        lock.lock()
        counts = [:]
        lock.unlock()
    }
}

/// The outcome of the last configuration reload, shown by the dashboard (a broken hot edit
/// stays on screen until a good one replaces it).
struct ReloadStatus: Sendable {
    var succeeded: Bool
    var time: Date
    /// One line per problem (`stubs.json: [0].request.metod: unknown key …`); empty on success.
    var problems: [String]

    var json: JSONValue {
        [
            "ok": .bool(succeeded), "time": .string(RecordedRequest.timeFormat(time)),
            "problems": .array(problems.map(JSONValue.string)),
        ]
    }
}
