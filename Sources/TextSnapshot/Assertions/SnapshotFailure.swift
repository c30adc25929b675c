/// Why a snapshot assertion failed, as a value: what ``verifySnapshot(of:as:named:record:snapshotDirectory:file:testName:line:)``
/// returns and what ``assertSnapshot(of:as:named:record:snapshotDirectory:file:testName:line:)`` reports.
public struct SnapshotFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// No reference file and the record mode forbids writing one.
        case missingReference
        /// A reference was written (new, re-recorded or record mode `all`).
        case recorded
        /// The actual text differs from the reference.
        case mismatch
        /// A record mode requested in code (or by env) was refused on CI; nothing else was wrong.
        case recordRefusedOnCI
        /// Two assertions (or two matrix combinations) use the same snapshot file.
        case duplicate
        /// The strategy or the screen closure threw.
        case snapshotError
        /// Bad configuration, e.g. an unknown `TEXT_SNAPSHOT_RECORD` value.
        case configuration
        /// Reading or writing a file failed.
        case fileError
    }

    public var kind: Kind
    /// The full message: a summary line first, then paths, the re-record command and the diff.
    public var message: String
    /// The reference file the assertion is about (empty when unknown).
    public var referencePath: String
    /// Reference files written by this assertion.
    public var writtenPaths: [String]
    /// Where the actual text was saved for inspection, if it was.
    public var artifactPath: String?
    /// The comparison's summary and diff, for mismatches.
    public var difference: TextDiff.Difference?
    /// The CI refusal message, when a record request was refused.
    public var refusal: String?

    public init(
        kind: Kind, message: String, referencePath: String = "", writtenPaths: [String] = [],
        artifactPath: String? = nil, difference: TextDiff.Difference? = nil, refusal: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.referencePath = referencePath
        self.writtenPaths = writtenPaths
        self.artifactPath = artifactPath
        self.difference = difference
        self.refusal = refusal
    }

    /// The first line of the message.
    public var summary: String { String(message.prefix { $0 != "\n" }) }

    public var description: String { message }
}
