import RehearsalJSON

/// Reads YAML 1.2 (the subset OpenAPI documents use, and more; see docs/contract-checks.md) into
/// `YAMLNode` trees or straight into `JSONValue`.
///
/// ```swift
/// let spec = try YAMLReader.json(from: "openapi: 3.1.0\npaths: {}\n")
/// spec["openapi"]   // "3.1.0"
/// ```
public enum YAMLReader {
    /// Every document of a stream (empty input is no document).
    public static func parseStream(_ bytes: [UInt8], limits: YAMLLimits = .default) throws(YAMLSyntaxError)
        -> [YAMLNode]
    {
        try validate(bytes, limits: limits)
        var parser = YAMLParser(bytes: bytes, limits: limits)
        return try parser.parseStream()
    }

    public static func parseStream(_ text: String, limits: YAMLLimits = .default) throws(YAMLSyntaxError)
        -> [YAMLNode]
    {
        try parseStream(Array(text.utf8), limits: limits)
    }

    /// The one document of a single-document stream; an empty stream is a null scalar.
    public static func parse(_ bytes: [UInt8], limits: YAMLLimits = .default) throws(YAMLSyntaxError) -> YAMLNode {
        let documents = try parseStream(bytes, limits: limits)
        if documents.count > 1 {
            let second = documents[1].mark
            throw YAMLSyntaxError(
                message: "expected one document, found a second one; split the stream or remove the '---'",
                offset: second.offset, position: second.position)
        }
        return documents.first
            ?? YAMLNode(kind: .scalar(YAMLScalar(text: "", style: .plain, value: .null)), mark: YAMLMark(offset: 0, line0: 0, column0: 0))
    }

    public static func parse(_ text: String, limits: YAMLLimits = .default) throws(YAMLSyntaxError) -> YAMLNode {
        try parse(Array(text.utf8), limits: limits)
    }

    /// The one document as JSON (see `YAMLNode.jsonValue()` for what JSON cannot hold).
    public static func json(from bytes: [UInt8], limits: YAMLLimits = .default) throws(YAMLSyntaxError) -> JSONValue {
        try parse(bytes, limits: limits).jsonValue(limits: limits)
    }

    public static func json(from text: String, limits: YAMLLimits = .default) throws(YAMLSyntaxError) -> JSONValue {
        try json(from: Array(text.utf8), limits: limits)
    }

    /// Size, UTF-8 and the characters YAML forbids in a stream, checked once up front so the
    /// scanner can trust its input.
    static func validate(_ bytes: [UInt8], limits: YAMLLimits) throws(YAMLSyntaxError) {
        func fail(_ message: String, at offset: Int) -> YAMLSyntaxError {
            YAMLSyntaxError(message: message, offset: offset, position: SourcePosition.locate(offset: offset, in: bytes))
        }
        if bytes.count > limits.maximumBytes {
            throw YAMLSyntaxError(
                message: "the document is \(bytes.count) bytes, more than the \(limits.maximumBytes) bytes allowed",
                offset: 0, position: SourcePosition(line: 1, column: 1))
        }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw fail("the document is UTF-16; save it as UTF-8", at: 0)
        }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x7F {
                    throw fail("control character 0x\(String(byte, radix: 16, uppercase: true)) is not allowed in YAML", at: index)
                }
                index += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            switch byte {
            case 0xC2...0xDF: length = 2; scalar = UInt32(byte & 0x1F)
            case 0xE0...0xEF: length = 3; scalar = UInt32(byte & 0x0F)
            case 0xF0...0xF4: length = 4; scalar = UInt32(byte & 0x07)
            default: throw fail("invalid UTF-8 byte 0x\(String(byte, radix: 16, uppercase: true))", at: index)
            }
            guard index + length <= count else { throw fail("truncated UTF-8 sequence", at: index) }
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { throw fail("invalid UTF-8 sequence", at: index) }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw fail("invalid UTF-8 sequence", at: index)
            }
            index += length
        }
    }
}
