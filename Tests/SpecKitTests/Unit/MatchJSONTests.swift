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
                #"got text that is not JSON: invalid JSON at line 3, column 7 (byte 18): expected ':' after object key "b""#),
            actual.message(for: .to))
        let expected = try result(#"{"a": 1}"#, #"{"a": tru}"#)
        XCTAssertTrue(
            expected.message(for: .to).contains("the expected JSON is itself invalid: invalid JSON at line 1, column 7"),
            expected.message(for: .to))
    }

    func testMissingCommasAreReportedWhereTheNextItemStarts() throws {
        XCTAssertTrue(
            try result("[1 2]", "[1]").message(for: .to).hasSuffix(
                "invalid JSON at line 1, column 4 (byte 3): expected ',' or ']' in array"))
        XCTAssertTrue(
            try result(#"{"a": 1 "b": 2}"#, #"{"a": 1}"#).message(for: .to).hasSuffix(
                "invalid JSON at line 1, column 9 (byte 8): expected ',' or '}' in object"))
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
