import Foundation
import Locking

/// What TextSnapshot compared or recorded, handed to whoever reports the run: SpecKit turns each
/// event into a snapshot record of the running scenario, so the HTML report's gallery shows the
/// screens a scenario asserted. TextSnapshot does not depend on SpecKit; both meet here, as their
/// failures meet in ``FailureRouter``. Without a listener (TextSnapshot on its own) nothing is
/// collected and no text is kept.
package struct SnapshotEvent: Sendable, Equatable {
    package enum Outcome: String, Sendable {
        /// The actual text equals the reference.
        case matched
        /// The actual text differs from the reference (and nothing was written).
        case mismatched
        /// A reference was written: new, re-recorded after a difference, or record mode `all`.
        case recorded
        /// No reference, and nothing could be written.
        case missing
        /// The snapshot could not be made or checked (a throwing screen, a duplicate name, …).
        case failed
    }

    /// A screen's combination, when the snapshot is one cell of a language × device matrix.
    package struct Screen: Sendable, Equatable {
        /// `ar`, `pt`, `de-CH`.
        package var language: String
        package var rightToLeft: Bool
        /// `phone4inch`, `pad`.
        package var device: String
        /// `portrait` or `landscape`.
        package var orientation: String
        /// The grid the text is laid out on, in display columns and lines.
        package var columns: Int
        package var rows: Int

        package init(language: String, rightToLeft: Bool, device: String, orientation: String, columns: Int, rows: Int) {
            self.language = language
            self.rightToLeft = rightToLeft
            self.device = device
            self.orientation = orientation
            self.columns = columns
            self.rows = rows
        }
    }

    /// The test (or scenario) part of the file name: `loginEmpty`.
    package var name: String
    /// The per-assertion part: `lang_de_device_pad`, `order`, `1`.
    package var identifier: String
    /// The reference file.
    package var referencePath: String
    package var outcome: Outcome
    /// The text the code produced in this run (nil when it could not be made).
    package var actual: String?
    /// The reference's text, kept only when it differs from ``actual``.
    package var reference: String?
    /// The first line of the failure (`… does not match reference: 1 line differs (…)`), if any.
    package var summary: String?
    package var screen: Screen?
    /// Where the assertion was written.
    package var file: String
    package var line: Int

    package init(
        name: String, identifier: String, referencePath: String, outcome: Outcome, actual: String?,
        reference: String? = nil, summary: String? = nil, screen: Screen? = nil, file: String, line: Int
    ) {
        self.name = name
        self.identifier = identifier
        self.referencePath = referencePath
        self.outcome = outcome
        self.actual = actual
        self.reference = reference
        self.summary = summary
        self.screen = screen
        self.file = file
        self.line = line
    }
}

/// The listener slot for ``SnapshotEvent``s: SpecKit installs one while the test list is built.
package enum SnapshotEvents {
    package typealias Listener = @Sendable (SnapshotEvent) -> Void

    private static let listener = Locked<Listener?>(nil)

    /// SpecKit calls this once; later snapshots from any module are handed to `handler`.
    package static func install(_ handler: @escaping Listener) {
        listener.set(handler)
    }

    /// True when someone collects events, so TextSnapshot keeps the texts only then.
    package static var isListening: Bool { listener.snapshot != nil }

    /// Hands `event` to the listener, if any.
    package static func report(_ event: SnapshotEvent) {
        listener.snapshot?(event)
    }
}
