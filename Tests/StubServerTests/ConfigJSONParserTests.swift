import XCTest

@testable import StubServer

final class ConfigJSONParserTests: XCTestCase {
    func testKeepsKeyOrderAndNumbersAsWritten() throws {
        let value = try JSONValue(parsing: #"{"z": 1, "a": [1.50, -0, 2e3, true, null], "m": "x"}"#)
        XCTAssertEqual(value.objectValue?.keys, ["z", "a", "m"])
        XCTAssertEqual(value.compactText, #"{"z":1,"a":[1.50,-0,2e3,true,null],"m":"x"}"#)
    }

    func testObjectsCompareStructurallyAndIntegersNeverEqualDecimals() throws {
        XCTAssertEqual(try JSONValue(parsing: #"{"a":1,"b":[1,2]}"#), try JSONValue(parsing: #" { "b" : [1, 2], "a" : 1 } "#))
        XCTAssertNotEqual(try JSONValue(parsing: "[1,2]"), try JSONValue(parsing: "[2,1]"))
        XCTAssertNotEqual(try JSONValue(parsing: "1"), try JSONValue(parsing: "1.0"))
        XCTAssertEqual(try JSONValue(parsing: "1.0"), try JSONValue(parsing: "1.00"))
        XCTAssertEqual(try JSONValue(parsing: "-0"), try JSONValue(parsing: "0"))
        XCTAssertNotEqual(try JSONValue(parsing: #"{"a":1}"#), try JSONValue(parsing: #"{"a":1,"b":2}"#))
    }

    func testDecodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue(parsing: #""tab\tquote\" slash\/ \u00e9 \ud83d\ude00""#)
        XCTAssertEqual(value.stringValue, "tab\tquote\" slash/ é 😀")
        XCTAssertEqual(JSONValue.string("a\"b\n\u{01}").compactText, #""a\"b\n\u0001""#)
    }

    func testSyntaxErrorsNameLineAndColumn() {
        func error(_ text: String) -> JSONSyntaxError? {
            do {
                _ = try JSONValue(parsing: text)
                return nil
            } catch let error as JSONSyntaxError {
                return error
            } catch {
                return nil
            }
        }
        let missingComma = error("[\n  {\"a\": 1}\n  {\"b\": 2}\n]")
        XCTAssertEqual(missingComma?.position, SourcePosition(line: 3, column: 3))
        XCTAssertEqual(missingComma?.message, "expected ',' or ']' after an array element, got '{'")

        XCTAssertEqual(error(#"{"a": 1 "b": 2}"#)?.message, "expected ',' or '}' after an object member, got '\"'")
        XCTAssertEqual(error(#"{"a": 1"#)?.message, "unexpected end of input inside an object opened at line 1, column 1")
        XCTAssertEqual(error(#"{"a": [1, 2"#)?.message, "unexpected end of input inside an array opened at line 1, column 7")
        XCTAssertEqual(error(#"{"a": 1,}"#)?.message, "trailing comma before '}'")
        XCTAssertEqual(error("{'a': 1}")?.message, "expected a string key in double quotes, got '''")
        XCTAssertEqual(error("[tru]")?.message, "expected a value, got 't'")
        XCTAssertEqual(error("")?.message, "the document is empty; expected a JSON value")
        XCTAssertEqual(error("[1] x")?.message, "unexpected 'x' after the end of the JSON value")
        XCTAssertEqual(error("[01]")?.message, "invalid number 01")
        XCTAssertEqual(error("\"é\u{7}\"")?.position, SourcePosition(line: 1, column: 3), "columns count characters, not bytes")
        XCTAssertNotNil(error("\"unterminated"))
        XCTAssertEqual(error(#""\x""#)?.message, "invalid escape '\\x' in a string")
        XCTAssertEqual(error(#""\ud800""#)?.message, "unpaired surrogate in \\u escape")
    }

    func testRejectsInvalidUTF8AndDeepNestingWithoutTrapping() {
        XCTAssertThrowsError(try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22])) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "invalid UTF-8 byte")
        }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try JSONValue(parsing: deep)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "nesting is deeper than 512 levels")
        }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertNoThrow(try JSONValue(parsing: fine))
    }

    func testRandomBytesNeverTrapTheParser() {
        var generator = RoutingSeededRandom(seed: 7)
        let alphabet = Array(#"{}[]":,-0123456789.eEtruefalsn \ "#.utf8) + [0xC3, 0xA9, 0xFF]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? JSONValue(parsing: bytes)
        }
    }
}
