import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of files that stubs serve, read through `ConfinedFiles.open` on every request and
/// kept while the open descriptor's `FileIdentity` (device, inode, size, modification and
/// change time) still matches. So an edit (in place or by atomic rename) shows on the next
/// request, nothing outside the root is ever served (the open is confined before the cache is
/// consulted), and an unchanged file costs an open, an `fstat` and a close instead of a read.
/// Bounded in bytes; the least recently used files go first. Values derived from a file (a
/// parsed template, a serialised response) live and die with its entry.
///
/// ```swift
/// switch FileCache.shared.read("stories.json", root: "/srv/stubs", fallback: nil) {
/// case .success(let file): send(file.bytes)
/// case .failure(let failure): print(failure.message)   // "no file \"stories.json\" in \"/srv/stubs\""
/// }
/// ```
final class FileCache: @unchecked Sendable {
    /// One cache per process: entries are validated per request, so servers can share it.
    static let shared = FileCache()

    /// A file as read: its bytes and the identity they belong to.
    struct File: Sendable {
        let key: String
        let identity: FileIdentity
        let bytes: [UInt8]
    }

    /// Counters for tests and benchmarks.
    struct Statistics: Sendable, Equatable {
        var hits = 0
        var misses = 0
        var storedBytes = 0
        var entries = 0
    }

    let byteLimit: Int
    /// A file modified this recently is served but not kept: timestamps are coarse (a kernel
    /// tick, a second on some file systems), so a second same-size edit within the same tick
    /// would look unchanged. Git's "racily clean" rule, for the same reason.
    let racyWindowNanos: Int64

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var realRoots: [String: String] = [:]
    private var storedBytes = 0
    private var tick: UInt64 = 0
    private var statistics = Statistics()
    private static let slotLock = NSLock()
    nonisolated(unsafe) private static var nextSlot: UInt64 = 1

    private struct Entry {
        var identity: FileIdentity
        var bytes: [UInt8]
        var derived: [UInt64: any Sendable] = [:]
        var cost: Int
        var lastUse: UInt64
    }

    init(byteLimit: Int = 64 * 1024 * 1024, racyWindow: Duration = .seconds(2)) {
        self.byteLimit = byteLimit
        racyWindowNanos = Int64(racyWindow.components.seconds) * 1_000_000_000 + racyWindow.components.attoseconds / 1_000_000_000
    }

    /// A fresh key for `derived`, one per thing that derives values (a file plan, a response plan).
    static func makeSlot() -> UInt64 {
        slotLock.lock(); defer { slotLock.unlock() }
        let slot = nextSlot
        nextSlot += 1
        return slot
    }

    var currentStatistics: Statistics {
        lock.lock(); defer { lock.unlock() }
        var copy = statistics
        copy.storedBytes = storedBytes
        copy.entries = entries.count
        return copy
    }

    /// The bytes of `name`: for names written in the config, when moco's working-directory
    /// rule applies (`fallback` is the working directory), a file there wins as in moco;
    /// otherwise (and when it has none) the one under `root` (see `ConfinedFiles.locate`).
    func read(_ name: String, root: String, fallback: String?) -> Result<File, ConfinedFiles.Failure> {
        if let fallback, fallback != root, case .success(let file) = read(name, root: fallback) {
            return .success(file)
        }
        return read(name, root: root)
    }

    /// The bytes of `name`, confined to `root`.
    func read(_ name: String, root: String) -> Result<File, ConfinedFiles.Failure> {
        do throws(ConfinedFiles.Failure) {
            return read(try ConfinedFiles.Target(name, root: root))
        } catch {
            return .failure(error)
        }
    }

    /// The bytes of a name checked once (`ConfinedFiles.Target`): the per-request path for
    /// literal file names.
    func read(_ target: ConfinedFiles.Target) -> Result<File, ConfinedFiles.Failure> {
        read(target, below: .max).map { $0! }
    }

