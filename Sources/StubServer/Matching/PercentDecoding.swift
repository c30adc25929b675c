/// Percent-decoding for paths, query strings and urlencoded forms. Malformed escapes (`%zz`,
/// a trailing `%`) are kept literally and invalid UTF-8 becomes U+FFFD: a client's bytes never
/// make matching fail with an error.
enum PercentDecoding {
    /// Decodes `%XX`; with `plusAsSpace`, `+` becomes a space (query strings and forms).
    static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        let utf8 = text.utf8
        // Fast path: nothing to decode (most paths).
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
                bytes.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func decode(_ text: String, plusAsSpace: Bool) -> String {
        decode(text[...], plusAsSpace: plusAsSpace)
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 55
        default: nil
        }
    }

    /// Splits `a=1&b=2&flag` into decoded pairs, keeping order and repeats; `flag` has "".
    static func decodePairs(_ text: Substring) -> [(String, String)] {
        var pairs: [(String, String)] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            if start < end {
                let piece = text[start..<end]
                if let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    pairs.append(
                        (
                            decode(piece[..<equals], plusAsSpace: true),
                            decode(piece[piece.utf8.index(after: equals)...], plusAsSpace: true)
                        ))
                } else {
                    pairs.append((decode(piece, plusAsSpace: true), ""))
                }
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        return pairs
    }
}
