import Foundation
// RehearsalJSON: the package's one strict JSON parser (`JSONParser`) and its `JSONValue`.
import RehearsalJSON

/// Strict JSON (RFC 8259) for `decode(_:fromJSON:)` and SpecKit's `matchJSON`, read by the
/// package's one parser (`JSONParser`): object key order and number spelling are kept, and a
/// syntax error names line, column and byte offset (Foundation on Linux names none).
///
/// ```swift
/// let value = try StrictJSON.Parser.parse(#"{"b": 1.0, "a": [true]}"#)
/// value.compactText  // {"b":1.0,"a":[true]}
/// // StrictJSON.Parser.parse("[1 2]") throws:
/// // invalid JSON at line 1, column 4 (byte 3): expected ',' or ']' after an array element, got '2'
/// ```
package enum StrictJSON {
    /// A parsed document: RehearsalJSON's `JSONValue`, keys in document order, numbers as written.
    package typealias Value = JSONValue

    /// Where and why JSON text is malformed, in the words `decode(_:fromJSON:)` and `matchJSON`
    /// have always printed: "invalid JSON at line L, column C (byte O): message".
    package struct SyntaxError: Error, CustomStringConvertible, Equatable {
        /// The parser's error: message, byte offset and line/column (1-based, column in
        /// Unicode scalars).
        package let cause: JSONSyntaxError

        package var offset: Int { cause.offset }
        package var line: Int { cause.position.line }
        package var column: Int { cause.position.column }
        package var message: String { cause.message }

        package var description: String { "invalid JSON at line \(line), column \(column) (byte \(offset)): \(message)" }
    }

    /// Parses a whole document (leading and trailing whitespace allowed, nothing else after the
    /// value; nesting at most `JSONParser.maximumDepth` containers deep).
    package enum Parser {
        package static func parse(_ data: Data) throws(SyntaxError) -> Value {
            try parse(bytes: Array(data))
        }

        package static func parse(_ text: String) throws(SyntaxError) -> Value {
            try parse(bytes: Array(text.utf8))
        }

        private static func parse(bytes: [UInt8]) throws(SyntaxError) -> Value {
            do {
                return try JSONParser.parse(bytes).value
            } catch {
                throw SyntaxError(cause: error)
            }
        }
    }
}
