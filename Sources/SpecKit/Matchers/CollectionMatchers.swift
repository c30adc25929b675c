import Foundation

/// Passes when the collection (or string, or dictionary) has no elements.
public func beEmpty<C: Collection>() -> Matcher<C> {
    Matcher("be empty") { $0.isEmpty }
}

/// Passes when the collection has exactly `count` elements.
public func haveCount<C: Collection>(_ count: Int) -> Matcher<C> {
    .requiringValue("have count <\(count)>") { value in
        (value.count == count, "count <\(value.count)>: \(describeValue(value))")
    }
}

/// Passes when the sequence contains every one of `items`.
public func contain<S: Sequence>(_ items: S.Element...) -> Matcher<S> where S.Element: Equatable {
    containAll(items)
}

/// Passes when the sequence contains every element of `items`: `expect(tags).to(contain(["swift", "ios"]))`.
public func contain<S: Sequence>(_ items: [S.Element]) -> Matcher<S> where S.Element: Equatable {
    containAll(items)
}

private func containAll<S: Sequence>(_ items: [S.Element]) -> Matcher<S> where S.Element: Equatable {
    .requiringValue("contain \(describeList(items))") { value in
        let elements = Array(value)
        let missing = items.filter { !elements.contains($0) }
        let got = describeValue(elements) + (missing.isEmpty || items.count == 1 ? "" : " (missing \(describeList(missing)))")
        return (missing.isEmpty, got)
    }
}

/// Passes when the string contains every one of `substrings`.
public func contain(_ substrings: String...) -> Matcher<String> {
    Matcher("contain \(describeList(substrings))") { value in substrings.allSatisfy(value.contains) }
}

/// Passes when the sequence's first element is `element`.
public func beginWith<S: Sequence>(_ element: S.Element) -> Matcher<S> where S.Element: Equatable {
    .requiringValue("begin with \(describeValue(element))") { value in
        var iterator = value.makeIterator()
        return (iterator.next() == element, describeValue(Array(value)))
    }
}

/// Passes when the string starts with `prefix`.
public func beginWith(_ prefix: String) -> Matcher<String> {
    Matcher("begin with \(describeValue(prefix))") { $0.hasPrefix(prefix) }
}

/// Passes when the collection's last element is `element`.
public func endWith<C: BidirectionalCollection>(_ element: C.Element) -> Matcher<C> where C.Element: Equatable {
    .requiringValue("end with \(describeValue(element))") { ($0.last == element, describeValue(Array($0))) }
}

/// Passes when the string ends with `suffix`.
public func endWith(_ suffix: String) -> Matcher<String> {
    Matcher("end with \(describeValue(suffix))") { $0.hasSuffix(suffix) }
}

/// Passes when the regular expression finds a match anywhere in the string
/// (anchor it with `^…$` to match the whole string).
public func match(_ pattern: String) -> Matcher<String> {
    Matcher { actual in
        let expectation = "match /\(pattern)/"
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            return MatchResult(
                status: .failsRegardless, expectation: expectation, actual: nil,
                details: "/\(pattern)/ is not a valid regular expression")
        }
        guard let value = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        let found = regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
        return MatchResult(found, expectation: expectation, actual: describeValue(value))
    }
}

private func describeList<T>(_ items: [T]) -> String {
    items.count == 1 ? describeValue(items[0]) : items.map { describeValue($0) }.joined(separator: ", ")
}
