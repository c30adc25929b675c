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
    let path: String
    private let lock = NSLock()
    private var exchanges: [Exchange]
    private var writeScheduled = false
    /// Writes to one path are serialised process-wide (several routers may share a file across
    /// a reload).
    private let queue: DispatchQueue
    /// Called with a message when a write fails (logged by the server).
    var onWriteError: (@Sendable (String) -> Void)?

    /// Reads `path` (a missing or empty file is an empty list). Throws a message naming the
    /// problem when the file is not a saved-exchange list.
    init(path: String) throws(StubCompileProblem) {
        self.path = path
        queue = SavedFileQueues.queue(for: path)
        AtomicFileWriter.removeOrphans(of: path) // an earlier run killed mid-write
        // Non-blocking, regular files only, size checked before reading (`RegularFile`).
        let data: Data
        do throws(RegularFile.Failure) {
            data = Data(try RegularFile.read(path, cap: RegularFile.savedExchangesCap, kind: "saved-exchange"))
        } catch let error where error.isNotFound {
            data = Data()
        } catch {
            throw StubCompileProblem(path: "", message: error.message)
        }
        guard !data.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) else {
            exchanges = []
            return
        }
        do {
            exchanges = try JSONDecoder().decode([Exchange].self, from: data)
        } catch {
            throw StubCompileProblem(
                path: "", message: "\(path) is not a list of saved exchanges ([{\"request\": …, \"response\": …}]): \(error)")
        }
    }

    /// The saved response for a request equal to `request`.
    func response(for request: HTTPRequest) -> UpstreamResponse? {
        let incoming = SavedRequest(request, keepingHost: true)
        lock.lock()
        defer { lock.unlock() }
        return exchanges.last(where: { $0.request.matches(incoming) })?.response.upstreamResponse
    }

    /// Saves (or replaces) the exchange and schedules a write.
    func save(request: HTTPRequest, response: UpstreamResponse) {
        let saved = Exchange(request: SavedRequest(request), response: SavedResponse(response))
        lock.lock()
        if let index = exchanges.firstIndex(where: { $0.request == saved.request }) {
            exchanges[index] = saved
        } else {
            // Bounded: the oldest exchange makes room (a file is read whole at load time).
            if exchanges.count >= Self.maxExchanges { exchanges.removeFirst() }
            exchanges.append(saved)
        }
        let schedule = !writeScheduled
        writeScheduled = true
        lock.unlock()
        if schedule { queue.async { [self] in flush() } }
    }

    /// Writes the current list now (tests and shutdown); later saves schedule another write.
    func flush() {
        lock.lock()
        writeScheduled = false
        let snapshot = exchanges
        lock.unlock()
        do {
            try AtomicFileWriter.write(try AtomicFileWriter.encoder.encode(snapshot), to: path)
        } catch {
            onWriteError?("stubserver: could not save \(path): \(error)")
        }
    }

    /// Waits until every scheduled write of this file has happened.
    func waitForWrites() { queue.sync {} }
}

/// One serial queue per saved file path, for the whole process.
enum SavedFileQueues {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var queues: [String: DispatchQueue] = [:]

    static func queue(for path: String) -> DispatchQueue {
        lock.lock()
        defer { lock.unlock() }
        if let queue = queues[path] { return queue }
        let queue = DispatchQueue(label: "stubserver.saved-file")
        queues[path] = queue
        return queue
    }
}
