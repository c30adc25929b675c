import Foundation

/// `Set-Cookie` values in netty's order, as moco sends them:
/// `pref=dark; Max-Age=3600; Expires=Tue, 21 Nov 2023 15:00:00 GMT; Path=/; Domain=example.test; Secure; HTTPOnly; SameSite=Lax`.
enum SetCookieEncoder {
    static func encode(name: String, value: String, cookie: ResponseCookie, now: Date) -> String {
        var out = "\(name)=\(value)"
        if let maxAge = cookie.maxAge {
            let seconds = maxAge.components.seconds
            out += "; Max-Age=\(seconds)"
            out += "; Expires=\(httpDate(now.addingTimeInterval(TimeInterval(seconds))))"
        }
        if let path = cookie.path { out += "; Path=\(path)" }
        if let domain = cookie.domain { out += "; Domain=\(domain)" }
        if cookie.secure { out += "; Secure" }
        if cookie.httpOnly { out += "; HTTPOnly" }
        if let sameSite = cookie.sameSite { out += "; SameSite=\(sameSite.rawValue)" }
        return out
    }

    /// Why a cookie name or value cannot be sent (RFC 6265 token / cookie-octet rules), or nil.
    static func problem(name: String) -> String? {
        guard !name.isEmpty else { return "a cookie name cannot be empty" }
        let separators = Set("()<>@,;:\\\"/[]?={} \t")
        if let bad = name.first(where: { separators.contains($0) || !$0.isASCII || ($0.asciiValue ?? 0) < 0x21 || $0.asciiValue == 0x7F }) {
            return "the cookie name \(quoted(name)) contains \(quoted(String(bad))), which a cookie name cannot"
        }
        return nil
    }

    static func problem(value: String) -> String? {
        var text = Substring(value)
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        if let bad = text.first(where: {
            !$0.isASCII || ($0.asciiValue ?? 0) < 0x21 || $0 == "\"" || $0 == "," || $0 == ";" || $0 == "\\" || $0.asciiValue == 0x7F
        }) {
            return "the cookie value \(quoted(value)) contains \(quoted(String(bad))), which a cookie value cannot (RFC 6265)"
        }
        return nil
    }

    /// IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"] // 1970-01-01 was a Thursday
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        // Clamped to years 1...9999: `Int(Double)` traps past Int.max, and a huge Max-Age is config data.
        let raw = date.timeIntervalSince1970.rounded(.down)
        let seconds = raw.isNaN ? 0 : Int(min(max(raw, -62_135_596_800), 253_402_300_799))
        var dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - dayNumber * 86_400
        let weekday = days[((dayNumber % 7) + 7) % 7]
        // Civil-from-days (Howard Hinnant's algorithm).
        dayNumber += 719_468
        let era = (dayNumber >= 0 ? dayNumber : dayNumber - 146_096) / 146_097
        let dayOfEra = dayNumber - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        var year = yearOfEra + era * 400
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        if month <= 2 { year += 1 }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)) GMT"
    }
}
