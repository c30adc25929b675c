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
    private let tapes = SavedFilesByPath(open: TapeFile.init(path:))

    /// The tape at `path`, loaded once per router.
    func tape(at path: String) throws(StubCompileProblem) -> TapeFile { try tapes.file(at: path) }

    var allTapes: [TapeFile] { tapes.all }

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
final class TapeFile: Sendable {
    private let list: SavedListFile<RecordingStore.Recording>
    var path: String { list.path }

    init(path: String) throws(StubCompileProblem) {
        list = try SavedListFile(
            path: path, cap: RegularFile.tapeCap, kind: "tape",
            what: "a tape ([{\"group\": …, \"identifier\": …, \"request\": …}])")
        list.onWriteError = { error in
            FileHandle.standardError.write(Data("stubserver: could not write the tape \(path): \(error)\n".utf8))
        }
    }

    func record(_ request: HTTPRequest, group: String, identifier: String) {
        let recording = RecordingStore.Recording(group: group, identifier: identifier, request: SavedRequest(request))
        list.change { recordings in
            if let index = recordings.firstIndex(where: { $0.group == group && $0.identifier == identifier }) {
                recordings[index] = recording
            } else {
                if recordings.count >= RecordingStore.maxPerGroup * 10 { recordings.removeFirst() }
                recordings.append(recording)
            }
        }
    }

    func recorded(group: String, identifier: String) -> HTTPRequest? {
        list.read { recordings in
            recordings.last(where: { $0.group == group && $0.identifier == identifier })?.request.request
        }
    }

    func waitForWrites() { list.waitForWrites() }
}
