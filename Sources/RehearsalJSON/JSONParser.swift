/// A JSON syntax error with the place it was found.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// UTF-8 byte offset of the problem.
    public var offset: Int
    public var position: SourcePosition

    public var description: String { "malformed JSON at \(position): \(message)" }
}

/// A strict RFC 8259 parser that keeps key order, number text and source offsets. It is also
/// used on request bodies, so it never traps on hostile input: nesting depth is bounded and
/// every failure is a thrown `JSONSyntaxError`.
package enum JSONParser {
    package static let maximumDepth = 512

    package static func parse(_ input: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = State(bytes: input)
        return try parser.parseDocument()
    }

    /// The character that starts at `offset` (before `bytes.endIndex`) as an error message names
    /// it: `'x'`, the whole character for non-ASCII input (`'é'`), or `control character 0x1F`.
    /// The YAML reader names characters this way too.
    package static func describeCharacter(at offset: Int, in bytes: [UInt8]) -> String {
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 {
            var end = offset + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
        }
        return "control character 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private struct State {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            let where_ = offset ?? index
            return JSONSyntaxError(
                message: message, offset: where_, position: SourcePosition.locate(offset: where_, in: bytes))
        }

        mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
            if let bad = Self.firstInvalidUTF8(bytes) { throw fail("invalid UTF-8 byte", at: bad) }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 } // tolerate a BOM
            skipWhitespace()
            if index >= bytes.count { throw fail("the document is empty; expected a JSON value") }
            let root = try parseValue()
            skipWhitespace()
            if index < bytes.count {
                throw fail("unexpected \(describeByte(at: index)) after the end of the JSON value")
            }
            return root
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func describeByte(at offset: Int) -> String {
            guard offset < bytes.count else { return "end of input" }
            return JSONParser.describeCharacter(at: offset, in: bytes)
        }

        mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
            guard index < bytes.count else { throw fail("unexpected end of input; expected a value") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), offset: start)
            case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(kind: .bool(true), offset: start)
            case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(kind: .bool(false), offset: start)
            case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(kind: .null, offset: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(kind: .number(try parseNumber()), offset: start)
            case UInt8(ascii: "'"):
                throw fail("strings must use double quotes, not single quotes")
            default:
                throw fail("expected a value, got \(describeByte(at: index))")
            }
        }

        mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
            let start = index
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for byte in expected {
                guard index < bytes.count, bytes[index] == byte else {
                    throw fail("expected a value, got \(describeByte(at: start))", at: start)
                }
                index += 1
            }
            if index < bytes.count, Self.isWordByte(bytes[index]) {
                throw fail("expected a value, got \(describeByte(at: start))", at: start)
            }
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }

        mutating func enter() throws(JSONSyntaxError) {
            depth += 1
            if depth > JSONParser.maximumDepth {
                throw fail("nesting is deeper than \(JSONParser.maximumDepth) levels")
            }
        }

        mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
            let start = index
            try enter()
            index += 1
            var members: [JSONNode.Member] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return JSONNode(kind: .object(members), offset: start)
            }
            members.reserveCapacity(4) // one allocation for the small objects stub files are made of
            while true {
                skipWhitespace()
                guard index < bytes.count else {
                    throw fail("unexpected end of input inside an object opened at \(SourcePosition.locate(offset: start, in: bytes))")
                }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    if bytes[index] == UInt8(ascii: "}") { throw fail("trailing comma before '}'") }
                    throw fail("expected a string key in double quotes, got \(describeByte(at: index))")
                }
                let keyOffset = index
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after the key \"\(key)\", got \(describeByte(at: index))")
                }
                index += 1
                skipWhitespace()
                let value = try parseValue()
                members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
                if try closes(UInt8(ascii: "}"), container: "an object", after: "an object member", openedAt: start) {
                    return JSONNode(kind: .object(members), offset: start)
                }
            }
        }

        mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
            let start = index
            try enter()
            index += 1
            var elements: [JSONNode] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return JSONNode(kind: .array(elements), offset: start)
            }
            while true {
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw fail("trailing comma before ']'") }
                elements.append(try parseValue())
                if try closes(UInt8(ascii: "]"), container: "an array", after: "an array element", openedAt: start) {
                    return JSONNode(kind: .array(elements), offset: start)
                }
            }
        }

        /// After an object member or array element: consumes the `,` before the next one (false) or
        /// the container's `closer` (true: it ends here, one level up).
        mutating func closes(_ closer: UInt8, container: String, after item: String, openedAt start: Int)
            throws(JSONSyntaxError) -> Bool
        {
            skipWhitespace()
            guard index < bytes.count else {
                throw fail("unexpected end of input inside \(container) opened at \(SourcePosition.locate(offset: start, in: bytes))")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                return false
            }
            if bytes[index] == closer {
                index += 1
                depth -= 1
                return true
            }
            throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(item), got \(describeByte(at: index))")
        }

        mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            let slice = Array(bytes[start..<index])
            guard let integer = JSONNumber.classify(slice) else {
                throw fail("invalid number \(String(decoding: slice, as: UTF8.self))", at: start)
            }
            return JSONNumber(validatedText: String(decoding: slice, as: UTF8.self), isInteger: integer)
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2B || byte == 0x2E || byte == 0x65 || byte == 0x45
        }

        mutating func parseString() throws(JSONSyntaxError) -> String {
            let open = index
            index += 1
            let contentStart = index
            // Fast path: no escapes.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: bytes[contentStart..<index], as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 {
                    throw fail(
                        byte == 0x0A
                            ? "unterminated string (a raw line break is not allowed inside a string)"
                            : "control character in a string must be escaped")
                }
                index += 1
            }
            guard index < bytes.count else { throw fail("unterminated string", at: open) }
            var scratch = Array(bytes[contentStart..<index])
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: scratch, as: UTF8.self)
                }
                if byte < 0x20 {
                    throw fail(
                        byte == 0x0A
                            ? "unterminated string (a raw line break is not allowed inside a string)"
                            : "control character in a string must be escaped")
                }
                if byte != UInt8(ascii: "\\") {
                    scratch.append(byte)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                if let decoded = StringEscapes.letter(escape) {
                    scratch.append(decoded)
                    continue
                }
                switch escape {
                case UInt8(ascii: "u"):
                    let escapeStart = index - 2
                    var scalar = try parseHex4()
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate in \\u escape", at: escapeStart)
                        }
                        index += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else { throw fail("unpaired surrogate in \\u escape", at: escapeStart) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw fail("unpaired surrogate in \\u escape", at: escapeStart)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape", at: escapeStart) }
                    scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: index - 2)
                }
            }
            throw fail("unterminated string", at: open)
        }

        mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw fail("incomplete \\u escape") }
                guard let digit = StringEscapes.hexDigit(bytes[index]) else { throw fail("invalid hex digit in \\u escape") }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// Offset of the first byte that is not valid UTF-8, or nil.
        static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
            var index = 0
            let count = bytes.count
            while index < count {
                let lead = bytes[index]
                if lead < 0x80 { index += 1; continue }
                let length: Int
                let minimum: UInt32
                var scalar: UInt32
                switch lead {
                case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F); minimum = 0x80
                case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F); minimum = 0x800
                case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07); minimum = 0x10000
                default: return index
                }
                guard index + length <= count else { return index }
                for offset in 1..<length {
                    let next = bytes[index + offset]
                    guard next & 0xC0 == 0x80 else { return index }
                    scalar = scalar << 6 | UInt32(next & 0x3F)
                }
                if scalar < minimum || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar <= 0xDFFF) { return index }
                index += length
            }
            return nil
        }
    }
}
