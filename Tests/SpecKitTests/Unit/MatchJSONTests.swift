import Foundation
import XCTest

private struct Payload: Encodable {
    var id: Int
    var tags: [String]
}

/// `matchJSON` compares JSON structurally and lists differences by path.
final class MatchJSONTests: XCTestCase {
    private func result(_ actual: String, _ expected: String) throws -> MatchResult {
        let matcher: Matcher<String> = matchJSON(expected)
        return try matcher.evaluate(actual)
    }

    func testKeyOrderWhitespaceAndNumberSpellingDoNotMatter() throws {
        XCTAssertTrue(try result(#"{"a": 1, "b": [true, null, "x"]}"#, #"{"b":[true,null,"x"],"a":1.0}"#).passes(.to))
        XCTAssertTrue(try result(#"{"big": 12345678901234567890}"#, #"{"big": 1.2345678901234567890e19}"#).passes(.to))
    }

    func testDifferencesAreListedByPath() throws {
        let outcome = try result(
            #"{"stories": [{"id": 1, "title": "A"}, {"id": 2, "title": "X", "extra": true}], "page": 1}"#,
            #"{"stories": [{"id": 1, "title": "A"}, {"id": 2, "title": "B"}, {"id": 3, "title": "C"}], "total": 3, "first name": "Ada", "page": 1}"#
        )
        XCTAssertFalse(outcome.passes(.to))
        let lines = outcome.message(for: .to).components(separatedBy: "\n")
        XCTAssertTrue(lines[0].hasPrefix("expected to match JSON <{\"stories\":[{\"id\":1,"), lines[0])
        XCTAssertTrue(lines[0].hasSuffix(", got 5 differences"), lines[0])
        XCTAssertEqual(
            Array(lines.dropFirst()),
            [
                #"$.stories[1].title: expected "B", got "X""#,
                #"$.stories[1].extra: unexpected key, got true"#,
                #"$.stories[2]: missing, expected {"id":3,"title":"C"}"#,
                #"$.total: missing, expected 3"#,
                #"$["first name"]: missing, expected "Ada""#,
            ])
    }

    func testTypeChangesAndArrayLengths() throws {
        let lines = try result(#"{"a": "1", "b": [1, 2, 3]}"#, #"{"a": 1, "b": [1, 2]}"#)
            .message(for: .to).components(separatedBy: "\n").dropFirst()
        XCTAssertEqual(Array(lines), [#"$.a: expected 1, got "1""#, "$.b[2]: unexpected element, got 3"])
    }

    func testInvalidJSONIsReportedWithItsPosition() throws {
        let actual = try result("{\n  \"a\": 1,\n  \"b\" 2\n}", #"{"a": 1}"#)
        XCTAssertEqual(actual.status, .failsRegardless)
        XCTAssertTrue(
            actual.message(for: .to).hasSuffix(
                #"got text that is not JSON: invalid JSON at line 3, column 7 (byte 18): expected ':' after the key "b", got '2'"#),
            actual.message(for: .to))
        let expected = try result(#"{"a": 1}"#, #"{"a": tru}"#)
        XCTAssertTrue(
            expected.message(for: .to).contains("the expected JSON is itself invalid: invalid JSON at line 1, column 7"),
            expected.message(for: .to))
    }

    func testMissingCommasAreReportedWhereTheNextItemStarts() throws {
        XCTAssertEqual(
            try notJSON(Array("[1 2]".utf8)),
            "invalid JSON at line 1, column 4 (byte 3): expected ',' or ']' after an array element, got '2'")
        XCTAssertEqual(
            try notJSON(Array(#"{"a": 1 "b": 2}"#.utf8)),
            #"invalid JSON at line 1, column 9 (byte 8): expected ',' or '}' after an object member, got '"'"#)
    }

    /// What the package's one JSON parser accepts, as `matchJSON` sees it (the actual text).
    private func notJSON(_ actual: [UInt8]) throws -> String {
        let matcher: Matcher<Data> = matchJSON("[]")
        let outcome = try matcher.evaluate(Data(actual))
        XCTAssertEqual(outcome.status, .failsRegardless)
        return outcome.message(for: .to).components(separatedBy: "got text that is not JSON: ").last ?? ""
    }

    func testEmptyTrailingAndBadlyEncodedTextIsRejectedWithItsPlace() throws {
        XCTAssertEqual(
            try notJSON([]), "invalid JSON at line 1, column 1 (byte 0): the document is empty; expected a JSON value")
        XCTAssertEqual(
            try notJSON(Array(" \n  ".utf8)),
            "invalid JSON at line 2, column 3 (byte 4): the document is empty; expected a JSON value")
        XCTAssertEqual(
            try notJSON(Array("[] x".utf8)),
            "invalid JSON at line 1, column 4 (byte 3): unexpected 'x' after the end of the JSON value")
        // Invalid UTF-8 used to be read as U+FFFD; it is an error now.
        XCTAssertEqual(
            try notJSON(Array(#"["é", ""#.utf8) + [0xFF, 0x22, 0x5D]),
            "invalid JSON at line 1, column 8 (byte 8): invalid UTF-8 byte")
        XCTAssertEqual(
            try notJSON(Array(#"["\udc00"]"#.utf8)),
            #"invalid JSON at line 1, column 3 (byte 2): unpaired surrogate in \u escape"#)
        XCTAssertEqual(
            try notJSON(Array(#"["\ud83d x"]"#.utf8)),
            #"invalid JSON at line 1, column 3 (byte 2): unpaired surrogate in \u escape"#)
    }

    func testWhitespaceAndALeadingByteOrderMarkAreAllowed() throws {
        let matcher: Matcher<Data> = matchJSON(#"{"ok": true}"#)
        XCTAssertTrue(try matcher.evaluate(Data(" \r\n\t{\"ok\":true}\n ".utf8)).passes(.to))
        XCTAssertTrue(try matcher.evaluate(Data([0xEF, 0xBB, 0xBF] + Array(#"{"ok":true}"#.utf8))).passes(.to))
    }

    func testNestingIsLimitedTo512Containers() throws {
        let deepest = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        XCTAssertTrue(try result(deepest, deepest).passes(.to))
        let tooDeep = "[" + deepest + "]"
        XCTAssertEqual(
            try notJSON(Array(tooDeep.utf8)),
            "invalid JSON at line 1, column 513 (byte 512): nesting is deeper than 512 levels")
    }

    func testDataAndEncodableForms() throws {
        let data: Matcher<Data> = matchJSON(#"{"ok": true}"#)
        XCTAssertTrue(try data.evaluate(Data(#"{ "ok" : true }"#.utf8)).passes(.to))
        let encoded: Matcher<Payload> = matchJSON(#"{"tags": ["a"], "id": 7}"#)
        XCTAssertTrue(try encoded.evaluate(Payload(id: 7, tags: ["a"])).passes(.to))
        XCTAssertFalse(try encoded.evaluate(Payload(id: 8, tags: ["a"])).passes(.to))
    }

    func testStringsWithEscapesAndUnicode() throws {
        XCTAssertTrue(try result(#"{"s": "caf\u00e9 \"q\" \ud83d\ude00"}"#, #"{"s": "café \"q\" 😀"}"#).passes(.to))
    }
}
