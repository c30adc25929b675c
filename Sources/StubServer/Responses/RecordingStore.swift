import Foundation

/// Requests stored by `record` for `replay`, by group and identifier. Groups without a tape
/// live as long as the router (a reload starts them over, like `seq`); a tape group is read
/// from its JSON file at load time and written back atomically after each recording.
final class RecordingStore: @unchecked Sendable {
    struct Recording: Codable, Sendable {
        var group: String
        var identifier: String
        var request: SavedRequest
    }

    /// Recordings one in-memory group keeps before dropping one to make room.
    static let maxPerGroup = 10_000
    private let lock = NSLock()
    private var memory: [String: [String: HTTPRequest]] = [:]
    private var tapes: [String: TapeFile] = [:]

    /// The tape at `path`, loaded once per router.
    func tape(at path: String) throws(StubCompileProblem) -> TapeFile {
        lock.lock()
        defer { lock.unlock() }
        if let tape = tapes[path] { return tape }
        let tape = try TapeFile(path: path)
        tapes[path] = tape
        return tape
    }

    var allTapes: [TapeFile] {
        lock.lock()
        defer { lock.unlock() }
        return Array(tapes.values)
    }

    func record(_ request: HTTPRequest, group: String, identifier: String, tape: TapeFile?) {
        if let tape {
            tape.record(request, group: group, identifier: identifier)
            return
        }
        lock.lock()
        // Identifiers can come from the request: bound how many one group keeps.
        if memory[group]?[identifier] == nil, let count = memory[group]?.count, count >= Self.maxPerGroup,
            let evicted = memory[group]?.keys.first
        {
            memory[group]?[evicted] = nil
        }
        memory[group, default: [:]][identifier] = request
        lock.unlock()
    }

    func recorded(group: String, identifier: String, tape: TapeFile?) -> HTTPRequest? {
        if let tape { return tape.recorded(group: group, identifier: identifier) }
        lock.lock()
        defer { lock.unlock() }
        return memory[group]?[identifier]
    }
}

/// A `tape` file: every group's last recording per identifier.
final class TapeFile: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var recordings: [RecordingStore.Recording]
    private var writeScheduled = false
    private let queue: DispatchQueue

    init(path: String) throws(StubCompileProblem) {
        self.path = path
        queue = SavedFileQueues.queue(for: path)
        AtomicFileWriter.removeOrphans(of: path) // an earlier run killed mid-write
        // Non-blocking, regular files only, size checked before reading (`RegularFile`).
        let data: Data
        do throws(RegularFile.Failure) {
            data = Data(try RegularFile.read(path, cap: RegularFile.tapeCap, kind: "tape"))
        } catch let error where error.isNotFound {
            data = Data()
        } catch {
            throw StubCompileProblem(path: "", message: error.message)
        }
        guard !data.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) else {
            recordings = []
            return
        }
        do {
            recordings = try JSONDecoder().decode([RecordingStore.Recording].self, from: data)
        } catch {
            throw StubCompileProblem(
                path: "", message: "\(path) is not a tape ([{\"group\": …, \"identifier\": …, \"request\": …}]): \(error)")
        }
    }

    func record(_ request: HTTPRequest, group: String, identifier: String) {
        let recording = RecordingStore.Recording(group: group, identifier: identifier, request: SavedRequest(request))
        lock.lock()
        if let index = recordings.firstIndex(where: { $0.group == group && $0.identifier == identifier }) {
            recordings[index] = recording
        } else {
            if recordings.count >= RecordingStore.maxPerGroup * 10 { recordings.removeFirst() }
            recordings.append(recording)
        }
        let schedule = !writeScheduled
        writeScheduled = true
        lock.unlock()
        if schedule { queue.async { [self] in flush() } }
    }

    func recorded(group: String, identifier: String) -> HTTPRequest? {
        lock.lock()
        defer { lock.unlock() }
        return recordings.last(where: { $0.group == group && $0.identifier == identifier })?.request.request
    }

    func flush() {
        lock.lock()
        writeScheduled = false
        let snapshot = recordings
        lock.unlock()
        do {
            try AtomicFileWriter.write(try AtomicFileWriter.encoder.encode(snapshot), to: path)
        } catch {
            FileHandle.standardError.write(Data("stubserver: could not write the tape \(path): \(error)\n".utf8))
        }
    }

    func waitForWrites() { queue.sync {} }
}
