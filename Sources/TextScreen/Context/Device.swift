/// A virtual device screens are snapshotted on: a name, a text grid per orientation, size classes
/// and ``ScreenTraits`` (Dynamic Type size, appearance).
///
/// An open value type. The presets are Kickstarter's device list (``allCases``, whose grids and
/// snapshot names never change) plus current iPhones and iPads; a grid is about 8 points a column
/// and 16 points a row. Make your own for anything else:
///
/// ```swift
/// Device.phone4inch.grid(for: .portrait)   // GridSize(columns: 40, rows: 35)
/// Device.phone6_1inch.grid                 // GridSize(columns: 49, rows: 53)
/// let watchLike = Device(name: "tiny", points: PointSize(width: 184, height: 224))   // 23x14
/// let big = Device.phone6_1inch.with(dynamicType: .accessibility3)   // snapshots `…_type_accessibility3`
/// let night = Device.pad11inch.with(appearance: .dark)               // snapshots `…_dark`
/// ```
/// The grids are fixed per preset rather than computed on the fly on purpose: changing a ratio
/// would silently re-flow every snapshot, while changing a preset is a reviewed diff.
public struct Device: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The identifier in snapshot names (`device_phone6_1inch`) and headers.
    public let rawValue: String
    /// A human name: `iPhone 16 / 15 (6.1")`.
    public let displayName: String
    /// Screen size in points, portrait.
    public let points: PointSize
    /// The portrait text grid.
    public let portraitGrid: GridSize
    /// The landscape text grid.
    public let landscapeGrid: GridSize
    /// `phone` or `pad`.
    public let idiom: Idiom
    public let portraitSizeClasses: SizeClasses
    public let landscapeSizeClasses: SizeClasses
    /// Dynamic Type size and appearance the screen is rendered with (``ScreenTraits/standard`` by default).
    public var traits: ScreenTraits

    /// A device. Grids default to `points / (8, 16)` (landscape swaps the sides); size classes to
    /// compact × regular for a phone in portrait, compact × compact in landscape, regular × regular
    /// for a pad.
    public init(
        name: String, displayName: String? = nil, points: PointSize, grid: GridSize? = nil,
        landscapeGrid: GridSize? = nil, idiom: Idiom = .phone, sizeClasses: SizeClasses? = nil,
        landscapeSizeClasses: SizeClasses? = nil, traits: ScreenTraits = .standard
    ) {
        self.rawValue = name
        self.displayName = displayName ?? name
        self.points = points
        self.portraitGrid = grid ?? GridSize(columns: points.width / 8, rows: points.height / 16)
        self.landscapeGrid = landscapeGrid ?? GridSize(columns: points.height / 8, rows: points.width / 16)
        self.idiom = idiom
        let regular = SizeClasses(horizontal: .regular, vertical: .regular)
        self.portraitSizeClasses = sizeClasses ?? (idiom == .pad ? regular : SizeClasses(horizontal: .compact, vertical: .regular))
        self.landscapeSizeClasses =
            landscapeSizeClasses
            ?? (idiom == .pad ? regular : SizeClasses(horizontal: .compact, vertical: .compact))
        self.traits = traits
    }

    /// A preset by name (`"phone6_1inch"`); nil for names without a preset.
    public init?(rawValue: String) {
        guard let preset = Device.presets.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = preset
    }

    /// The device's name; same as ``rawValue``.
    public var name: String { rawValue }

    /// Screen size in points for an orientation (landscape swaps the sides).
    public func points(for orientation: Orientation) -> PointSize {
        orientation == .portrait ? points : PointSize(width: points.height, height: points.width)
    }

    /// The text grid the screen is laid out on.
    public func grid(for orientation: Orientation) -> GridSize {
        orientation == .portrait ? portraitGrid : landscapeGrid
    }

    /// The portrait grid.
    public var grid: GridSize { portraitGrid }

    /// Horizontal and vertical size classes in an orientation.
    public func sizeClass(for orientation: Orientation) -> SizeClasses {
        orientation == .portrait ? portraitSizeClasses : landscapeSizeClasses
    }

    /// The same device with another Dynamic Type size.
    public func with(dynamicType size: DynamicTypeSize) -> Device {
        var copy = self
        copy.traits.dynamicType = size
        return copy
    }

    /// The same device in light or dark appearance.
    public func with(appearance: Appearance) -> Device {
        var copy = self
        copy.traits.appearance = appearance
        return copy
    }

    /// The same device with other traits.
    public func with(traits: ScreenTraits) -> Device {
        var copy = self
        copy.traits = traits
        return copy
    }

    public var description: String { rawValue + traits.identifierSuffix }

    /// The user-interface idiom of a device.
    public enum Idiom: String, Sendable, Hashable, Codable { case phone, pad }
}

// MARK: - Presets

extension Device {
    private static func compactRegular() -> SizeClasses { SizeClasses(horizontal: .compact, vertical: .regular) }
    private static func regularCompact() -> SizeClasses { SizeClasses(horizontal: .regular, vertical: .compact) }
    private static func compactCompact() -> SizeClasses { SizeClasses(horizontal: .compact, vertical: .compact) }

    // Kickstarter's devices: grids and names exactly as before, so no snapshot changes.

