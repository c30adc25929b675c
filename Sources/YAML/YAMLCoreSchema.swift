import RehearsalJSON

/// The YAML 1.2 core schema: what a plain scalar means (null, bool, int, float, else string),
/// and what an explicit core tag (`!!str`, `!!int`, …) makes of a scalar.
enum YAMLCoreSchema {
    static let prefix = "tag:yaml.org,2002:"

    /// The value of a scalar given its style and resolved tag; throws when a core tag names a
    /// type the text is not (`!!int abc`).
    static func resolve(_ text: String, style: YAMLScalarStyle, tag: String?, at mark: YAMLMark)
        throws(YAMLSyntaxError) -> YAMLScalar.Value
    {
        guard let tag else { return style == .plain ? resolvePlain(text) : .string(text) }
        func mismatch(_ type: String) -> YAMLSyntaxError {
            YAMLSyntaxError(
                message: "the scalar \(quoted(text)) is tagged !!\(type) but is not \(type == "int" ? "an" : "a") \(type)",
                offset: mark.offset, position: mark.position)
        }
        switch tag {
        case prefix + "str", "!": return .string(text)
        case prefix + "null":
            if text.isEmpty { return .null }
            if case .null = resolvePlain(text) { return .null }
            throw mismatch("null")
        case prefix + "bool":
            if case .bool(let flag) = resolvePlain(text) { return .bool(flag) }
            throw mismatch("bool")
        case prefix + "int":
            if let digits = integer(text) { return .integer(digits) }
            throw mismatch("int")
        case prefix + "float":
            if let value = float(text) { return value }
            if let digits = integer(text), let value = Double(digits) { return .float(value, digits + ".0") }
            throw mismatch("float")
        default:
            // Other tags (local `!thing`, `!!binary`, …) keep the core meaning of the text.
            return style == .plain ? resolvePlain(text) : .string(text)
        }
    }

    static func resolvePlain(_ text: String) -> YAMLScalar.Value {
        let utf8 = text.utf8
        guard let first = utf8.first else { return .null }
        // Fast path: most plain scalars are words, which none of the patterns below start with.
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"):
            break
        default:
            return .string(text)
        }
        switch text {
        case "null", "Null", "NULL", "~": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let digits = integer(text) { return .integer(digits) }
        if let value = float(text) { return value }
        return .string(text)
    }

    /// Canonical decimal digits of a core-schema integer (`+012` → "12", `0x1F` → "31"), or nil.
    static func integer(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "o") {
            let radix = bytes[1] == UInt8(ascii: "x") ? 16 : 8
            var decimal: [UInt8] = [0] // little-endian decimal digits
            for byte in bytes[2...] {
                guard let digit = StringEscapes.hexDigit(byte), Int(digit) < radix else { return nil }
                var carry = Int(digit)
                for position in decimal.indices {
                    let total = Int(decimal[position]) * radix + carry
                    decimal[position] = UInt8(total % 10)
                    carry = total / 10
                }
                while carry > 0 {
                    decimal.append(UInt8(carry % 10))
                    carry /= 10
                }
            }
            while decimal.count > 1, decimal.last == 0 { decimal.removeLast() }
            return String(decoding: decimal.reversed().map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        }
        var start = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            start = 1
        }
        guard start < bytes.count else { return nil }
        for byte in bytes[start...] where byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") { return nil }
        var digits = bytes[start...].drop { $0 == UInt8(ascii: "0") }
        if digits.isEmpty { digits = [UInt8(ascii: "0")][...] }
        let body = String(decoding: digits, as: UTF8.self)
        return negative && body != "0" ? "-" + body : body
    }

    /// A core-schema float with JSON-shaped canonical text (`.5` → "0.5", `1.` → "1.0"), or nil.
    static func float(_ text: String) -> YAMLScalar.Value? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity, ".inf")
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity, "-.inf")
        case ".nan", ".NaN", ".NAN": return .float(.nan, ".nan")
        default: break
        }
        let bytes = Array(text.utf8)
        var position = 0
        var sign = ""
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            if bytes[position] == UInt8(ascii: "-") { sign = "-" }
            position += 1
        }
        func digits() -> [UInt8] {
            let from = position
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            return Array(bytes[from..<position])
        }
        var whole = digits()
        var fraction: [UInt8] = []
        var hasPoint = false
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            hasPoint = true
            position += 1
            fraction = digits()
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = ""
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            var exponentSign = ""
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
                exponentSign = bytes[position] == UInt8(ascii: "-") ? "-" : "+"
                position += 1
            }
            let exponentDigits = digits()
            guard !exponentDigits.isEmpty else { return nil }
            exponent = "e" + exponentSign + String(decoding: exponentDigits, as: UTF8.self)
        }
        guard position == bytes.count else { return nil }
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole.removeFirst() }
        if whole.isEmpty { whole = [UInt8(ascii: "0")] }
        var canonical = sign + String(decoding: whole, as: UTF8.self)
        if hasPoint || exponent.isEmpty {
            // `!!float 3` is 3.0: keep floats decimals in JSON too.
            canonical += "." + (fraction.isEmpty ? "0" : String(decoding: fraction, as: UTF8.self))
        }
        canonical += exponent
        return .float(Double(canonical) ?? 0, canonical)
    }
}

func quoted(_ text: String) -> String {
    let clipped = text.count > 40 ? String(text.prefix(40)) + "…" : text
    return "'\(clipped)'"
}
