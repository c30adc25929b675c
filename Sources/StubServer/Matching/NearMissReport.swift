/// The body of the 400 an unmatched request gets: the request, the closest stub, and each of
/// its conditions with what was expected and what the request had (WireMock's near miss).
///
/// ```
/// No stub matched POST /oauth/token
///
/// Closest stub: Stubs/login_conf.json#0 (login with the QA account)
///   ✓ method: "POST"
///   ✓ uri: "/oauth/token"
///   ✗ forms.password: expected "secret", got "wrong"
/// ```
enum NearMissReport {
    /// Bodies never grow past this (about 8 KiB), whatever the stub or request.
    static let maximumBytes = 8 * 1024
    static let maximumConditions = 24

    static func body(for view: RequestView, stubs: [CompiledStub]) -> String {
        let target = clip(String(decoding: Array(view.request.target.utf8.prefix(300)), as: UTF8.self), to: 300)
        var lines = ["No stub matched \(clip(view.request.method, to: 20)) \(target)", ""]
        let candidates = stubs.filter { !$0.conditions.isEmpty }
        guard let closest = closestStub(view, among: candidates) else {
            lines.append(stubs.isEmpty ? "No stubs are loaded." : "No stub has request conditions to compare with.")
            return finish(lines)
        }
        var heading = "Closest stub: \(closest.reference)"
        if let summary = closest.summary, !summary.isEmpty { heading += " (\(clip(summary, to: 120)))" }
        lines.append(heading)
        var failed = 0
        for (offset, condition) in closest.conditions.enumerated() {
            guard offset < maximumConditions else {
                lines.append("  … and \(closest.conditions.count - offset) more conditions")
                break
            }
            if condition.matches(view) {
                lines.append("  ✓ \(condition.label): \(condition.expectation)")
            } else {
                failed += 1
                lines.append("  ✗ \(condition.label): expected \(condition.expectation), got \(condition.actual(view))")
            }
        }
        lines.append("")
        // A REST resource compiles to several stubs under one reference: count sessions.
        var sessions = 0
        for index in candidates.indices where index == 0 || candidates[index].reference != candidates[index - 1].reference { sessions += 1 }
        let plural = sessions == 1 ? "" : "s"
        lines.append("\(sessions) stub\(plural) with request conditions compared; the closest failed \(failed) of \(closest.conditions.count).")
        return finish(lines)
    }

    private static func finish(_ lines: [String]) -> String {
        var text = lines.joined(separator: "\n") + "\n"
        if text.utf8.count > maximumBytes {
            text = String(decoding: Array(text.utf8.prefix(maximumBytes - 20)), as: UTF8.self) + "\n… (truncated)\n"
        }
        return text
    }

    /// The stub with the largest share of matching conditions (uri and method weigh most);
    /// ties go to the stub written first.
    static func closestStub(_ view: RequestView, among stubs: [CompiledStub]) -> CompiledStub? {
        var best: (stub: CompiledStub, score: Double)?
        for stub in stubs {
            var matched = 0.0
            var total = 0.0
            for condition in stub.conditions {
                let weight: Double
                switch condition.test {
                case .uri, .uriWithin: weight = 4
                case .method: weight = 2
                default: weight = 1
                }
                total += weight
                if condition.matches(view) { matched += weight }
            }
            let score = total == 0 ? 0 : matched / total
            if best == nil || score > best!.score { best = (stub, score) }
        }
        return best?.stub
    }
}
