/// A JSON value that keeps object keys in the order they were written, and numbers exactly
/// as written (so `1` and `1.0` stay different, as in moco's Jackson comparison).
///
/// ```swift
/// let body: JSONValue = ["access_token": "abc", "expires_in": 7200, "scopes": ["user"]]
/// body.compactText   // {"access_token":"abc","expires_in":7200,"scopes":["user"]}
/// ```
public indirect enum JSONValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON kind's name as used in error messages (`a string`, `an object`, …).
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// Member lookup for objects (first key wins when a key repeats); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Compact JSON text, keys in their original order, numbers as written.
    public var compactText: String {
        var out = ""
        JSONWriter.write(self, into: &out)
        return out
    }

    public var description: String { compactText }

    /// The text a matcher or template sees for a scalar: strings raw, numbers as written,
    /// booleans and null as their literals, containers as compact JSON.
    public var scalarText: String {
        switch self {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array, .object: compactText
        }
    }
}

/// A JSON number kept as its source text. Integers compare by value with integers, decimals by
/// `Double` value with decimals; an integer never equals a decimal (`1` ≠ `1.0`), as in moco.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written (`42`, `-0.5`, `1e3`).
    public let text: String
    /// True when written without fraction or exponent.
    public let isInteger: Bool

    /// Validates `text` against JSON's number grammar; nil if it is not a JSON number.
    public init?(_ text: String) {
        guard let integer = JSONNumber.classify(Array(text.utf8)) else { return nil }
        self.text = text
        self.isInteger = integer
    }

    public init(_ value: Int) {
        text = String(value)
        isInteger = true
    }

    public init(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            text = String(Int64(value)) + ".0"
        } else if value.isFinite {
            text = String(value)
        } else {
            text = "0.0" // JSON has no NaN or infinity
        }
        isInteger = false
    }

    internal init(validatedText: String, isInteger: Bool) {
        self.text = validatedText
        self.isInteger = isInteger
    }

    public var doubleValue: Double { Double(text) ?? 0 }

    /// The value as an Int when it is an integer that fits.
    public var intValue: Int? { isInteger ? Int(text) : nil }

    public var description: String { text }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        guard lhs.isInteger == rhs.isInteger else { return false }
        if lhs.isInteger {
            return lhs.normalizedInteger == rhs.normalizedInteger
        }
        return lhs.doubleValue == rhs.doubleValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isInteger)
        if isInteger { hasher.combine(normalizedInteger) } else { hasher.combine(doubleValue) }
    }

    /// `-0` and `0` are the same integer; JSON forbids leading zeros, so the rest is canonical.
    private var normalizedInteger: String { text == "-0" ? "0" : text }

    /// Returns whether `bytes` is an integer (true), a decimal (false) or not a number (nil).
    package static func classify(_ bytes: [UInt8]) -> Bool? {
        var index = 0
        let count = bytes.count
        func digit(_ i: Int) -> Bool { i < count && bytes[i] >= 48 && bytes[i] <= 57 }
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit(index) { index += 1 }
        }
        var integer = true
        if index < count, bytes[index] == UInt8(ascii: ".") {
            integer = false
            index += 1
            guard digit(index) else { return nil }
            while digit(index) { index += 1 }
        }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integer = false
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digit(index) else { return nil }
            while digit(index) { index += 1 }
        }
        return index == count ? integer : nil
    }
}

/// A JSON object's members in source order. Equality ignores order (moco compares objects
/// structurally) but duplicate keys keep the first value for lookups.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    /// Appends a member, or replaces the value of an existing key in place.
    public mutating func set(_ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(Member(key: key, value: value))
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine a commutative sum of per-member hashes.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum = sum &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}

extension JSONValue: ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Parses JSON text (RFC 8259). Throws a `JSONSyntaxError` naming line and column.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: #"{"id": 1}"#)
    /// ```
    public init(parsing text: String) throws {
        self = try JSONParser.parse(Array(text.utf8)).value
    }

    /// Parses JSON bytes (UTF-8, optional BOM).
    public init(parsing bytes: [UInt8]) throws {
        self = try JSONParser.parse(bytes).value
    }
}

/// Compact JSON serialisation.
package enum JSONWriter {
    package static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += number.text
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += "," }
                write(element, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    package static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
