import Foundation

/// A `.strings` file that could not be read, with the file, line and column of the problem.
public struct StringsFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Parses Apple `.strings` tables (`"key" = "value";`, comments, `\n \" \\ \U00E9` escapes) from
/// UTF-8, UTF-16 (with BOM) or binary property lists, identically on Linux and Darwin.
///
/// ```swift
/// let table = try StringsFileParser.parse(Data(#""hello" = "Hallo %@!";"#.utf8), file: "de.lproj/Localizable.strings")
/// // ["hello": "Hallo %@!"]
/// ```
public enum StringsFileParser {
    public static func parse(_ data: Data, file: String) throws -> [String: String] {
        if data.starts(with: Array("bplist".utf8)) {
            let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            guard let table = object as? [String: String] else {
                throw StringsFileError(file: file, line: 1, column: 1, message: "binary property list is not a table of strings")
            }
            return table
        }
        guard let text = decode(data) else {
            throw StringsFileError(file: file, line: 1, column: 1, message: "not valid UTF-8 or UTF-16 text")
        }
        var parser = Parser(scalars: Array(text.unicodeScalars), file: file)
        return try parser.parseTable()
    }

    static func decode(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: data, encoding: .utf16LittleEndian).map { dropBOM($0) } }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: data, encoding: .utf16BigEndian).map { dropBOM($0) } }
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        return dropBOM(text)
    }

    static func dropBOM(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    struct Parser {
        let scalars: [Unicode.Scalar]
        let file: String
        var index = 0
        var line = 1
        var column = 1

        init(scalars: [Unicode.Scalar], file: String) {
            self.scalars = scalars
            self.file = file
        }

        mutating func parseTable() throws -> [String: String] {
            var table: [String: String] = [:]
            try skipTrivia()
            // A whole-file `{ … }` dictionary is old-style plist syntax; accept it too.
            var braced = false
            if peek == "{" { advance(); braced = true; try skipTrivia() }
            while let next = peek {
                if braced && next == "}" { advance(); try skipTrivia(); break }
                let key = try parseString(what: "a key")
                try skipTrivia()
                var value = key
                if peek == "=" {
                    advance()
                    try skipTrivia()
                    value = try parseString(what: "a value")
                    try skipTrivia()
                }
                guard peek == ";" else { throw error("expected `;` after the entry for \"\(key)\"") }
                advance()
                table[key] = value
                try skipTrivia()
            }
            if peek != nil { throw error("unexpected text after the table") }
            return table
        }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
        func peek(at offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }

        mutating func advance() {
            guard index < scalars.count else { return }
            if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 1
        }

        func error(_ message: String) -> StringsFileError {
            StringsFileError(file: file, line: line, column: column, message: message)
        }

        mutating func skipTrivia() throws {
            while let scalar = peek {
                if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                    advance()
                } else if scalar == "/" && peek(at: 1) == "*" {
                    let startLine = line
                    let startColumn = column
                    advance(); advance()
                    var closed = false
                    while peek != nil {
                        if peek == "*" && peek(at: 1) == "/" { advance(); advance(); closed = true; break }
                        advance()
                    }
                    if !closed {
                        throw StringsFileError(file: file, line: startLine, column: startColumn, message: "unterminated /* comment")
                    }
                } else if scalar == "/" && peek(at: 1) == "/" {
                    while let next = peek, next != "\n" { advance() }
                } else {
                    return
                }
            }
        }

        mutating func parseString(what: String) throws -> String {
            guard let first = peek else { throw error("expected \(what), found the end of the file") }
            if first == "\"" { return try parseQuoted() }
            // Old-style plists allow unquoted words of letters, digits and `_$+/:.-`.
            var word = String.UnicodeScalarView()
            while let scalar = peek,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_$+/:.-".unicodeScalars.contains(scalar)
            {
                word.append(scalar)
                advance()
            }
            if word.isEmpty { throw error("expected \(what) (a quoted string), found `\(first)`") }
            return String(word)
        }

        mutating func parseQuoted() throws -> String {
            let startLine = line
            let startColumn = column
            advance()
            var result = String.UnicodeScalarView()
            while let scalar = peek {
                advance()
                switch scalar {
                case "\"":
                    return String(result)
                case "\\":
                    guard let escaped = peek else { break }
                    advance()
                    switch escaped {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "r": result.append("\r")
                    case "a": result.append("\u{7}")
                    case "b": result.append("\u{8}")
                    case "f": result.append("\u{C}")
                    case "v": result.append("\u{B}")
                    case "U", "u":
                        var hex = ""
                        while hex.count < 4, let digit = peek, digit.properties.isASCIIHexDigit {
                            hex.unicodeScalars.append(digit); advance()
                        }
                        guard hex.count == 4, var value = UInt32(hex, radix: 16) else {
                            throw error("expected four hex digits after \\\(escaped)")
                        }
                        // A UTF-16 surrogate pair written as two escapes.
                        if (0xD800...0xDBFF).contains(value), peek == "\\", peek(at: 1) == "U" || peek(at: 1) == "u" {
                            advance(); advance()
                            var low = ""
                            while low.count < 4, let digit = peek, digit.properties.isASCIIHexDigit {
                                low.unicodeScalars.append(digit); advance()
                            }
                            guard let lowValue = UInt32(low, radix: 16), (0xDC00...0xDFFF).contains(lowValue) else {
                                throw error("expected a low surrogate after \\U\(hex)")
                            }
                            value = 0x10000 + ((value - 0xD800) << 10) + (lowValue - 0xDC00)
                        }
                        guard let decoded = Unicode.Scalar(value) else { throw error("\\U\(hex) is not a Unicode scalar") }
                        result.append(decoded)
                    case "0"..."7":
                        var octal = String(escaped)
                        while octal.count < 3, let digit = peek, ("0"..."7").contains(digit) {
                            octal.unicodeScalars.append(digit); advance()
                        }
                        result.append(Unicode.Scalar(UInt8(octal, radix: 8) ?? 0))
                    default:
                        result.append(escaped) // \" \\ \' and anything else stand for themselves
                    }
                default:
                    result.append(scalar)
                }
            }
            throw StringsFileError(file: file, line: startLine, column: startColumn, message: "unterminated string")
        }
    }
}
