import StubVerification

/// Passes when a stub server received requests matching `filter`: exactly `times` of them, or
/// at least one when `times` is nil. Works with an embedded `StubServer` and with a
/// `StubServerClient` talking to a running `stubserver` (both are `ReceivedRequestsVerifying`).
///
/// ```swift
/// expect(server).to(haveReceived(.post("/oauth/token").withFormField("username", "qa@example.com"), times: 1))
/// expect(client).toNot(haveReceived(.get("/api/v1/me")))
/// ```
///
/// A failure lists the closest requests and, for each, which condition differed (WireMock's
/// near misses):
/// ```
/// expected to have received POST /oauth/token with form username=qa@example.com exactly 1 time, got 0 (of 2 requests)
/// Closest requests:
///   POST /oauth/token → 401
///     ✗ forms.username: expected "qa@example.com", got "qa@example.org"
/// ```
public func haveReceived<Server: ReceivedRequestsVerifying>(
    _ filter: RequestFilter, times: Int? = nil, nearMisses: Int = 3
) -> Matcher<Server> {
    Matcher { actual in
        let expectation = "have received \(filter)" + (times.map { " exactly \($0) time\($0 == 1 ? "" : "s")" } ?? "")
        guard let server = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        let report = try server.verifyReceived(filter, nearMisses: nearMisses)
        let matches = times.map { report.matchCount == $0 } ?? (report.matchCount > 0)
        let plural = report.totalCount == 1 ? "" : "s"
        let got = "\(report.matchCount) (of \(report.totalCount) request\(plural))"
        // Near misses explain too few matches; with too many they would only be noise.
        let tooFew = report.matchCount < (times ?? 1)
        return MatchResult(matches, expectation: expectation, actual: got, details: tooFew ? ReceivedRequestsText.details(report) : nil)
    }
}

/// The near-miss lines under a `haveReceived` failure.
enum ReceivedRequestsText {
    static func details(_ report: ReceivedRequestsReport) -> String? {
        guard !report.nearMisses.isEmpty else {
            return report.totalCount == 0 ? "The server received no requests." : nil
        }
        var lines = ["Closest requests:"]
        for miss in report.nearMisses {
            lines.append("  \(miss.request) → \(miss.status)")
            for difference in miss.differences { lines.append("    ✗ \(difference)") }
        }
        return lines.joined(separator: "\n")
    }
}
