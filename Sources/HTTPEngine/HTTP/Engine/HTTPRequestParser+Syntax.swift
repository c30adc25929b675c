// The small grammar pieces the parser checks: tokens, versions, hosts, hex digits, Content-Length, origin form.
extension HTTPRequestParser {
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// RFC 9110 `tchar`.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenTable[Int(byte)]
    }

    private static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `HTTP/<digit>.<digit>` straight from the bytes (no string per request).
    static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPVersion? {
        guard bytes.count == 8,
            bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
            bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"), bytes[6] == UInt8(ascii: "."),
            (48...57).contains(bytes[5]), (48...57).contains(bytes[7])
        else { return nil }
        if bytes[5] == 49 && bytes[7] == 49 { return .http1_1 }
        // RFC 9110 §2.5: a higher minor version of a major we speak is processed (and answered)
        // as the highest minor we implement, HTTP/1.1.
        if bytes[5] == 49 && bytes[7] > 49 { return .http1_1 }
        return HTTPVersion(major: Int(bytes[5] - 48), minor: Int(bytes[7] - 48))
    }

    /// RFC 3986 `host [":" port]` bytes: reg-name, IPv4 or a bracketed IP literal, and no
    /// comma (RFC 9110 lists would make it two hosts). Empty is allowed (RFC 9112 §3.2).
    static func isValidHost(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            // Letters, digits and "-._~!$&'()*+;=%:[]", as ranges and bytes (a string's
            // `contains` per byte showed in profiles: every request has a Host).
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
                UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                continue
            default:
                return false
            }
        }
        return true
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Digits only (RFC 9110 §8.6); a list of identical values is accepted. Returns nil for
    /// malformed text and -1 for a well-formed number too large to represent.
    static func parseContentLength(_ text: String) -> Int? {
        var result: Int?
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let digits = part.trimmingSpaces
            guard !digits.isEmpty else { return nil }
            var value = 0
            var overflow = false
            for byte in digits.utf8 {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                if !overflow {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (plus, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                    if o1 || o2 { overflow = true } else { value = plus }
                }
            }
            if overflow { value = -1 }
            if let previous = result, previous != value { return nil }
            result = value
        }
        return result
    }

    /// Turns an absolute-form target (`http://host/path?q`) into origin form (`/path?q`).
    static func originForm(_ target: String) -> String {
        if target == "*" { return target }
        let lower = target.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return target }
        let afterScheme = target[target.index(target.startIndex, offsetBy: lower.hasPrefix("http://") ? 7 : 8)...]
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterScheme[slash...]
        return rest.first == "?" ? "/" + rest : String(rest)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}

extension String {
    var trimmingSpaces: Substring { self[...].trimmingSpaces }
}
