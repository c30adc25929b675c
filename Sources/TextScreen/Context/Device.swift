/// The virtual devices screens are snapshotted on: Kickstarter's device list, each with a fixed
/// text grid (about 8 points a column and 16 points a row).
///
/// The grids are a fixed table rather than computed from points on purpose: changing a ratio would
/// silently re-flow every snapshot, while changing the table is a reviewed diff.
///
/// ```swift
/// Device.phone4inch.grid(for: .portrait)   // GridSize(columns: 40, rows: 35)
/// Device.pad.grid(for: .landscape)         // GridSize(columns: 128, rows: 48)
/// ```
public enum Device: String, CaseIterable, Sendable, Hashable, Codable {
    /// iPhone SE (1st generation), 320×568 points.
    case phone4inch
    /// iPhone 8, 7, 6s, 375×667 points.
    case phone4_7inch
    /// iPhone 8 Plus, 7 Plus, 6s Plus, 414×736 points.
    case phone5_5inch
    /// iPhone X, 375×812 points.
    case phone5_8inch
    /// iPad, 768×1024 points.
    case pad

    /// Screen size in points, portrait.
    public var points: PointSize {
        switch self {
        case .phone4inch: PointSize(width: 320, height: 568)
        case .phone4_7inch: PointSize(width: 375, height: 667)
        case .phone5_5inch: PointSize(width: 414, height: 736)
        case .phone5_8inch: PointSize(width: 375, height: 812)
        case .pad: PointSize(width: 768, height: 1024)
        }
    }

    /// Screen size in points for an orientation (landscape swaps the sides).
    public func points(for orientation: Orientation) -> PointSize {
        orientation == .portrait ? points : PointSize(width: points.height, height: points.width)
    }

    /// The text grid the screen is laid out on.
    public func grid(for orientation: Orientation) -> GridSize {
        switch (self, orientation) {
        case (.phone4inch, .portrait): GridSize(columns: 40, rows: 35)
        case (.phone4_7inch, .portrait): GridSize(columns: 46, rows: 41)
        case (.phone5_5inch, .portrait): GridSize(columns: 51, rows: 46)
        case (.phone5_8inch, .portrait): GridSize(columns: 46, rows: 50)
        case (.pad, .portrait): GridSize(columns: 96, rows: 64)
        case (.phone4inch, .landscape): GridSize(columns: 71, rows: 20)
        case (.phone4_7inch, .landscape): GridSize(columns: 83, rows: 23)
        case (.phone5_5inch, .landscape): GridSize(columns: 92, rows: 25)
        case (.phone5_8inch, .landscape): GridSize(columns: 101, rows: 23)
        case (.pad, .landscape): GridSize(columns: 128, rows: 48)
        }
    }

    /// The portrait grid.
    public var grid: GridSize { grid(for: .portrait) }

    /// Horizontal and vertical size classes, from Kickstarter's trait table.
    public func sizeClass(for orientation: Orientation) -> SizeClasses {
        switch (self, orientation) {
        case (.pad, _): SizeClasses(horizontal: .regular, vertical: .regular)
        case (_, .portrait): SizeClasses(horizontal: .compact, vertical: .regular)
        case (.phone5_5inch, .landscape): SizeClasses(horizontal: .regular, vertical: .compact)
        case (_, .landscape): SizeClasses(horizontal: .compact, vertical: .compact)
        }
    }

    /// `phone` or `pad`.
    public var idiom: Idiom { self == .pad ? .pad : .phone }

    /// The user-interface idiom of a device.
    public enum Idiom: String, Sendable { case phone, pad }
}

/// Portrait or landscape.
public enum Orientation: String, CaseIterable, Sendable, Hashable, Codable {
    case portrait, landscape
}

/// A size in points.
public struct PointSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)×\(height)" }
}

/// A text grid: columns are display columns, rows are lines.
public struct GridSize: Sendable, Hashable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) { self.columns = columns; self.rows = rows }
    /// `40x35`.
    public var description: String { "\(columns)x\(rows)" }
}

/// A size class, as in UIKit's trait collections.
public enum SizeClass: String, Sendable, Hashable { case compact, regular }

/// The horizontal and vertical size classes of a device in an orientation.
public struct SizeClasses: Sendable, Hashable {
    public var horizontal: SizeClass
    public var vertical: SizeClass
    public init(horizontal: SizeClass, vertical: SizeClass) { self.horizontal = horizontal; self.vertical = vertical }
}
