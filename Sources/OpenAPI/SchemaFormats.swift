import Foundation
import RehearsalJSON

/// The `format`s that matter for API payloads. Unknown formats are annotations and pass, as
/// JSON Schema says.
enum SchemaFormats {
    /// A message when `text` is not in `format`, nil when it is (or the format is not checked).
    static func checkString(_ text: String, format: String) -> String? {
        let valid: Bool
        switch format {
        case "date-time": valid = isDateTime(text)
        case "date": valid = isDate(Array(text.utf8)[...])
        case "time": valid = isTime(Array(text.utf8)[...])
        case "uuid": valid = isUUID(text)
        case "email": valid = isEmail(text)
        case "uri": valid = isURI(text)
        case "ipv4": valid = isIPv4(Substring(text))
        case "ipv6": valid = isIPv6(text)
        default: return nil
        }
        guard !valid else { return nil }
        let example: String
        switch format {
        case "date-time": example = " (RFC 3339, e.g. 2024-05-01T12:30:00Z)"
        case "date": example = " (e.g. 2024-05-01)"
        case "time": example = " (e.g. 12:30:00Z)"
        case "uuid": example = " (e.g. 123e4567-e89b-12d3-a456-426614174000)"
        case "uri": example = " (an absolute URI with a scheme)"
        default: example = ""
        }
        return "expected a string in format \(format)\(example), got \(PathText.quoted(text))"
    }

    static func checkNumber(_ number: JSONNumber, format: String) -> String? {
        let range: Range<Double>
        switch format {
        case "int32": range = -2_147_483_648.0..<2_147_483_648.0
        case "int64":
            if number.isInteger {
                return Int64(number.text) == nil ? "expected an int64, got \(number.text) (out of range)" : nil
            }
            range = -0x1p63..<0x1p63 // exactly Int64's range as doubles
        default: return nil
        }
        let value = number.doubleValue
        guard value == value.rounded() else { return "expected an integer (\(format)), got \(number.text)" }
        return range.contains(value) ? nil : "expected an \(format), got \(number.text) (out of range)"
    }

    private static func digits(_ bytes: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.endIndex else { return nil }
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// RFC 3339 `full-date`: `2024-02-29`, with real month lengths.
    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let s = bytes.startIndex
        guard bytes.count == 10, bytes[s + 4] == UInt8(ascii: "-"), bytes[s + 7] == UInt8(ascii: "-"),
            let year = digits(bytes, s, 4), let month = digits(bytes, s + 5, 2), let day = digits(bytes, s + 8, 2),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// RFC 3339 `full-time`: `12:30:00`, optional fraction, then `Z` or `±hh:mm`.
    static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        let s = bytes.startIndex
        guard bytes.count >= 9, bytes[s + 2] == UInt8(ascii: ":"), bytes[s + 5] == UInt8(ascii: ":"),
            let hour = digits(bytes, s, 2), let minute = digits(bytes, s + 3, 2), let second = digits(bytes, s + 6, 2),
            hour < 24, minute < 60, second <= 60
        else { return false }
        var index = s + 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.endIndex, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            guard index > start, index < bytes.endIndex else { return false }
        }
        let zone = bytes[index...]
        if zone.count == 1 { return zone.first == UInt8(ascii: "Z") || zone.first == UInt8(ascii: "z") }
        let z = zone.startIndex
        guard zone.count == 6, zone[z] == UInt8(ascii: "+") || zone[z] == UInt8(ascii: "-"), zone[z + 3] == UInt8(ascii: ":"),
            let hours = digits(zone, z + 1, 2), let minutes = digits(zone, z + 4, 2)
        else { return false }
        return hours < 24 && minutes < 60
    }

    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        return isDate(bytes[0..<10]) && isTime(bytes[11...])
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// A pragmatic RFC 5321 mailbox: one `@`, a non-empty local part, a domain of dot-separated labels.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64, !parts[1].isEmpty else { return false }
        guard !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "," }) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
    }

    /// An absolute URI (RFC 3986): a scheme, `:`, and no spaces or control characters.
    static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." })
        else { return false }
        return !text.unicodeScalars.contains {
            $0.value <= 0x20 || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "\\" || $0 == "^" || $0 == "`" || $0 == "{" || $0 == "|"
                || $0 == "}"
        }
    }

    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part), value <= 255
                else { return false }
                return part.count == 1 || !part.hasPrefix("0")
            }
    }

    static func isIPv6(_ text: String) -> Bool {
        var body = Substring(text)
        var groupsAllowed = 8
        // An embedded IPv4 tail (::ffff:192.0.2.1) counts as two groups.
        if let lastColon = body.lastIndex(of: ":"), body[body.index(after: lastColon)...].contains(".") {
            guard isIPv4(body[body.index(after: lastColon)...]) else { return false }
            body = body[...lastColon]
            if body.hasSuffix(":") && !body.hasSuffix("::") { body = body.dropLast() }
            groupsAllowed = 6
        }
        let halves = body.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ half: String) -> [Substring]? {
            if half.isEmpty { return [] }
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            return parts.allSatisfy({ (1...4).contains($0.count) && $0.utf8.allSatisfy(isHex) }) ? parts : nil
        }
        guard let left = groups(halves[0]) else { return false }
        if halves.count == 2 {
            guard let right = groups(halves[1]) else { return false }
            return left.count + right.count < groupsAllowed
        }
        return left.count == groupsAllowed
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
