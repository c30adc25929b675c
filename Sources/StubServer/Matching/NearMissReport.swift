/// The body of the 400 an unmatched request gets: the request, the three closest stubs, and
/// each of their conditions with what was expected and what the request had (WireMock's near
/// miss, three deep, so a newcomer sees the stub they meant even when the ranking's first
/// guess is another).
///
/// ```
/// No stub matched GET /users/octocat/repos
///
/// Closest stub: stubs.json#0 (octocat's repositories)
///   ✓ method: "GET"
///   ✓ uri: "/users/octocat/repos"
///   ✗ queries.type: expected "owner", got nothing
///
/// 2nd closest: stubs.json#1
///   ✓ method: "GET"
///   ✗ uri: expected "/users/nobody/repos", got "/users/octocat/repos"
///
/// 2 stubs with request conditions compared; the closest failed 1 of 3.
/// ```
enum NearMissReport {
    /// Bodies never grow past this (about 8 KiB), whatever the stubs or request.
    static let maximumBytes = 8 * 1024
    /// Conditions listed for the closest stub; the others list fewer.
    static let maximumConditions = 24
    static let maximumConditionsOfOthers = 8

    /// `comparedSessions`: how many sessions with request conditions were ranked (a REST
    /// resource counts once); `anyStubs`: whether any stub is loaded at all.
    static func body(
        for view: RequestView, closest: [(stub: CompiledStub, failed: [RequestCondition])], comparedSessions: Int, anyStubs: Bool
    ) -> String {
        let target = clip(String(decoding: Array(view.request.target.utf8.prefix(300)), as: UTF8.self), to: 300)
        var lines = ["No stub matched \(clip(view.request.method, to: 20)) \(target)", ""]
        guard let first = closest.first else {
            lines.append(anyStubs ? "No stub has request conditions to compare with." : "No stubs are loaded.")
            return finish(lines)
        }
        for (rank, candidate) in closest.enumerated() {
            let stub = candidate.stub
            var heading = rank == 0 ? "Closest stub: \(stub.reference)" : "\(ordinal(rank + 1)) closest: \(stub.reference)"
            if let summary = stub.summary, !summary.isEmpty { heading += " (\(clip(summary, to: 120)))" }
            lines.append(heading)
            let limit = rank == 0 ? maximumConditions : maximumConditionsOfOthers
            for (offset, condition) in stub.conditions.enumerated() {
                guard offset < limit else {
                    lines.append("  … and \(stub.conditions.count - offset) more conditions")
                    break
                }
                if candidate.failed.contains(where: { $0 === condition }) {
                    lines.append("  ✗ \(condition.label): expected \(condition.expectation), got \(condition.actual(view))")
                } else {
                    lines.append("  ✓ \(condition.label): \(condition.expectation)")
                }
            }
            lines.append("")
        }
        let plural = comparedSessions == 1 ? "" : "s"
        lines.append(
            "\(comparedSessions) stub\(plural) with request conditions compared; the closest failed \(first.failed.count) of \(first.stub.conditions.count)."
        )
        return finish(lines)
    }

    static func ordinal(_ number: Int) -> String {
        switch number {
        case 2: "2nd"
        case 3: "3rd"
        default: "\(number)th"
        }
    }

    /// Sessions with request conditions among `stubs` (a REST resource's stubs share one
    /// reference and are adjacent, so they count once).
    static func comparedSessions(_ stubs: [CompiledStub]) -> Int {
        var sessions = 0
        var previous: StubReference?
        for stub in stubs where !stub.conditions.isEmpty {
            if stub.reference != previous { sessions += 1 }
            previous = stub.reference
        }
        return sessions
    }

    private static func finish(_ lines: [String]) -> String {
        var text = lines.joined(separator: "\n") + "\n"
        if text.utf8.count > maximumBytes {
            text = String(decoding: Array(text.utf8.prefix(maximumBytes - 20)), as: UTF8.self) + "\n… (truncated)\n"
        }
        return text
    }
}
