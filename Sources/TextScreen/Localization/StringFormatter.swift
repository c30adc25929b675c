import Foundation

/// `printf`-style formatting that gives the same text on Linux and Darwin.
///
/// `String(format:locale:)` groups thousands on Linux (`1 000 000` with U+202F in French) but not on
/// Darwin (`1000000`), so a snapshot recorded on a Mac would fail on Linux CI. This formatter follows
/// Darwin: no grouping, the locale's decimal separator.
///
/// Supports `%@ %d %i %u %x %X %o %f %F %e %g %s %c %%`, positions (`%2$@`), flags `- 0 + space`,
/// width, precision and length modifiers (`l ll h hh q z t j L`, ignored).
///
/// ```swift
/// StringFormatter.format("%d stories, %.1f%%", [1_000_000, 2.5], locale: Locale(identifier: "de_DE"))
/// // "1000000 stories, 2,5%"
/// ```
public enum StringFormatter {
    public static func format(_ format: String, _ arguments: [any CVarArg], locale: Locale) -> String {
        var output = ""
        var scalars = Array(format.unicodeScalars)[...]
        var nextArgument = 0
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard scalar == "%" else { output.unicodeScalars.append(scalar); continue }
            var spec = Spec()
            // Position: digits followed by `$`.
            let digits = scalars.prefix { ("0"..."9").contains($0) }
            if !digits.isEmpty, scalars.dropFirst(digits.count).first == "$" {
                spec.position = Int(String(String.UnicodeScalarView(digits)))
                scalars = scalars.dropFirst(digits.count + 1)
            }
            while let flag = scalars.first, "-0+ #'".unicodeScalars.contains(flag) {
                spec.flags.insert(Character(flag))
                scalars = scalars.dropFirst()
            }
            let width = scalars.prefix { ("0"..."9").contains($0) }
            if !width.isEmpty { spec.width = Int(String(String.UnicodeScalarView(width))); scalars = scalars.dropFirst(width.count) }
            if scalars.first == "." {
                scalars = scalars.dropFirst()
                let precision = scalars.prefix { ("0"..."9").contains($0) }
                spec.precision = Int(String(String.UnicodeScalarView(precision))) ?? 0
                scalars = scalars.dropFirst(precision.count)
            }
            while let length = scalars.first, "hlqzjtL".unicodeScalars.contains(length) { scalars = scalars.dropFirst() }
            guard let conversion = scalars.first else { output += "%"; break }
            scalars = scalars.dropFirst()
            if conversion == "%" { output += "%"; continue }
            let index = spec.position.map { $0 - 1 } ?? nextArgument
            if spec.position == nil { nextArgument += 1 }
            guard index >= 0, index < arguments.count else { output += "%" + String(conversion); continue }
            output += pad(render(arguments[index], conversion: Character(conversion), spec: spec, locale: locale), spec: spec)
        }
        return output
    }

    struct Spec {
        var position: Int?
        var flags: Set<Character> = []
        var width: Int?
        var precision: Int?
    }

    static func render(_ argument: any CVarArg, conversion: Character, spec: Spec, locale: Locale) -> String {
        switch conversion {
        case "d", "i", "u":
            guard let value = integer(argument) else { return "\(argument)" }
            var text = value.magnitude.description
            if let precision = spec.precision, text.count < precision {
                text = String(repeating: "0", count: precision - text.count) + text
            }
            return sign(negative: value < 0, spec: spec) + text
        case "x", "X", "o":
            guard let value = integer(argument) else { return "\(argument)" }
            let bits = UInt64(truncatingIfNeeded: value)
            let text = String(bits, radix: conversion == "o" ? 8 : 16, uppercase: conversion == "X")
            return (spec.flags.contains("#") && bits != 0 ? (conversion == "o" ? "0" : (conversion == "X" ? "0X" : "0x")) : "") + text
        case "f", "F", "e", "E", "g", "G":
            guard let value = floating(argument) else { return "\(argument)" }
            let precision = spec.precision.map { ".\($0)" } ?? ""
            var text = String(format: "%\(precision)\(conversion)", locale: nil, value.magnitude)
            let separator = locale.decimalSeparator ?? "."
            if separator != "." { text = text.replacingOccurrences(of: ".", with: separator) }
            return sign(negative: value < 0 || (value == 0 && value.sign == .minus), spec: spec) + text
        case "c":
            if let value = integer(argument), let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: value)) { return String(scalar) }
            return "\(argument)"
        default: // @, s and anything else: the value's description
            var text = string(argument)
            if let precision = spec.precision, conversion == "s" || conversion == "@" { text = String(text.prefix(precision)) }
            return text
        }
    }

    static func pad(_ text: String, spec: Spec) -> String {
        guard let width = spec.width, text.count < width else { return text }
        let fill = width - text.count
        if spec.flags.contains("-") { return text + String(repeating: " ", count: fill) }
        if spec.flags.contains("0"), let first = text.first, first == "-" || first == "+" {
            return String(first) + String(repeating: "0", count: fill) + text.dropFirst()
        }
        return String(repeating: spec.flags.contains("0") ? "0" : " ", count: fill) + text
    }

    static func sign(negative: Bool, spec: Spec) -> String {
        if negative { return "-" }
        if spec.flags.contains("+") { return "+" }
        if spec.flags.contains(" ") { return " " }
        return ""
    }

    static func integer(_ argument: any CVarArg) -> Int64? {
        switch argument {
        case let value as Int: Int64(value)
        case let value as Int64: value
        case let value as Int32: Int64(value)
        case let value as Int16: Int64(value)
        case let value as Int8: Int64(value)
        case let value as UInt: Int64(truncatingIfNeeded: value)
        case let value as UInt64: Int64(truncatingIfNeeded: value)
        case let value as UInt32: Int64(value)
        case let value as UInt16: Int64(value)
        case let value as UInt8: Int64(value)
        case let value as Double: Int64(exactly: value.rounded(.towardZero))
        case let value as NSNumber: value.int64Value
        default: nil
        }
    }

    static func floating(_ argument: any CVarArg) -> Double? {
        switch argument {
        case let value as Double: value
        case let value as Float: Double(value)
        case let value as NSNumber: value.doubleValue
        default: integer(argument).map(Double.init)
        }
    }

    static func string(_ argument: any CVarArg) -> String {
        switch argument {
        case let value as String: value
        case let value as NSString: String(describing: value)
        case let value as CustomStringConvertible: value.description
        default: "\(argument)"
        }
    }
}
