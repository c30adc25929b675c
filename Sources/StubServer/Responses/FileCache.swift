import Foundation
import HTTPEngine

#if canImport(Glibc)
import Glibc
import CSystemShims
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

    /// Linux: inotify watches on trusted files and on every directory from their root down. A
    /// trusted entry is served without opening the file; any event on any watched path (an
    /// edit, a rename, a link created or removed in a directory on the way) untrusts every
    /// entry, so the next request takes the confined open again. The queue is drained before
    /// the first lookup of each event-loop turn (per lookup off a loop thread), and the kernel
    /// queues an event before the changing call returns: a request that arrived after an edit
    /// is read in a later turn than the edit, so the edit still shows on the next request. The
    /// other lookups of the same turn skip the `read` system call.
    private let watchFD: Int32
    private let drainLock = NSLock()
    /// The event-loop turn of the last drain (guarded by `drainLock`).
    private var drainedInTurn: EventLoopTurn?
    private var generation: UInt64 = 0
    /// Bumped by every eviction: a memo's hits do not refresh its entry, so an evicted entry
    /// must end the memos taken from it.
    private var evictions: UInt64 = 0
    /// `Target.key` → the generation it was trusted in.
    private var trusted: [String: UInt64] = [:]
    /// `Target.key` → a "no such file" trusted in a generation (moco's working-directory
    /// candidate is looked up first on every request and is usually absent).
    private var trustedMisses: [String: (generation: UInt64, failure: ConfinedFiles.Failure)] = [:]
    private var watchedPaths: Set<String> = []
    private static let maximumWatches = 4096

    init(byteLimit: Int = 64 * 1024 * 1024, racyWindow: Duration = .seconds(2), watchesFiles: Bool = true) {
        self.byteLimit = byteLimit
        racyWindowNanos = Int64(racyWindow.components.seconds) * 1_000_000_000 + racyWindow.components.attoseconds / 1_000_000_000
        #if canImport(Glibc)
        watchFD = watchesFiles ? inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) : -1
        #else
        watchFD = -1
        #endif
    }

    deinit {
        if watchFD >= 0 { _ = close(watchFD) }
    }

    /// Reads every queued event; any event untrusts every entry. `oncePerTurn` skips the read
    /// when this thread's event-loop turn already drained (the lookup at the top of a request);
    /// the drains that order a watch or a trust against an open always read.
    private func drainWatchEvents(oncePerTurn: Bool = false) {
        #if canImport(Glibc)
        guard watchFD >= 0 else { return }
        let turn = oncePerTurn ? EventLoopTurn.current : nil
        // One drainer at a time: another loop must not find the queue empty while this one
        // holds events it has not applied yet.
        drainLock.lock()
        defer { drainLock.unlock() }
        if let turn, turn == drainedInTurn { return }
        drainedInTurn = turn
        var sawEvent = false
        lock.lock()
        statistics.watchDrains += 1
        lock.unlock()
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
            while true {
                let count = Glibc.read(watchFD, buffer.baseAddress, buffer.count)
                if count > 0 { sawEvent = true; continue }
                if count < 0 && errno == EINTR { continue }
                break
            }
        }
        if sawEvent {
            lock.lock()
            generation &+= 1
            trusted.removeAll(keepingCapacity: true)
            trustedMisses.removeAll(keepingCapacity: true)
            lock.unlock()
        }
        #endif
    }

    /// Counts a hit on `key`'s entry and marks it the most recently used. The caller holds `lock`.
    private func noteHit(_ key: String, _ entry: inout Entry) {
        tick &+= 1
        entry.lastUse = tick
        entries[key] = entry
        statistics.hits += 1
    }

    /// Watches the root, each directory below it on the way to the file, and the file. False
    /// when a watch cannot be added (limits): then the file is checked on every request.
    private func watchPath(realRoot: String, components: [String], lastIsFile: Bool = true) -> Bool {
        #if canImport(Glibc)
        guard watchFD >= 0 else { return false }
        let directoryMask =
            UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MOVE_SELF | IN_DELETE_SELF | IN_ATTRIB)
            | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)
        let fileMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF) | UInt32(IN_DONT_FOLLOW)
        var paths: [(String, UInt32)] = [(realRoot, directoryMask)]
        var path = realRoot
        for (index, component) in components.enumerated() {
            path += "/" + component
            paths.append((path, lastIsFile && index == components.count - 1 ? fileMask : directoryMask))
        }
        for (path, mask) in paths {
            lock.lock()
            let known = watchedPaths.contains(path)
            let full = watchedPaths.count >= Self.maximumWatches
            lock.unlock()
            if known { continue }
            if full || inotify_add_watch(watchFD, path, mask) < 0 { return false }
            lock.lock()
            watchedPaths.insert(path)
            lock.unlock()
        }
        return true
        #else
        return false
        #endif
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
        let realRoot = realRoot(of: target.root)
        // A trusted entry: nothing on its path changed since it was read, so no open is needed.
        drainWatchEvents(oncePerTurn: true)
        lock.lock()
        if let miss = trustedMisses[target.key], miss.generation == generation {
            lock.unlock()
            return .failure(miss.failure)
        }
        if let trustedIn = trusted[target.key], trustedIn == generation, var entry = entries[target.key] {
            if entry.identity.size >= limit { lock.unlock(); return .success(nil) }
            noteHit(target.key, &entry)
            lock.unlock()
            return .success(File(key: target.key, identity: entry.identity, bytes: entry.bytes))
        }
        lock.unlock()
        // Watch before opening, then note the generation: a change from here on untrusts.
        let watching = realRoot.map { watchPath(realRoot: $0, components: target.components) } ?? false
        if watching { drainWatchEvents() }
        lock.lock()
        let generationBeforeOpen = generation
        lock.unlock()

        let opened: ConfinedFiles.OpenedFile
        switch ConfinedFiles.open(target, realRoot: realRoot) {
        case .failure(let failure):
            if failure.isNotFound, let realRoot { trustMiss(target, realRoot: realRoot, failure: failure, since: generationBeforeOpen) }
            return .failure(failure)
        case .success(let file): opened = file
        }
        defer { _ = FileDescriptorCalls.close(opened.fd) }
        // Only a file opened in one step, with no symlink anywhere (its key is the target's),
        // is fully covered by the watches on its path.
        let trustable = watching && opened.key == target.key
        if opened.identity.size >= limit { return .success(nil) }
        lock.lock()
        if var entry = entries[opened.key], entry.identity == opened.identity {
            noteHit(opened.key, &entry)
            lock.unlock()
            if trustable { trust(target.key, since: generationBeforeOpen) }
            return .success(File(key: opened.key, identity: opened.identity, bytes: entry.bytes))
        }
        statistics.misses += 1
        lock.unlock()

        guard let bytes = ConfinedFiles.readAll(opened.fd, expected: opened.identity.size) else {
            return .failure(
                ConfinedFiles.Failure(message: "\(quoted(name)) could not be read: \(String(cString: strerror(errno)))", isNotFound: false))
        }
        let file = File(key: opened.key, identity: opened.identity, bytes: bytes)
        if bytes.count == opened.identity.size && isSettled(opened.identity) && bytes.count <= byteLimit / 4 {
            store(file)
            if trustable { trust(target.key, since: generationBeforeOpen) }
        }
        return .success(file)
    }

    /// Trusts "no such file" while the directories that would hold it do not change: watches the
    /// root and each existing directory on the way (no symlinks), so creating any missing part
    /// untrusts it.
    private func trustMiss(_ target: ConfinedFiles.Target, realRoot: String, failure: ConfinedFiles.Failure, since: UInt64) {
        #if canImport(Glibc)
        var existing: [String] = []
        var path = realRoot
        for component in target.components.dropLast() {
            path += "/" + component
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { break }
            existing.append(component)
        }
        guard watchPath(realRoot: realRoot, components: existing, lastIsFile: false) else { return }
        drainWatchEvents()
        lock.lock()
        if generation == since { trustedMisses[target.key] = (since, failure) }
        lock.unlock()
        #endif
    }

    /// Trusts an entry when no watch event arrived since `since` (read before the open).
    private func trust(_ key: String, since: UInt64) {
        drainWatchEvents()
        lock.lock()
        if generation == since, let entry = entries[key], isSettled(entry.identity) { trusted[key] = since }
        lock.unlock()
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

    /// The value `memo` holds, when nothing watched changed since `remember` stored it; nil
    /// otherwise, and always where files are not watched.
    func recall<Value>(_ memo: Memo<Value>) -> Value? {
        guard watchFD >= 0 else { return nil }
        drainWatchEvents(oncePerTurn: true)
        lock.lock()
        defer { lock.unlock() }
        guard let value = memo.value, memo.generation == generation, memo.evictions == evictions else { return nil }
        statistics.hits += 1
        statistics.recalls += 1
        return value
    }

    /// Keeps `value`, derived from `file`, in `memo` when the file is trusted (its whole path is
    /// watched and unchanged) and, when `absent` was looked up first and is not the file (moco's
    /// working-directory candidate), its absence is trusted too.
    func remember<Value>(_ value: Value, in memo: Memo<Value>, from file: File, absent: ConfinedFiles.Target?) {
        lock.lock()
        defer { lock.unlock() }
        guard trusted[file.key] == generation, entries[file.key]?.identity == file.identity else { return }
        if let absent, absent.key != file.key, trustedMisses[absent.key]?.generation != generation { return }
        memo.value = value
        memo.generation = generation
        memo.evictions = evictions
    }

    /// Drops everything (tests, and a reload that wants a clean start).
    func removeAll() {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll()
        realRoots.removeAll()
        storedBytes = 0
        generation &+= 1
        evictions &+= 1
        trusted.removeAll()
        trustedMisses.removeAll()
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
            evictions &+= 1
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
}
