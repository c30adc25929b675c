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
    Matcher { actual in
        do {
            let value = try actual.evaluate()
            let got = T.self == Void.self ? "no error" : "no error (value \(describeValue(value)))"
            return MatchResult(false, expectation: expectation, actual: got)
        } catch {
            return MatchResult(test(error), expectation: expectation, actual: ErrorText.describe(error))
        }
    }
}
