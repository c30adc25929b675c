/// A parsed JSON value that remembers where it was written, so configuration errors can name
/// line and column as well as the JSON path. Convert to `JSONValue` with `value`.
package struct JSONNode: Sendable {
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    package struct Member: Sendable {
        package var key: String
        package var keyOffset: Int
        package var value: JSONNode

        package init(key: String, keyOffset: Int, value: JSONNode) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    package var kind: Kind
    /// UTF-8 byte offset of the value's first character in its document.
    package var offset: Int

    /// Also built by the YAML reader, whose offsets index the YAML bytes the same way.
    package init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    package var value: JSONValue {
        switch kind {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(\.value))
        case .object(let members):
            .object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.value.value) }))
        }
    }

    /// The kind's name in error messages, as ``JSONValue/kindDescription`` spells it; a container
    /// is named without converting what it holds.
    package var kindDescription: String {
        switch kind {
        case .array: "an array"
        case .object: "an object"
        case .null, .bool, .number, .string: value.kindDescription
        }
    }

    package var stringValue: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    package var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    package var elements: [JSONNode]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// A short rendering of the value for "got …" in messages.
    package var shortDescription: String {
        switch kind {
        case .string(let text):
            let clipped = text.count > 40 ? String(text.prefix(40)) + "…" : text
            var out = ""
            JSONWriter.writeString(clipped, into: &out)
            return out
        case .array: return "an array"
        case .object: return "an object"
        default: return value.compactText
        }
    }
}

extension JSONNode {
    /// The offset of the value a diagnostic path names (`[0].request.headers["X A"]`, as
    /// `JSONPathText` writes them), or of the deepest value on the way when the rest is not in
    /// the document; nil when the path is not in that notation. Only called to place errors,
    /// so nothing has to be recorded while decoding.
    package func offset(atPath path: String) -> Int? {
        let bytes = Array(path.utf8)
        var node = self
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: "[") { end += 1 }
                let key = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                guard let child = node.members?.first(where: { $0.key == key })?.value else { return node.offset }
                node = child
                index = end
            case UInt8(ascii: "[") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\""):
                // A JSON string key: find its closing quote, skipping escapes.
                var end = index + 2
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                guard end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "]"),
                    let key = (try? JSONParser.parse(Array(bytes[(index + 1)...end])))?.stringValue
                else { return nil }
                guard let child = node.members?.first(where: { $0.key == key })?.value else { return node.offset }
                node = child
                index = end + 2
            case UInt8(ascii: "["):
                var end = index + 1
                var number = 0
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") {
                    number = number &* 10 &+ Int(bytes[end] - UInt8(ascii: "0"))
                    end += 1
                }
                guard end > index + 1, end < bytes.count, bytes[end] == UInt8(ascii: "]") else { return nil }
                guard let elements = node.elements, number < elements.count else { return node.offset }
                node = elements[number]
                index = end + 1
            default:
                return nil
            }
        }
        return node.offset
    }
}

/// Line (1-based) and column (1-based, in Unicode scalars) of a place in a JSON document.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }

    /// Converts a UTF-8 byte offset into line and column. Only called when reporting an error.
    package static func locate(offset: Int, in bytes: [UInt8]) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1 // count scalars, not continuation bytes
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }
}
