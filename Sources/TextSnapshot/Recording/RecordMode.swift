/// When references are written. Every write fails the test, so a recording run never goes green.
///
/// | mode | missing reference | mismatch |
/// |---|---|---|
/// | `never` | fail, write nothing (the candidate goes to the artifacts folder) | fail |
/// | `missing` | write it, fail | fail |
/// | `failed` | write it, fail | overwrite it, fail |
/// | `all` | write it, fail | overwrite it, fail (matching references are rewritten and fail too) |
///
/// The mode comes from, in order: the call's `record:`, ``withSnapshotRecording(_:operation:)``,
/// `TEXT_SNAPSHOT_RECORD` (or `SNAPSHOT_TESTING_RECORD`), else `missing` locally and `never` on CI
/// (`CI` truthy or `JENKINS_URL` set). On CI any mode but `never` is refused unless
/// `TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI=1`.
public enum RecordMode: String, Sendable, CaseIterable {
    case never, missing, failed, all
}
