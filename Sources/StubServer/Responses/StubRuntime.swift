import Foundation

/// State the stubs of one router share at run time: recordings and the failover, playback and
/// tape files (one object per file, however many stubs name it), and the upstream client.
final class StubRuntime: @unchecked Sendable {
    let recordings = RecordingStore()
    private let savedFiles = SavedFilesByPath(open: SavedExchangeFile.init(path:))

    /// The process's upstream client, started only when a stub first needs it (most
    /// configurations have no proxy or event, and should not cost a thread).
    var client: UpstreamClient { UpstreamClient.shared }

    func savedExchanges(at path: String) throws(StubCompileProblem) -> SavedExchangeFile { try savedFiles.file(at: path) }

    /// Waits for every scheduled write of saved and tape files (tests; a clean stop).
    func waitForWrites() {
        for file in savedFiles.all { file.waitForWrites() }
        recordings.waitForWrites()
    }
}

extension RecordingStore {
    func waitForWrites() {
        for tape in allTapes { tape.waitForWrites() }
    }
}
