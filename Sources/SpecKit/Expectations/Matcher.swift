/// The value under test, evaluated lazily: once for `to`/`toNot` (cached), and
/// afresh on every poll of `toEventually`.
public struct ActualValue<Value> {
    private let closure: () throws -> Value?
    private let cache: Cache?

    private final class Cache {
        var result: Result<Value?, Error>?
    }

    /// Wraps an expression. With `cached`, the expression runs at most once.
    public init(cached: Bool = true, _ expression: @escaping () throws -> Value?) {
        self.closure = expression
        self.cache = cached ? Cache() : nil
    }

    /// A value that is already known.
    public init(_ value: Value?) {
        self.init(cached: false) { value }
    }

    /// The value, or the error the expression threw.
    public func evaluate() throws -> Value? {
        guard let cache else { return try closure() }
        if let result = cache.result { return try result.get() }
        let result = Result { try closure() }
        cache.result = result
        return try result.get()
    }
}

/// Whether a matcher matched, and the words for the failure message.
///
/// A message reads `expected to <expectation>, got <actual>` followed by
/// optional detail lines (a diff), with `not` / `eventually` inserted as needed.
public struct MatchResult {
    public enum Status: Sendable, Equatable {
        case matches
        case doesNotMatch
        /// Fails for `to` and `toNot` alike (e.g. `nil` given to `beGreaterThan`).
        case failsRegardless
    }

    public var status: Status
    /// What was expected, after "expected to": `equal <3>`.
    public var expectation: String
    /// What was found, after "got": `<2>`; `nil` leaves out ", got …".
    public var actual: String?
    /// Extra lines under the first one, such as a diff.
    public var details: String?

    public init(status: Status, expectation: String, actual: String?, details: String? = nil) {
        self.status = status
        self.expectation = expectation
        self.actual = actual
        self.details = details
    }

    public init(_ matches: Bool, expectation: String, actual: String?, details: String? = nil) {
        self.init(status: matches ? .matches : .doesNotMatch, expectation: expectation, actual: actual, details: details)
    }

    public func passes(_ style: ExpectationStyle) -> Bool {
        switch style {
        case .to, .toEventually, .toAlways: status == .matches
        case .toNot, .toEventuallyNot, .toNever: status == .doesNotMatch
        }
    }

    /// `expected to [eventually ][not ]<expectation>, got <actual>` + details.
    public func message(for style: ExpectationStyle) -> String {
        let verb: String
        switch style {
        case .to: verb = "expected to "
        case .toNot: verb = "expected to not "
        case .toEventually: verb = "expected to eventually "
        case .toEventuallyNot: verb = "expected to eventually not "
        case .toNever: verb = "expected to never "
        case .toAlways: verb = "expected to always "
        }
        var text = verb + expectation
        if let actual { text += ", got " + actual }
        if let details, !details.isEmpty, !passesIgnoringDetails(style) { text += "\n" + details }
        return text
    }

    private func passesIgnoringDetails(_ style: ExpectationStyle) -> Bool {
        passes(style)
    }
}

/// How an expectation is phrased.
public enum ExpectationStyle: Sendable, Equatable {
    case to, toNot, toEventually, toEventuallyNot
    /// Polled for a whole duration: never matches / always matches.
    case toNever, toAlways

    var negated: Bool { self == .toNot || self == .toEventuallyNot || self == .toNever }

    /// `toNever`/`toAlways` must hold at every poll until the time is up.
    var holdsForDuration: Bool { self == .toNever || self == .toAlways }
}

/// A reusable check of a value of type `Actual`.
///
/// Write your own in a few lines:
/// ```swift
/// func beEven() -> Matcher<Int> {
///     Matcher("be even") { $0 % 2 == 0 }
/// }
/// expect(4).to(beEven())
/// ```
public struct Matcher<Actual> {
    private let body: (ActualValue<Actual>) throws -> MatchResult

    /// The full form: evaluate the value yourself and describe the outcome.
    public init(_ body: @escaping (ActualValue<Actual>) throws -> MatchResult) {
        self.body = body
    }

    /// The short form: `expectation` reads after "expected to"; `nil` fails
    /// either way with "got <nil>".
    public init(_ expectation: String, _ test: @escaping (Actual) throws -> Bool) {
        self = .requiringValue(expectation) { (try test($0), describeValue($0)) }
    }

    /// The frame most matchers share: `nil` fails either way with "got <nil>"; otherwise `judge`
    /// says whether the value passes and what to print after "got".
    static func requiringValue(
        _ expectation: String, _ judge: @escaping (Actual) throws -> (passes: Bool, got: String)
    ) -> Matcher {
        Matcher { actual in
            guard let value = try actual.evaluate() else {
                return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
            }
            let verdict = try judge(value)
            return MatchResult(verdict.passes, expectation: expectation, actual: verdict.got)
        }
    }

    public func evaluate(_ actual: ActualValue<Actual>) throws -> MatchResult {
        try body(actual)
    }

    /// Evaluates the matcher against a known value (handy in a custom matcher's tests).
    public func evaluate(_ value: Actual?) throws -> MatchResult {
        try body(ActualValue(value))
    }
}

/// `<value>` as SpecKit prints it in messages: strings quoted, dictionary keys
/// sorted, no memory addresses; long values cut with `…`.
public func describeValue<T>(_ value: T?, limit: Int = 200) -> String {
    guard let value else { return "<nil>" }
    let text = ValueDump.line(value)
    if text.count > limit {
        return "<" + text.prefix(limit - 1) + "…>"
    }
    return "<\(text)>"
}
