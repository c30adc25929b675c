import Foundation

/// One text snapshot a scenario asserted, as the report keeps it: which file, what happened, the
/// text made in this run and (when it differs) the reference's text. The HTML report's gallery
/// lays screen snapshots out per screen as a language × device grid.
struct SnapshotRecord: Codable, Sendable, Equatable {
    enum Outcome: String, Codable, Sendable {
        case matched, mismatched, recorded, missing, failed

        /// A cell the reader must look at: anything but a match.
        var isFailure: Bool { self != .matched }
    }

    /// A screen matrix's combination.
    struct Screen: Codable, Sendable, Equatable {
        var language: String
        var rightToLeft: Bool
        /// The device column: `phone4inch`, `pad_landscape`, `phone4inch_dark`.
        var device: String
        var orientation: String
        var columns: Int
        var rows: Int
    }

    /// The test or scenario part of the file name: `loginEmpty`.
    var name: String
    /// `lang_de_device_pad`, `order`, `1`.
    var identifier: String
    /// The reference file.
    var path: String
    var outcome: Outcome
    /// The text made in this run.
    var actual: String?
    /// The reference's text when it differs from ``actual``.
    var reference: String?
    /// The failure's first line.
    var summary: String?
    var screen: Screen?
    var line: Int

    /// The screen this snapshot belongs to in the gallery: its folder and name
    /// (`LoginScreenSnapshots/loginEmpty`).
    var screenKey: String {
        let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
        return folder.isEmpty ? name : folder + "/" + name
    }
}
