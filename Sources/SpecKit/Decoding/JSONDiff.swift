import Foundation
// RehearsalJSON: `JSONValue`, the order-keeping tree `StrictJSON.Parser` returns.
import RehearsalJSON
import SpecKitAppSupport

/// Structural JSON comparison: object key order is ignored, array order is
/// not, numbers compare by value (`1` equals `1.0`). Each difference names its
/// path: `$.stories[2].title: expected "A", got "B"`.
enum JSONDiff {
    static func differences(expected: JSONValue, actual: JSONValue, path: String = "$") -> [String] {
        switch (expected, actual) {
        case (.object(let expectedMembers), .object(let actualMembers)):
            var out: [String] = []
            let actualByKey = Dictionary(actualMembers.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            let expectedKeys = Set(expectedMembers.map(\.key))
            for member in expectedMembers {
                let childPath = path + component(member.key)
                if let value = actualByKey[member.key] {
                    out += differences(expected: member.value, actual: value, path: childPath)
                } else {
                    out.append("\(childPath): missing, expected \(show(member.value))")
                }
            }
            for member in actualMembers where !expectedKeys.contains(member.key) {
                out.append("\(path + component(member.key)): unexpected key, got \(show(member.value))")
            }
            return out
        case (.array(let expectedItems), .array(let actualItems)):
            var out: [String] = []
            for index in 0..<max(expectedItems.count, actualItems.count) {
                let childPath = "\(path)[\(index)]"
                if index >= actualItems.count {
                    out.append("\(childPath): missing, expected \(show(expectedItems[index]))")
                } else if index >= expectedItems.count {
                    out.append("\(childPath): unexpected element, got \(show(actualItems[index]))")
                } else {
                    out += differences(expected: expectedItems[index], actual: actualItems[index], path: childPath)
                }
            }
            return out
        case (.number(let a), .number(let b)):
            return numbersEqual(a.text, b.text) ? [] : ["\(path): expected \(a), got \(b)"]
        case (.string(let a), .string(let b)) where a == b: return []
        case (.bool(let a), .bool(let b)) where a == b: return []
        case (.null, .null): return []
        default:
            return ["\(path): expected \(show(expected)), got \(show(actual))"]
        }
    }

    /// `.title` for plain keys, `["first name"]` otherwise.
    static func component(_ key: String) -> String {
        let plain =
            key.first.map { $0.isLetter || $0 == "_" } == true
            && key.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
        return plain ? "." + key : "[" + JSONValue.string(key).compactText + "]"
    }

    static func show(_ value: JSONValue) -> String {
        let text = value.compactText
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    private static func numbersEqual(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        if let x = Decimal(string: a, locale: Locale(identifier: "en_US_POSIX")),
            let y = Decimal(string: b, locale: Locale(identifier: "en_US_POSIX"))
        {
            return x == y
        }
        return Double(a) == Double(b)
    }
}

/// Passes when the JSON text is structurally equal to `expected` (key order
/// and whitespace ignored). The message lists each difference by path:
/// ```
/// expected to match JSON <{"stories":[…]}>, got 1 difference
/// $.stories[2].title: expected "A", got "B"
/// ```
public func matchJSON(_ expected: String) -> Matcher<String> {
    jsonMatcher(expected) { try StrictJSON.Parser.parse($0) }
}

/// Passes when the JSON data is structurally equal to `expected`.
public func matchJSON(_ expected: String) -> Matcher<Data> {
    jsonMatcher(expected) { try StrictJSON.Parser.parse($0) }
}

/// Passes when the value encodes (with `encoder`) to JSON structurally equal to `expected`.
public func matchJSON<T: Encodable>(_ expected: String, encoder: JSONEncoder = JSONEncoder()) -> Matcher<T> {
    jsonMatcher(expected) { try StrictJSON.Parser.parse(try encoder.encode($0)) }
}

private func jsonMatcher<Input>(_ expectedText: String, _ parse: @escaping (Input) throws -> JSONValue) -> Matcher<Input> {
    Matcher { actual in
        let expected: JSONValue
        do {
            expected = try StrictJSON.Parser.parse(expectedText)
        } catch {
            return MatchResult(
                status: .failsRegardless, expectation: "match JSON", actual: nil,
                details: "the expected JSON is itself invalid: \(error)")
        }
        let expectation = "match JSON <\(JSONDiff.show(expected))>"
        guard let input = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        let value: JSONValue
        do {
            value = try parse(input)
        } catch {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "text that is not JSON: \(error)")
        }
        let differences = JSONDiff.differences(expected: expected, actual: value)
        let limit = 50
        var lines = Array(differences.prefix(limit))
        if differences.count > limit { lines.append("… \(differences.count - limit) more differences") }
        let count = "\(differences.count) difference\(differences.count == 1 ? "" : "s")"
        return MatchResult(
            differences.isEmpty, expectation: expectation,
            actual: differences.isEmpty ? "<\(JSONDiff.show(value))>" : count, details: lines.joined(separator: "\n"))
    }
}
