import Foundation

/// One text snapshot a scenario asserted, as the report keeps it: which file, what happened, the
/// text made in this run and (when it differs) the reference's text. The HTML report's gallery
/// lays screen snapshots out per screen as a language × device grid.
public struct SnapshotRecord: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        case matched, mismatched, recorded, missing, failed

        /// A cell the reader must look at: anything but a match.
        public var isFailure: Bool { self != .matched }
    }

    /// A screen matrix's combination.
    public struct Screen: Codable, Sendable, Equatable {
        public var language: String
        public var rightToLeft: Bool
        /// The device column: `phone4inch`, `pad_landscape`, `phone4inch_dark`.
        public var device: String
        public var orientation: String
        public var columns: Int
        public var rows: Int

        public init(language: String, rightToLeft: Bool, device: String, orientation: String, columns: Int, rows: Int) {
            self.language = language
            self.rightToLeft = rightToLeft
            self.device = device
            self.orientation = orientation
            self.columns = columns
            self.rows = rows
        }
    }

    /// The test or scenario part of the file name: `loginEmpty`.
    public var name: String
    /// `lang_de_device_pad`, `order`, `1`.
    public var identifier: String
    /// The reference file.
    public var path: String
    public var outcome: Outcome
    /// The text made in this run.
    public var actual: String?
    /// The reference's text when it differs from ``actual``.
    public var reference: String?
    /// The failure's first line.
    public var summary: String?
    public var screen: Screen?
    public var line: Int

    public init(
        name: String, identifier: String, path: String, outcome: Outcome, actual: String?, reference: String?,
        summary: String?, screen: Screen?, line: Int
    ) {
        self.name = name
        self.identifier = identifier
        self.path = path
        self.outcome = outcome
        self.actual = actual
        self.reference = reference
        self.summary = summary
        self.screen = screen
        self.line = line
    }

    /// The screen this snapshot belongs to in the gallery: its folder and name
    /// (`LoginScreenSnapshots/loginEmpty`).
    public var screenKey: String {
        let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
        return folder.isEmpty ? name : folder + "/" + name
    }
}
