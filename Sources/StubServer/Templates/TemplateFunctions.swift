import Foundation

/// moco's template functions `now(format)` and `random([start,] [end,] [format])`.
enum TemplateFunctions {
    static func call(_ name: String, _ arguments: [TemplateValue], now: Date) throws(TemplateRenderError) -> TemplateValue {
        switch name {
        case "now":
            guard arguments.count == 1, case .string(let pattern) = arguments[0] else {
                throw TemplateRenderError("now needs a date format string, e.g. now('yyyy-MM-dd')")
            }
            return .string(DateFormatterCache.shared.string(from: now, pattern: pattern))
        case "random":
            return try random(arguments)
        default:
            throw TemplateRenderError("unknown function \(name)")
        }
    }

    /// `random()` in [0,1), `random(n)` in [0,n), `random(a, b)` in [a,b); a trailing string
    /// is a DecimalFormat pattern (`'###.##'`). Bounds must be positive and `b > a`, as in moco.
    static func random(_ arguments: [TemplateValue]) throws(TemplateRenderError) -> TemplateValue {
        var numbers: [Double] = []
        var pattern: String?
        for (offset, argument) in arguments.enumerated() {
            switch argument {
            case .number(let value, _): numbers.append(value.rounded(.towardZero))
            case .string(let text) where offset == arguments.count - 1: pattern = text
            default: throw TemplateRenderError("random's arguments are numbers and an optional format string last")
            }
        }
        var start = 0.0
        var end = 1.0
        if numbers.count == 1 {
            guard numbers[0] > 0 else { throw TemplateRenderError("random's range must be greater than 0") }
            end = numbers[0]
        } else if numbers.count >= 2 {
            guard numbers[0] > 0, numbers[1] > 0 else { throw TemplateRenderError("random's start and end must be greater than 0") }
            guard numbers[1] > numbers[0] else { throw TemplateRenderError("random's end must be greater than its start") }
            start = numbers[0]
            end = numbers[1]
        }
        let value = start + Double.random(in: 0..<1) * (end - start)
        if let pattern {
            return .string(DecimalPattern(pattern).format(value))
        }
        return .number(value, text: nil)
    }
}

/// The subset of Java's `DecimalFormat` patterns that templates use: `#`, `0`, `.`, `,`
/// and literal prefix/suffix text; rounding half-even.
struct DecimalPattern: Sendable {
    var prefix = ""
    var suffix = ""
    var minimumIntegerDigits = 1
    var minimumFractionDigits = 0
    var maximumFractionDigits = 0
    var groupingSize = 0

    /// FreeMarker's number format in moco: `#.#`.
    static let mocoDefault = DecimalPattern("#.#")

    init(_ pattern: String) {
        let characters = Array(pattern)
        var index = 0
        while index < characters.count, !"#0.,".contains(characters[index]) {
            prefix.append(characters[index])
            index += 1
        }
        var integerPart = ""
        while index < characters.count, "#0,".contains(characters[index]) {
            integerPart.append(characters[index])
            index += 1
        }
        var fractionPart = ""
        var hasDecimalPoint = false
        if index < characters.count, characters[index] == "." {
            hasDecimalPoint = true
            index += 1
            while index < characters.count, "#0".contains(characters[index]) {
                fractionPart.append(characters[index])
                index += 1
            }
        }
        suffix = String(characters[index...])
        minimumIntegerDigits = integerPart.filter { $0 == "0" }.count
        if let lastComma = integerPart.lastIndex(of: ",") {
            groupingSize = integerPart[integerPart.index(after: lastComma)...].count
        }
        minimumFractionDigits = fractionPart.filter { $0 == "0" }.count
        maximumFractionDigits = fractionPart.count
        // Java's DecimalFormat.applyPattern: an integer part of only '#' before a decimal
        // point still shows one digit ("#.##" formats 0.16 as "0.16"; ".##" gives ".16").
        if !integerPart.contains("0"), integerPart.contains("#"), hasDecimalPoint {
            minimumIntegerDigits = 1
        }
    }

    func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let scale = pow(10.0, Double(maximumFractionDigits))
        let scaled = (abs(value) * scale).rounded(.toNearestOrEven)
        guard scaled < 9.0e17 else { return prefix + String(value) + suffix }
        var digits = String(UInt64(scaled))
        if digits.count <= maximumFractionDigits {
            digits = String(repeating: "0", count: maximumFractionDigits - digits.count + 1) + digits
        }
        var integer = String(digits.prefix(digits.count - maximumFractionDigits))
        var fraction = String(digits.suffix(maximumFractionDigits))
        while fraction.count > minimumFractionDigits, fraction.hasSuffix("0") { fraction.removeLast() }
        while integer.count > 1, integer.hasPrefix("0") { integer.removeFirst() }
        if integer == "0" && minimumIntegerDigits == 0 && !fraction.isEmpty { integer = "" }
        if integer.count < minimumIntegerDigits { integer = String(repeating: "0", count: minimumIntegerDigits - integer.count) + integer }
        if integer.isEmpty && fraction.isEmpty { integer = "0" }
        if groupingSize > 0, integer.count > groupingSize {
            var grouped = ""
            for (offset, character) in integer.enumerated() {
                if offset > 0, (integer.count - offset) % groupingSize == 0 { grouped.append(",") }
                grouped.append(character)
            }
            integer = grouped
        }
        let negative = value < 0 && (UInt64(scaled) != 0)
        return prefix + (negative ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction) + suffix
    }
}

/// `DateFormatter`s are costly to make; keep one per pattern, used under a lock.
final class DateFormatterCache: @unchecked Sendable {
    static let shared = DateFormatterCache()
    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    func string(from date: Date, pattern: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        let formatter: DateFormatter
        if let cached = formatters[pattern] {
            formatter = cached
        } else {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone.current
            formatter.dateFormat = pattern
            if formatters.count < 64 { formatters[pattern] = formatter }
        }
        return formatter.string(from: date)
    }
}
