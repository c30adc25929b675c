import Foundation

/// A JSON list file the server keeps in memory and writes back: read whole at load time (a
/// missing or blank file is an empty list), written atomically off the event loop after each
/// change, writes to one path serialised process-wide (several routers may share a file across
/// a reload). The `tape` of `record`/`replay` and the failover/playback files hold one each.
final class SavedListFile<Element: Codable & Sendable>: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var elements: [Element]
    private var writeScheduled = false
    private let queue: DispatchQueue
    private var writeErrorHandler: (@Sendable (any Error) -> Void)?

    /// Reads `path`, at most `cap` bytes. A file that is not a JSON list of `Element` throws
    /// "`path` is not `what`: …" (`what` names the file kind and shows its shape).
    init(path: String, cap: Int, kind: String, what: String) throws(StubCompileProblem) {
        self.path = path
        queue = SavedFileQueues.queue(for: path)
        AtomicFileWriter.removeOrphans(of: path) // an earlier run killed mid-write
        // Non-blocking, regular files only, size checked before reading (`RegularFile`).
        let data: Data
        do throws(RegularFile.Failure) {
            data = Data(try RegularFile.read(path, cap: cap, kind: kind))
        } catch let error where error.isNotFound {
            data = Data()
        } catch {
            throw StubCompileProblem(path: "", message: error.message)
        }
        guard !data.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) else {
            elements = []
            return
        }
        do {
            elements = try JSONDecoder().decode([Element].self, from: data)
        } catch {
            throw StubCompileProblem(path: "", message: "\(path) is not \(what): \(error)")
        }
    }

    /// Called with the error when a write fails (nil: nobody hears of it).
    var onWriteError: (@Sendable (any Error) -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return writeErrorHandler }
        set { lock.lock(); writeErrorHandler = newValue; lock.unlock() }
    }

    /// What `body` finds in the list as it is now.
    func read<Result>(_ body: ([Element]) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(elements)
    }

    /// Changes the list and schedules a write.
    func change(_ body: (inout [Element]) -> Void) {
        lock.lock()
        body(&elements)
        let schedule = !writeScheduled
        writeScheduled = true
        lock.unlock()
        if schedule { queue.async { [self] in flush() } }
    }

    /// Writes the current list now (tests and shutdown); later changes schedule another write.
    func flush() {
        lock.lock()
        writeScheduled = false
        let snapshot = elements
        lock.unlock()
        do {
            try AtomicFileWriter.write(try AtomicFileWriter.encoder.encode(snapshot), to: path)
        } catch {
            onWriteError?(error)
        }
    }

    /// Waits until every scheduled write of this file has happened.
    func waitForWrites() { queue.sync {} }
}

/// One object per saved file, however many stubs of a router name it: opened on first use.
final class SavedFilesByPath<File: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: File] = [:]
    private let open: (String) throws(StubCompileProblem) -> File

    init(open: @escaping (String) throws(StubCompileProblem) -> File) { self.open = open }

    func file(at path: String) throws(StubCompileProblem) -> File {
        lock.lock()
        defer { lock.unlock() }
        if let file = files[path] { return file }
        let file = try open(path)
        files[path] = file
        return file
    }

    var all: [File] {
        lock.lock()
        defer { lock.unlock() }
        return Array(files.values)
    }
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
