/// Traits a screen can read besides its size: the Dynamic Type size and the appearance. (Layout
/// direction comes from the ``Language``.) Part of a ``Device``; non-standard traits add to the
/// snapshot name (`_type_accessibility3`, `_dark`) and header (`type=accessibility3`,
/// `appearance=dark`), so standard snapshots keep their names.
///
/// ```swift
/// assertScreenSnapshots(languages: [.en], devices: [.phone6_1inch.with(dynamicType: .accessibility3)]) { context in
///     context.traits.dynamicType.isAccessibilitySize ? compactRows : rows
/// }
/// ```
public struct ScreenTraits: Sendable, Hashable, Codable {
    public var dynamicType: DynamicTypeSize
    public var appearance: Appearance

    public init(dynamicType: DynamicTypeSize = .large, appearance: Appearance = .light) {
        self.dynamicType = dynamicType
        self.appearance = appearance
    }

    /// `large` text, light appearance: the iOS defaults.
    public static let standard = ScreenTraits()

    /// `""` for the standard traits, else `_type_<size>` and/or `_dark`.
    public var identifierSuffix: String {
        (dynamicType == .large ? "" : "_type_\(dynamicType.rawValue)") + (appearance == .light ? "" : "_\(appearance.rawValue)")
    }

    /// `""` for the standard traits, else ` type=<size>` and/or ` appearance=dark`.
    public var headerSuffix: String {
        (dynamicType == .large ? "" : " type=\(dynamicType.rawValue)")
            + (appearance == .light ? "" : " appearance=\(appearance.rawValue)")
    }
}

/// iOS's Dynamic Type sizes. Text is laid out as if each character were `scale` times as wide and
/// tall as at `large`, so it wraps, truncates and folds where the larger text would.
public enum DynamicTypeSize: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// The body text size in points (Apple's table; `large` is 17).
    public var bodyPointSize: Int {
        switch self {
        case .xSmall: 14
        case .small: 15
        case .medium: 16
        case .large: 17
        case .xLarge: 19
        case .xxLarge: 21
        case .xxxLarge: 23
        case .accessibility1: 28
        case .accessibility2: 33
        case .accessibility3: 40
        case .accessibility4: 47
        case .accessibility5: 53
        }
    }

    /// Body size relative to `large`.
    public var scale: Double { Double(bodyPointSize) / 17 }

    /// One of the five accessibility sizes.
    public var isAccessibilitySize: Bool { bodyPointSize >= 28 }

    public static func < (lhs: DynamicTypeSize, rhs: DynamicTypeSize) -> Bool {
        lhs.bodyPointSize < rhs.bodyPointSize
    }
}

/// Light or dark mode.
public enum Appearance: String, Sendable, Hashable, Codable, CaseIterable {
    case light, dark
}
