/// Passes when evaluating the expression throws any error:
/// `expect { try decode(Story.self, fromJSON: "{}") }.to(throwError())`.
public func throwError<T>() -> Matcher<T> {
    errorMatcher("throw an error") { _ in true }
}

/// Passes when the expression throws an error equal to `error`.
public func throwError<T, E: Error & Equatable>(_ error: E) -> Matcher<T> {
    errorMatcher("throw error <\(error)>") { ($0 as? E) == error }
}

/// Passes when the expression throws an error of type `type`.
public func throwError<T, E: Error>(_ type: E.Type) -> Matcher<T> {
    errorMatcher("throw an error of type <\(ValueDump.name(of: type))>") { $0 is E }
}

/// Passes when the expression throws an error whose description contains
/// `text`: `throwError(containing: "type mismatch (Int) at stories[2].id")`.
public func throwError<T>(containing text: String) -> Matcher<T> {
    errorMatcher("throw an error containing \(describeValue(text))") {
        ErrorText.failureMessage(for: $0).contains(text) || String(describing: $0).contains(text)
    }
}

private func errorMatcher<T>(_ expectation: String, _ test: @escaping (Error) -> Bool) -> Matcher<T> {
    thrownErrorMatcher(expectation) { (test($0), nil) }
}

/// Fails when the expression returns; else `judge` decides on the thrown error (and may explain why).
private func thrownErrorMatcher<T>(
    _ expectation: String, _ judge: @escaping (Error) -> (matches: Bool, details: String?)
) -> Matcher<T> {
    Matcher { actual in
        do {
            let value = try actual.evaluate()
            let got = T.self == Void.self ? "no error" : "no error (value \(describeValue(value)))"
            return MatchResult(false, expectation: expectation, actual: got)
        } catch {
            let verdict = judge(error)
            return MatchResult(
                verdict.matches, expectation: expectation, actual: ErrorText.describe(error), details: verdict.details)
        }
    }
}

/// Passes when the expression throws; `check` then inspects the error with expectations of its
/// own, and their failures become this matcher's details:
/// ```swift
/// expect { try client.login(password: "") }.to(throwError { error in
///     expect(error).to(beAKindOf(APIError.self))
/// })
/// ```
public func throwError<T>(_ check: @escaping (Error) -> Void) -> Matcher<T> {
    inspectingErrorMatcher("throw an error that passes the checks") { error in
        captureFailures { check(error) }
    }
}

/// Passes when the expression throws an error of type `type` that passes `check`'s expectations:
/// `throwError(errorType: APIError.self) { expect($0.status).to(equal(401)) }`. As in Nimble the
/// closure is optional (`throwError(errorType: APIError.self)` checks the type only) and may throw;
/// an error it throws is reported as one of the failed checks.
public func throwError<T, E: Error>(errorType type: E.Type, closure check: ((E) throws -> Void)? = nil) -> Matcher<T> {
    let name = ValueDump.name(of: type)
    guard let check else { return throwError(type) }
    return inspectingErrorMatcher("throw an error of type <\(name)> that passes the checks") { error in
        guard let typed = error as? E else { return ["the error is not a \(name)"] }
        var thrown: Error?
        let failures = captureFailures {
            do { try check(typed) } catch { thrown = error }
        }
        return failures + (thrown.map { ["the checks threw " + ErrorText.describe($0)] } ?? [])
    }
}

private func inspectingErrorMatcher<T>(_ expectation: String, _ inspect: @escaping (Error) -> [String]) -> Matcher<T> {
    thrownErrorMatcher(expectation) { error in
        let failures = inspect(error)
        return (failures.isEmpty, failures.isEmpty ? nil : failures.map { "  " + $0 }.joined(separator: "\n"))
    }
}
