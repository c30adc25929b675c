/// `U+202F NARROW NO-BREAK SPACE`: a scalar's code point and Unicode name, for diff hints.
/// Controls have no `name` in the Unicode data, so their common aliases are filled in here.
public enum ScalarNames {
    /// `U+0020 SPACE`, `U+000D CARRIAGE RETURN`, `U+E000 <private use>`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        "\(codePoint(scalar)) \(name(of: scalar))"
    }

    /// `U+00E9`.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
    }

    /// The Unicode name (or control alias) of a scalar.
    public static func name(of scalar: Unicode.Scalar) -> String {
        if let name = scalar.properties.name { return name }
        if let alias = controlAliases[scalar.value] { return alias }
        if let alias = scalar.properties.nameAlias { return alias }
        switch scalar.properties.generalCategory {
        case .privateUse: return "<private use>"
        case .unassigned: return "<unassigned>"
        case .control: return "<control>"
        default: return "<unnamed>"
        }
    }

    static let controlAliases: [UInt32: String] = [
        0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
        0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE",
        0x7F: "DELETE", 0x85: "NEXT LINE", 0xA0: "NO-BREAK SPACE",
    ]
}
