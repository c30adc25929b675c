import Foundation

#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a set of files and reports, debounced, which ones changed. On Linux it uses inotify
/// on the files' directories (so editors that save by rename are seen); elsewhere it polls
/// modification time, size and inode.
///
/// ```swift
/// let watcher = FileWatcher(files: ["/abs/Stubs/settings.json"]) { changed in print(changed) }
/// watcher.start()
/// ```
public final class FileWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "stubserver.file-watcher")
    /// Changes are reported here, not on `queue`, so a callback may call `stop()` or `update`.
    private let callbackQueue = DispatchQueue(label: "stubserver.file-watcher.callbacks")
    private let debounce: DispatchTimeInterval
    private let pollInterval: DispatchTimeInterval
    private let onChange: @Sendable ([String]) -> Void

    // Touched only on `queue`.
    private var files: Set<String>
    private var pending: Set<String> = []
    private var debounceItem: DispatchWorkItem?
    private var running = false
    private var snapshots: [String: FileSnapshot] = [:]
    private var pollTimer: DispatchSourceTimer?
    #if canImport(Glibc)
    private var inotifyFD: Int32 = -1
    private var readSource: DispatchSourceRead?
    private var directories: [Int32: String] = [:]
    #endif

    /// - Parameters:
    ///   - files: absolute paths.
    ///   - debounce: quiet time after the last change before reporting (editors write in steps).
    ///   - pollInterval: how often to poll where inotify is unavailable.
    public init(
        files: [String],
        debounce: Duration = .milliseconds(80),
        pollInterval: Duration = .milliseconds(250),
        onChange: @escaping @Sendable ([String]) -> Void
    ) {
        self.files = Set(files)
        self.debounce = .nanoseconds(Int(debounce.nanoseconds))
        self.pollInterval = .nanoseconds(Int(pollInterval.nanoseconds))
        self.onChange = onChange
    }

    deinit {
        #if canImport(Glibc)
        readSource?.cancel()
        #endif
        pollTimer?.cancel()
    }

    public func start() {
        queue.sync {
            guard !running else { return }
            running = true
            arm()
        }
    }

    /// Replaces the watched set (e.g. after a reload changed the includes).
    public func update(files newFiles: [String]) {
        queue.async { [self] in
            let set = Set(newFiles)
            guard set != files else { return }
            files = set
            guard running else { return }
            disarm()
            arm()
        }
    }

    public func stop() {
        queue.sync {
            running = false
            debounceItem?.cancel()
            debounceItem = nil
            disarm()
        }
    }

    // MARK: - Arming

    private func arm() {
        #if canImport(Glibc)
        if armInotify() { return }
        #endif
        armPolling()
    }

    private func disarm() {
        #if canImport(Glibc)
        readSource?.cancel() // the cancel handler closes the descriptor
        readSource = nil
        inotifyFD = -1
        directories = [:]
        #endif
        pollTimer?.cancel()
        pollTimer = nil
    }

    #if canImport(Glibc)
    private func armInotify() -> Bool {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return false }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)
        for directory in Set(files.map { ($0 as NSString).deletingLastPathComponent }) {
            let wd = inotify_add_watch(fd, directory, mask)
            if wd >= 0 { directories[wd] = directory }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.readInotify(fd) }
        source.setCancelHandler { SystemCalls.close(fd) }
        source.resume()
        inotifyFD = fd
        readSource = source
        return true
    }

    private func readInotify(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, Int(event.len))
                }
                let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if let directory = directories[wd], !name.isEmpty {
                    let path = (directory as NSString).appendingPathComponent(name)
                    if files.contains(path) { noteChange(path) }
                }
                offset += headerSize + length
            }
        }
    }
    #endif

    private func armPolling() {
        snapshots = Dictionary(uniqueKeysWithValues: files.map { ($0, FileSnapshot(path: $0)) })
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + pollInterval, repeating: pollInterval)
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        pollTimer = timer
    }

    private func poll() {
        for path in files {
            let now = FileSnapshot(path: path)
            if snapshots[path] != now {
                snapshots[path] = now
                noteChange(path)
            }
        }
    }

    private func noteChange(_ path: String) {
        pending.insert(path)
        debounceItem?.cancel()
        let item = DispatchWorkItem { [weak self] in
            guard let self, running else { return }
            let changed = pending.sorted()
            pending = []
            let onChange = onChange
            callbackQueue.async { onChange(changed) }
        }
        debounceItem = item
        queue.asyncAfter(deadline: .now() + debounce, execute: item)
    }
}

/// What polling compares: a change in any of these means the file was written or replaced.
private struct FileSnapshot: Equatable {
    var exists = false
    var size: Int64 = 0
    var modified: Int = 0
    var modifiedNanos: Int = 0
    var inode: UInt64 = 0

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        exists = true
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modified = info.st_mtimespec.tv_sec
        modifiedNanos = info.st_mtimespec.tv_nsec
        #else
        modified = info.st_mtim.tv_sec
        modifiedNanos = info.st_mtim.tv_nsec
        #endif
    }
}
