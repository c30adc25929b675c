import Foundation

/// A failover or playback file: the upstream exchanges saved so far, one per distinct request
/// (a newer answer replaces the older one). Shared by every stub of a router that names the
/// same file; read at load time, written atomically off the event loop after each change.
final class SavedExchangeFile: @unchecked Sendable {
    struct Exchange: Codable, Sendable {
        var request: SavedRequest
        var response: SavedResponse
    }

    /// Distinct requests one file keeps.
    static let maxExchanges = 10_000
    private let list: SavedListFile<Exchange>
    var path: String { list.path }
    /// Called with a message when a write fails (logged by the server).
    var onWriteError: (@Sendable (String) -> Void)? {
        didSet {
            if let report = onWriteError {
                let path = path
                list.onWriteError = { error in report("stubserver: could not save \(path): \(error)") }
            } else {
                list.onWriteError = nil
            }
        }
    }

    /// Reads `path` (a missing or empty file is an empty list). Throws a message naming the
    /// problem when the file is not a saved-exchange list.
    init(path: String) throws(StubCompileProblem) {
        list = try SavedListFile(
            path: path, cap: RegularFile.savedExchangesCap, kind: "saved-exchange",
            what: "a list of saved exchanges ([{\"request\": …, \"response\": …}])")
    }

    /// The saved response for a request equal to `request`.
    func response(for request: HTTPRequest) -> UpstreamResponse? {
        let incoming = SavedRequest(request, keepingHost: true)
        return list.read { exchanges in exchanges.last(where: { $0.request.matches(incoming) })?.response.upstreamResponse }
    }

    /// Saves (or replaces) the exchange and schedules a write.
    func save(request: HTTPRequest, response: UpstreamResponse) {
        let saved = Exchange(request: SavedRequest(request), response: SavedResponse(response))
        list.change { exchanges in
            if let index = exchanges.firstIndex(where: { $0.request == saved.request }) {
                exchanges[index] = saved
            } else {
                // Bounded: the oldest exchange makes room (a file is read whole at load time).
                if exchanges.count >= Self.maxExchanges { exchanges.removeFirst() }
                exchanges.append(saved)
            }
        }
    }

    /// Writes the current list now (tests and shutdown); later saves schedule another write.
    func flush() { list.flush() }

    /// Waits until every scheduled write of this file has happened.
    func waitForWrites() { list.waitForWrites() }
}
