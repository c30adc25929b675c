import Foundation

/// A structural dump of any value that is the same on every run and every machine:
/// dictionary entries and set members sorted, no memory addresses (`0x…` is masked), dates as
/// ISO 8601 in UTC, reference cycles cut.
///
/// ```swift
/// DeterministicDump.dump(["b": 2, "a": 1])
/// // ▿ 2 key/value pairs
/// //   - "a": 1
/// //   - "b": 2
/// ```
public enum DeterministicDump {
    public static func dump(_ value: Any) -> String {
        var output: [String] = []
        write(value, label: nil, indent: 0, path: [], into: &output)
        return output.joined(separator: "\n")
    }

    static func write(_ value: Any, label: String?, indent: Int, path: Set<ObjectIdentifier>, into output: inout [String]) {
        let pad = String(repeating: "  ", count: indent)
        let prefix = label.map { "\($0): " } ?? ""
        if let leaf = leafDescription(value) {
            output.append(pad + "- " + prefix + leaf)
            return
        }
        let mirror = Mirror(reflecting: value)
        var path = path
        if mirror.displayStyle == .class {
            let id = ObjectIdentifier(value as AnyObject)
            if path.contains(id) {
                output.append(pad + "- " + prefix + typeName(value) + " (cycle)")
                return
            }
            path.insert(id)
        }
        switch mirror.displayStyle {
        case .optional:
            if let child = mirror.children.first {
                write(child.value, label: label, indent: indent, path: path, into: &output)
            } else {
                output.append(pad + "- " + prefix + "nil")
            }
        case .collection:
            let children = Array(mirror.children)
            output.append(pad + (children.isEmpty ? "- " : "▿ ") + prefix + count(children.count, "element"))
            for child in children { write(child.value, label: nil, indent: indent + 1, path: path, into: &output) }
        case .set:
            let children = mirror.children.map { child -> [String] in
                var lines: [String] = []
                write(child.value, label: nil, indent: indent + 1, path: path, into: &lines)
                return lines
            }.sorted { $0.joined(separator: "\n") < $1.joined(separator: "\n") }
            output.append(pad + (children.isEmpty ? "- " : "▿ ") + prefix + count(children.count, "member"))
            for lines in children { output += lines }
        case .dictionary:
            let entries = mirror.children.map { child -> (key: String, lines: [String]) in
                let pair = Array(Mirror(reflecting: child.value).children)
                let key = pair.count == 2 ? (leafDescription(pair[0].value) ?? singleLine(dump(pair[0].value))) : "?"
                var lines: [String] = []
                write(pair.count == 2 ? pair[1].value : child.value, label: key, indent: indent + 1, path: path, into: &lines)
                return (key, lines)
            }.sorted { $0.key < $1.key }
            output.append(pad + (entries.isEmpty ? "- " : "▿ ") + prefix + count(entries.count, "key/value pair"))
            for entry in entries { output += entry.lines }
        case .enum:
            let caseName = maskAddresses(String(describing: value).prefix { $0 != "(" }.description)
            let children = Array(mirror.children)
            guard let payload = children.first else {
                output.append(pad + "- " + prefix + typeName(value) + "." + caseName)
                return
            }
            output.append(pad + "▿ " + prefix + typeName(value) + "." + (payload.label ?? caseName))
            let fields = Mirror(reflecting: payload.value)
            if fields.displayStyle == .tuple {
                for (index, field) in fields.children.enumerated() {
                    write(
                        field.value,
                        label: field.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? (fields.children.count == 1 ? nil : ".\(index)"),
                        indent: indent + 1, path: path, into: &output)
                }
            } else {
                write(payload.value, label: nil, indent: indent + 1, path: path, into: &output)
            }
        default:
            let children = Array(mirror.children)
            if children.isEmpty {
                output.append(pad + "- " + prefix + maskAddresses(String(describing: value)))
                return
            }
            let header = mirror.displayStyle == .tuple ? count(children.count, "element") : typeName(value)
            output.append(pad + "▿ " + prefix + header)
            for (index, child) in children.enumerated() {
                let childLabel = child.label ?? ".\(index)"
                write(child.value, label: childLabel, indent: indent + 1, path: path, into: &output)
            }
        }
    }

    /// One-line descriptions for values whose Mirror would be noisy or unstable.
    static func leafDescription(_ value: Any) -> String? {
        switch value {
        case let string as String: return string.debugDescription
        case let substring as Substring: return String(substring).debugDescription
        case let character as Character: return String(character).debugDescription
        case let date as Date: return iso8601(date)
        case let url as URL: return url.absoluteString
        case let uuid as UUID: return uuid.uuidString
        case let data as Data:
            let hex = data.prefix(32).map { String(format: "%02x", $0) }.joined()
            return "\(data.count) bytes" + (data.isEmpty ? "" : " " + hex + (data.count > 32 ? "…" : ""))
        case let decimal as Decimal: return decimal.description
        case let number as any BinaryInteger: return String(describing: number)
        case let number as any BinaryFloatingPoint: return String(describing: number)
        case let bool as Bool: return String(bool)
        case let type as Any.Type: return maskAddresses(String(describing: type))
        default: return nil
        }
    }

    static func typeName(_ value: Any) -> String {
        maskAddresses(String(describing: type(of: value)))
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    static func singleLine(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// Replaces memory addresses (`0x7ff3…`) and runtime context addresses (`$10e2…`) with `0x…`.
    static func maskAddresses(_ text: String) -> String {
        var result = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            if (scalar == "0" && scalars.dropFirst().first == "x") || scalar == "$" {
                let skip = scalar == "$" ? 1 : 2
                let digits = scalars.dropFirst(skip).prefix { $0.properties.isASCIIHexDigit }
                if digits.count >= 4 {
                    result += scalar == "$" ? "$…" : "0x…"
                    scalars = scalars.dropFirst(skip + digits.count)
                    continue
                }
            }
            result.unicodeScalars.append(scalar)
            scalars = scalars.dropFirst()
        }
        return result
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let fraction = date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)
        formatter.formatOptions = fraction == 0 ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
