/// Named values in the order they were written, built from a dictionary literal: a request's
/// keyed matchers (`KeyedMatchers`) and a template's variables (`TemplateVariables`).
///
/// Unlike a `Dictionary` it keeps the order of the config (reports, encoding and the first
/// failing condition follow it) and compares order-sensitively, like the config text.
///
/// ```swift
/// var headers: KeyedList<TextMatcher> = ["Accept": "application/json"]
/// headers.append("Authorization", .startsWith("Bearer "))
/// for entry in headers { print(entry.key, entry.value) }   // in the order written
/// ```
public struct KeyedList<Value: Sendable & Hashable>: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One name and its value.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: Value
        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) { self.entries = entries }

    public init(dictionaryLiteral elements: (String, Value)...) {
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    public mutating func append(_ key: String, _ value: Value) {
        entries.append(Entry(key: key, value: value))
    }
}
