import Foundation

/// Numbers, dates, times, relative times and lists in a snapshot's language, formatted by
/// TextScreen itself from ``LocaleFormats`` rather than by ICU, so Linux and Darwin print the same
/// bytes (`DateFormatter` and `NumberFormatter` differ between Apple's ICU and swift-foundation-icu).
///
/// ```swift
/// let format = SnapshotFormatter(localeIdentifier: "de_DE", timeZone: TimeZone(identifier: "UTC")!)
/// format.number(1234567.891, fractionDigits: 2)                 // "1.234.567,89"
/// format.date(SnapshotContext.fixedNow, style: .long)           // "14. November 2023"
/// format.time(SnapshotContext.fixedNow)                         // "22:13"
/// format.relative(now.addingTimeInterval(-3 * 3600), to: now)    // "vor 3 Stunden"
/// format.list(["Anna", "Ben", "Cem"])                           // "Anna, Ben und Cem"
/// ```
/// In a screen matrix use ``SnapshotContext/format``.
public struct SnapshotFormatter: Sendable {
    public enum DateStyle: Sendable { case short, medium, long }

    public let formats: LocaleFormats
    public let timeZone: TimeZone

    public init(localeIdentifier: String, timeZone: TimeZone) {
        self.formats = LocaleFormats.forLocale(localeIdentifier)
        self.timeZone = timeZone
    }

    public init(formats: LocaleFormats, timeZone: TimeZone) {
        self.formats = formats
        self.timeZone = timeZone
    }

    // MARK: Numbers

    /// An integer with the locale's grouping (`1,234,567`; `1.234.567`; Spanish `1000` but `12.345`).
    public func integer(_ value: Int) -> String {
        (value < 0 ? "-" : "") + grouped(value.magnitude.description)
    }

    /// A number rounded half-away-from-zero to `fractionDigits`, grouped, with the locale's decimal separator.
    public func number(_ value: Double, fractionDigits: Int = 0) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let digits = max(0, min(fractionDigits, 15))
        let scale = pow(10, Double(digits))
        let scaled = (value.magnitude * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { return String(value) }
        let whole = UInt64(scaled)
        let factor = UInt64(scale)
        let integerPart = grouped(String(whole / factor))
        let sign = value < 0 && whole != 0 ? "-" : ""
        guard digits > 0 else { return sign + integerPart }
        let fraction = String(whole % factor)
        return sign + integerPart + formats.decimalSeparator + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// `42 %` style is locale-specific; this gives the percent with the locale's number and no space rules
    /// beyond the table: `12.5%` / `12,5 %` (French and German put a narrow no-break space before it).
    public func percent(_ fraction: Double, fractionDigits: Int = 0) -> String {
        let text = number(fraction * 100, fractionDigits: fractionDigits)
        switch formats.pluralLanguage {
        case "de", "fr": return text + "\u{00A0}%"
        default: return text + "%"
        }
    }

    func grouped(_ digits: String) -> String {
        guard !formats.groupingSeparator.isEmpty, digits.count > 3, formats.groupsFourDigits || digits.count > 4 else { return digits }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return groups.joined(separator: formats.groupingSeparator)
    }

    // MARK: Dates and times

    /// The date in the locale's short (`11/14/23`), medium (`Nov 14, 2023`) or long (`November 14, 2023`) form.
    public func date(_ date: Date, style: DateStyle = .medium) -> String {
        let pattern =
            switch style {
            case .short: formats.shortDate
            case .medium: formats.mediumDate
            case .long: formats.longDate
            }
        return render(pattern, date)
    }

    /// The time of day: `10:13 PM`, `22:13`.
    public func time(_ date: Date) -> String {
        render(formats.time, date)
    }

    /// Date and time joined as the locale joins them: `Nov 14, 2023, 10:13 PM`.
    public func dateTime(_ date: Date, style: DateStyle = .medium) -> String {
        formats.dateTime.replacingOccurrences(of: "{date}", with: self.date(date, style: style))
            .replacingOccurrences(of: "{time}", with: time(date))
    }

    /// A fixed pattern in the tokens `y yy M MM MMM MMMM d dd H HH h hh mm ss a` with `'quoted'` text.
    public func date(_ date: Date, pattern: String) -> String {
        render(pattern, date)
    }

    /// `now`, `5 minutes ago`, `in 3 hours`, `2 days ago`: the largest whole unit up to days.
    public func relative(_ date: Date, to now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        if magnitude < 60 { return formats.now }
        let (unit, count): (String, Int) =
            magnitude < 3600
            ? ("minute", Int(magnitude / 60))
            : magnitude < 86_400 ? ("hour", Int(magnitude / 3600)) : ("day", Int(magnitude / 86_400))
        let table = (seconds < 0 ? formats.pastUnits : formats.futureUnits)[unit] ?? [:]
        let category = PluralCategory.category(for: count, languageCode: formats.pluralLanguage)
        let template = table[category] ?? table[.other] ?? "%d"
        return template.replacingOccurrences(of: "%d", with: integer(count))
    }

    // MARK: Lists

    /// `A`, `A and B`, `A, B, and C` in the locale's words.
    public func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        case 2: return join(formats.listPair, items[0], items[1])
        default:
            var text = items[items.count - 2]
            text = join(formats.listEnd, text, items[items.count - 1])
            for item in items.dropLast(2).reversed() { text = join(formats.listMiddle, item, text) }
            return text
        }
    }

    private func join(_ pattern: String, _ first: String, _ second: String) -> String {
        pattern.replacingOccurrences(of: "{0}", with: first).replacingOccurrences(of: "{1}", with: second)
    }

    // MARK: Patterns

    private func render(_ pattern: String, _ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = parts.year ?? 0
        let month = parts.month ?? 1
        let day = parts.day ?? 1
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        let second = parts.second ?? 0
        var output = ""
        var characters = Array(pattern)[...]
        while let character = characters.first {
            if character == "'" {
                characters = characters.dropFirst()
                let literal = characters.prefix { $0 != "'" }
                output += String(literal)
                characters = characters.dropFirst(literal.count + 1)
                continue
            }
            let run = characters.prefix { $0 == character }
            characters = characters.dropFirst(run.count)
            switch (character, run.count) {
            case ("y", 2): output += two(year % 100)
            case ("y", _): output += String(year)
            case ("M", 1): output += String(month)
            case ("M", 2): output += two(month)
            case ("M", 3): output += formats.monthAbbreviations[month - 1]
            case ("M", _): output += formats.monthNames[month - 1]
            case ("d", 1): output += String(day)
            case ("d", _): output += two(day)
            case ("H", 1): output += String(hour)
            case ("H", _): output += two(hour)
            case ("h", let count): let twelve = hour % 12 == 0 ? 12 : hour % 12; output += count == 1 ? String(twelve) : two(twelve)
            case ("m", _): output += two(minute)
            case ("s", _): output += two(second)
            case ("a", _): output += hour < 12 ? formats.amPM.am : formats.amPM.pm
            default: output += String(run)
            }
        }
        return output
    }

    private func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
