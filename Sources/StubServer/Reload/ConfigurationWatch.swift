import Foundation

/// Reloads a server when its configuration files change: one file watcher, started once, whose
/// changes run the server's reload on a serial queue and then watch the files the new
/// configuration names. Shared by `StubServer` and `SocketStubServer`.
final class ConfigurationWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var watcher: FileWatcher?
    private let queue: DispatchQueue

    init(queueLabel: String) {
        queue = DispatchQueue(label: queueLabel)
    }

    /// Starts watching `files` unless already watching. `reload` reloads the server and returns
    /// the files to watch from then on (nil: the server is gone, nothing to report); `onReload`
    /// hears about each attempt, on the queue.
    func start(
        files: [String], reload: @escaping @Sendable () throws -> [String]?,
        onReload: @escaping @Sendable (ReloadEvent) -> Void
    ) {
        lock.lock()
        defer { lock.unlock() }
        guard watcher == nil else { return }
        let watcher = FileWatcher(files: files) { [weak self] changed in
            guard let self else { return }
            queue.async {
                do {
                    guard let watched = try reload() else { return }
                    self.current?.update(files: watched)
                    onReload(.reloaded(changedFiles: changed))
                } catch {
                    onReload(.failed(changedFiles: changed, error: error))
                }
            }
        }
        self.watcher = watcher
        watcher.start()
    }

    private var current: FileWatcher? {
        lock.lock(); defer { lock.unlock() }
        return watcher
    }

    func stop() {
        lock.lock()
        let current = watcher
        watcher = nil
        lock.unlock()
        current?.stop()
    }
}
