import StubVerification

/// Passes when a stub server checking an OpenAPI document (`stubserver start --openapi`, or
/// `StubServer.Options.openAPI`) saw no exchange that breaks it: no request the real API
/// would reject, no stub response it does not declare. Works with an embedded `StubServer`
/// and a `StubServerClient` (both are `ContractViolationsReporting`).
///
/// ```swift
/// expect(server).to(haveNoContractViolations())
/// ```
///
/// A failure lists each violation:
/// ```
/// expected to have no contract violations, got 1
///   GET /api/v1/stories → 200: request query.pages: undeclared query parameter "pages" (GET /api/v1/stories declares client_id, page)
/// ```
public func haveNoContractViolations<Server: ContractViolationsReporting>() -> Matcher<Server> {
    Matcher { actual in
        let expectation = "have no contract violations"
        guard let server = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        let violations = try server.contractViolations()
        let details = violations.isEmpty ? nil : violations.map { "  \($0)" }.joined(separator: "\n")
        return MatchResult(violations.isEmpty, expectation: expectation, actual: "\(violations.count)", details: details)
    }
}