    /// iPhone SE (1st generation), 320×568 points.
    public static let phone4inch = Device(
        name: "phone4inch", displayName: "iPhone SE (1st generation), 4\"", points: PointSize(width: 320, height: 568),
        grid: GridSize(columns: 40, rows: 35), landscapeGrid: GridSize(columns: 71, rows: 20))
    /// iPhone 8, 7, 6s, 375×667 points.
    public static let phone4_7inch = Device(
        name: "phone4_7inch", displayName: "iPhone 8, 4.7\"", points: PointSize(width: 375, height: 667),
        grid: GridSize(columns: 46, rows: 41), landscapeGrid: GridSize(columns: 83, rows: 23))
    /// iPhone 8 Plus, 7 Plus, 6s Plus, 414×736 points (regular width in landscape).
    public static let phone5_5inch = Device(
        name: "phone5_5inch", displayName: "iPhone 8 Plus, 5.5\"", points: PointSize(width: 414, height: 736),
        grid: GridSize(columns: 51, rows: 46), landscapeGrid: GridSize(columns: 92, rows: 25),
        landscapeSizeClasses: regularCompact())
    /// iPhone X, 375×812 points.
    public static let phone5_8inch = Device(
        name: "phone5_8inch", displayName: "iPhone X, 5.8\"", points: PointSize(width: 375, height: 812),
        grid: GridSize(columns: 46, rows: 50), landscapeGrid: GridSize(columns: 101, rows: 23))
    /// iPad, 768×1024 points.
    public static let pad = Device(
        name: "pad", displayName: "iPad 9.7\"", points: PointSize(width: 768, height: 1024),
        grid: GridSize(columns: 96, rows: 64), landscapeGrid: GridSize(columns: 128, rows: 48), idiom: .pad)

    // Current families.

    /// iPhone SE (2nd and 3rd generation), 375×667 points: the 4.7" grid under today's name.
    public static let phoneSE = Device(
        name: "phoneSE", displayName: "iPhone SE (3rd generation)", points: PointSize(width: 375, height: 667))
    /// iPhone 16, 15, 14 (6.1"), 393×852 points.
    public static let phone6_1inch = Device(
        name: "phone6_1inch", displayName: "iPhone 16 / 15, 6.1\"", points: PointSize(width: 393, height: 852))
    /// iPhone 16 Plus, 15 Pro Max (6.7"), 430×932 points (regular width in landscape).
    public static let phone6_7inch = Device(
        name: "phone6_7inch", displayName: "iPhone 16 Plus / 15 Pro Max, 6.7\"",
        points: PointSize(width: 430, height: 932), landscapeSizeClasses: regularCompact())
    /// iPad Pro and iPad Air 11", 834×1194 points.
    public static let pad11inch = Device(
        name: "pad11inch", displayName: "iPad Pro / Air 11\"", points: PointSize(width: 834, height: 1194), idiom: .pad)
    /// iPad Pro 13", 1032×1376 points.
    public static let pad13inch = Device(
        name: "pad13inch", displayName: "iPad Pro 13\"", points: PointSize(width: 1032, height: 1376), idiom: .pad)
    /// An app in half of an 11" iPad's landscape split view: 592×834 points, compact width. The pane
    /// keeps its grid in either orientation argument (it is already a landscape layout).
    public static let padSplitView = Device(
        name: "padSplitView", displayName: "iPad 11\" split view (1/2)", points: PointSize(width: 592, height: 834),
        grid: GridSize(columns: 74, rows: 52), landscapeGrid: GridSize(columns: 74, rows: 52), idiom: .pad,
        sizeClasses: compactRegular(), landscapeSizeClasses: compactRegular())
    /// Slide Over, or the 1/3 pane of a split view: 320 points wide; 1194 tall in portrait, 834 in landscape.
    public static let padSlideOver = Device(
        name: "padSlideOver", displayName: "iPad Slide Over (1/3)", points: PointSize(width: 320, height: 1194),
        grid: GridSize(columns: 40, rows: 74), landscapeGrid: GridSize(columns: 40, rows: 52), idiom: .pad,
        sizeClasses: compactRegular(), landscapeSizeClasses: compactRegular())

    /// Kickstarter's five devices: the default matrix, whose grids and snapshot names never change.
    public static let allCases: [Device] = [.phone4inch, .phone4_7inch, .phone5_5inch, .phone5_8inch, .pad]

    /// Current iPhones: SE, 6.1", 6.7".
    public static let currentPhones: [Device] = [.phoneSE, .phone6_1inch, .phone6_7inch]

    /// Current iPads: 11", 13", split view and Slide Over.
    public static let currentPads: [Device] = [.pad11inch, .pad13inch, .padSplitView, .padSlideOver]

    /// Every preset, Kickstarter's first.
    public static let presets: [Device] = allCases + currentPhones + currentPads
}

/// Portrait or landscape.
public enum Orientation: String, CaseIterable, Sendable, Hashable, Codable {
    case portrait, landscape
}

/// A size in points.
public struct PointSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)×\(height)" }
}

/// A text grid: columns are display columns, rows are lines.
public struct GridSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) { self.columns = columns; self.rows = rows }
    /// `40x35`.
    public var description: String { "\(columns)x\(rows)" }
}

/// A size class, as in UIKit's trait collections.
public enum SizeClass: String, Sendable, Hashable, Codable { case compact, regular }

/// The horizontal and vertical size classes of a device in an orientation.
public struct SizeClasses: Sendable, Hashable, Codable {
    public var horizontal: SizeClass
    public var vertical: SizeClass
    public init(horizontal: SizeClass, vertical: SizeClass) { self.horizontal = horizontal; self.vertical = vertical }
}