    /// Like ``read(_:)``, but `nil`, without reading, when the file has `limit` bytes or more:
    /// such files are streamed from their descriptor instead of held (see `StreamedFileBody`).
    func read(_ target: ConfinedFiles.Target, below limit: Int) -> Result<File?, ConfinedFiles.Failure> {
        let name = target.name
        let opened: ConfinedFiles.OpenedFile
        switch ConfinedFiles.open(target, realRoot: realRoot(of: target.root)) {
        case .failure(let failure): return .failure(failure)
        case .success(let file): opened = file
        }
        defer { _ = ConfinedFiles.closeDescriptor(opened.fd) }
        if opened.identity.size >= limit { return .success(nil) }
        lock.lock()
        if var entry = entries[opened.key], entry.identity == opened.identity {
            tick &+= 1
            entry.lastUse = tick
            let bytes = entry.bytes
            entries[opened.key] = entry
            statistics.hits += 1
            lock.unlock()
            return .success(File(key: opened.key, identity: opened.identity, bytes: bytes))
        }
        statistics.misses += 1
        lock.unlock()

        guard let bytes = Self.readAll(opened.fd, expected: opened.identity.size) else {
            return .failure(ConfinedFiles.Failure(message: "\(quoted(name)) could not be read: \(String(cString: strerror(errno)))", isNotFound: false))
        }
        let file = File(key: opened.key, identity: opened.identity, bytes: bytes)
        if bytes.count == opened.identity.size && isSettled(opened.identity) && bytes.count <= byteLimit / 4 {
            store(file)
        }
        return .success(file)
    }

    /// A value computed from `file`'s bytes (a parsed template…), computed once per version of
    /// the file and `slot`. Files that are not kept (too new, too big) compute it every time.
    func derived<Value: Sendable, Failure: Error>(
        from file: File, slot: UInt64, cost: Int, _ make: ([UInt8]) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        lock.lock()
        if let entry = entries[file.key], entry.identity == file.identity, let value = entry.derived[slot] as? Value {
            lock.unlock()
            return value
        }
        lock.unlock()
        let value = try make(file.bytes)
        lock.lock()
        if var entry = entries[file.key], entry.identity == file.identity {
            entry.derived[slot] = value
            entry.cost += cost
            storedBytes += cost
            entries[file.key] = entry
            evictIfNeeded()
        }
        lock.unlock()
        return value
    }

    /// Drops everything (tests, and a reload that wants a clean start).
    func removeAll() {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll()
        realRoots.removeAll()
        storedBytes = 0
    }

    // MARK: Internals

    private func isSettled(_ identity: FileIdentity) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanos = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return nanos - identity.modified >= racyWindowNanos
    }

    private func store(_ file: File) {
        lock.lock(); defer { lock.unlock() }
        if let old = entries[file.key] { storedBytes -= old.cost }
        tick &+= 1
        let cost = file.bytes.count + file.key.utf8.count + 128
        entries[file.key] = Entry(identity: file.identity, bytes: file.bytes, cost: cost, lastUse: tick)
        storedBytes += cost
        evictIfNeeded()
    }

    /// Least recently used first; a scan, but only when the budget is exceeded.
    private func evictIfNeeded() {
        while storedBytes > byteLimit, !entries.isEmpty {
            guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
            storedBytes -= oldest.value.cost
            entries[oldest.key] = nil
        }
    }

    /// The root with symlinks resolved, remembered so the common open is one system call. A
    /// stale answer only costs the slower walk, which finds the truth.
    private func realRoot(of root: String) -> String? {
        lock.lock()
        if let known = realRoots[root] { lock.unlock(); return known }
        lock.unlock()
        guard let real = ConfinedFiles.realPath(root) else { return nil }
        lock.lock()
        if realRoots.count > 1024 { realRoots.removeAll() }
        realRoots[root] = real
        lock.unlock()
        return real
    }

    /// Reads to the end (at most `ConfinedFiles.maximumSize` + 1 bytes).
    private static func readAll(_ fd: Int32, expected: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var capacity = max(expected + 1, 512)
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity - start))
            var filled = start
            while filled < bytes.count {
                let count = bytes.withUnsafeMutableBytes { buffer in
                    #if canImport(Glibc)
                    Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                    #else
                    Darwin.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                    #endif
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if count == 0 {
                    bytes.removeSubrange(filled...)
                    return bytes
                }
                filled += count
            }
            guard capacity <= ConfinedFiles.maximumSize else {
                bytes.removeSubrange(filled...)
                return bytes
            }
            capacity *= 2
        }
    }
}
