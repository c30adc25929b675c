import Foundation
// RehearsalJSON: the package's one JSON string escaper (`JSONWriter`) and line/column finder (`SourcePosition`).
import RehearsalJSON

/// A small strict JSON parser (RFC 8259) that keeps object key order and number spelling and
/// reports syntax errors with line, column and byte offset. `decode(_:fromJSON:)` uses it to say
/// where malformed JSON breaks (Foundation on Linux does not); SpecKit's `matchJSON` compares with it.
/// Package-internal: StubServer has its own public `JSONValue`, and specs import both.
package enum StrictJSON {
    /// A parsed JSON document that keeps object key order and number spelling,
    /// for structural comparison (`matchJSON`).
    package indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Value])
        case object([(key: String, value: Value)])

        /// Compact JSON text, keys in document order.
        package var compact: String {
            switch self {
            case .null: return "null"
            case .bool(let value): return value ? "true" : "false"
            case .number(let text): return text
            case .string(let text): return Value.quote(text)
            case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
            case .object(let members):
                return "{" + members.map { Value.quote($0.key) + ":" + $0.value.compact }.joined(separator: ",") + "}"
            }
        }

        package static func quote(_ text: String) -> String {
            var out = ""
            JSONWriter.writeString(text, into: &out)
            return out
        }
    }

    /// Where and why JSON text is malformed.
    package struct SyntaxError: Error, CustomStringConvertible, Equatable {
        package let offset: Int
        package let line: Int
        package let column: Int
        package let message: String

        package var description: String { "invalid JSON at line \(line), column \(column) (byte \(offset)): \(message)" }
    }

    /// A small strict JSON parser (RFC 8259) with byte offsets in its errors.
    package struct Parser {
        package static let maxDepth = 512

        private let bytes: [UInt8]
        private var index = 0

        package static func parse(_ data: Data) throws -> Value {
            var parser = Parser(bytes: Array(data))
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            if parser.index < parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
            return value
        }

        package static func parse(_ text: String) throws -> Value {
            try parse(Data(text.utf8))
        }

        private init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        private func error(_ message: String) -> SyntaxError {
            let position = SourcePosition.locate(offset: index, in: bytes)
            return SyntaxError(offset: index, line: position.line, column: position.column, message: message)
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        private mutating func parseValue(depth: Int) throws -> Value {
            guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
            guard let byte = current else { throw error("unexpected end of input, expected a value") }
            switch byte {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectWord("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw error("unexpected character '\(Self.show(byte))', expected a value")
            }
        }

        private static func show(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
        }

        private mutating func expectWord(_ word: String) throws {
            let start = index
            for expected in word.utf8 {
                guard current == expected else {
                    index = start
                    throw error("invalid literal, expected '\(word)'")
                }
                index += 1
            }
        }

        private mutating func parseObject(depth: Int) throws -> Value {
            var members: [(key: String, value: Value)] = []
            if opensEmpty(closedBy: UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a string key in object") }
                let key = try parseString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after object key \"\(key)\"") }
                index += 1
                skipWhitespace()
                members.append((key, try parseValue(depth: depth + 1)))
                if try closes(UInt8(ascii: "}"), container: "object") { return .object(members) }
            }
        }

        private mutating func parseArray(depth: Int) throws -> Value {
            var items: [Value] = []
            if opensEmpty(closedBy: UInt8(ascii: "]")) { return .array(items) }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth + 1))
                if try closes(UInt8(ascii: "]"), container: "array") { return .array(items) }
            }
        }

        /// Consumes the opening bracket, and the `closer` too when the container is empty (true).
        private mutating func opensEmpty(closedBy closer: UInt8) -> Bool {
            index += 1
            skipWhitespace()
            guard current == closer else { return false }
            index += 1
            return true
        }

        /// After an object member or array element: consumes the `,` before the next one (false)
        /// or the container's `closer` (true: it ends here).
        private mutating func closes(_ closer: UInt8, container: String) throws -> Bool {
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1; return false
            case closer: index += 1; return true
            default: throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))' in \(container)")
            }
        }

        private mutating func parseNumber() throws -> String {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                throw error("expected a digit")
            }
            if first == UInt8(ascii: "0") {
                index += 1
            } else {
                skipDigits()
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    throw error("expected a digit after '.'")
                }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    throw error("expected a digit in the exponent")
                }
                skipDigits()
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func skipDigits() {
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }

        private mutating func parseString() throws -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ parser: Parser, _ end: Int, into scalars: inout String.UnicodeScalarView) {
                scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while true {
                guard let byte = current else { throw error("unterminated string") }
                switch byte {
                case UInt8(ascii: "\""):
                    flush(self, index, into: &scalars)
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush(self, index, into: &scalars)
                    index += 1
                    scalars.append(try parseEscape())
                    run = index
                case 0..<0x20:
                    throw error("control character in string (escape it)")
                default:
                    index += 1
                }
            }
        }

        private mutating func parseEscape() throws -> Unicode.Scalar {
            guard let byte = current else { throw error("unterminated escape") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try parseHex4()
                if (0xD800...0xDBFF).contains(high) {
                    guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate \\u\(String(high, radix: 16))")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    return Unicode.Scalar(value)!
                }
                guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
                return scalar
            default:
                index -= 1
                throw error("invalid escape '\\\(Self.show(byte))'")
            }
        }

        private mutating func parseHex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("expected a hex digit after \\u")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }
    }
}
