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

    /// Watches `server`'s files; each change reloads it and watches the files it then has
    /// (a server gone by then is left alone).
    func start(reloading server: some ReloadableConfiguration, onReload: @escaping @Sendable (ReloadEvent) -> Void) {
        start(
            files: server.watchedFiles,
            reload: { [weak server] in
                guard let server else { return nil }
                try server.reload()
                return server.watchedFiles
            }, onReload: onReload)
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

/// A server `ConfigurationWatch` reloads: `StubServer`, `SocketStubServer`.
protocol ReloadableConfiguration: AnyObject, Sendable {
    /// The configuration files, includes too.
    var watchedFiles: [String] { get }
    /// Reads the configuration again; on error the last good one keeps serving.
    func reload() throws
}
