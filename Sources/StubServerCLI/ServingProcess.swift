import Foundation
import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `start` and `socket` do around their server: the process set-up before any thread
/// exists, the lines each configuration reload prints, and serving until a signal, the shutdown
/// port or the admin API asks to stop.
enum ServingProcess {
    /// The options both servers take besides their configuration.
    static let options: [CommandLineArguments.Option] = [.port, .shutdownPort, .host, .quiet, .threads]

    /// Run first: the process is ours, so a peer vanishing mid-write must never kill it (the
    /// library itself never touches signal dispositions; it uses MSG_NOSIGNAL / SO_NOSIGPIPE).
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        // Many idle keep-alive clients need descriptors; lift the soft limit (see ``DescriptorLimit``).
        DescriptorLimit.raise()
        prepareStopSignals()
    }

    /// The listener for `watchConfiguration`: which files changed, and whether the new
    /// configuration serves or the last good one still does. `warnings` are printed after a reload.
    static func reloadReporter(
        log: RequestLog, warnings: @escaping @Sendable () -> [ConfigDiagnostic] = { [] }
    ) -> @Sendable (ReloadEvent) -> Void {
        { event in
            log.flush()
            switch event {
            case .reloaded(let files):
                Console.out("\(files.map(displayName).joined(separator: ", ")) changed; configuration reloaded")
                for warning in warnings() { Console.err("stubserver: warning: \(warning)") }
            case .failed(let files, let error):
                Console.err(
                    "\(files.map(displayName).joined(separator: ", ")) changed but the configuration is broken; still serving the last good one:"
                )
                for line in "\(error)".split(separator: "\n") { Console.err("  \(line)") }
            }
        }
    }

    /// Opens the shutdown port, prints it, and blocks until the first stop request (SIGINT,
    /// SIGTERM, the shutdown port, or `stopRequest` when the admin API has one); then runs `stop`
    /// and prints `Server stopped.`. Returns the exit code.
    static func serveUntilStopped(
        shutdownPort: Int, log: RequestLog, stopRequest: StopRequest? = nil, stop: @escaping @Sendable () -> Void
    ) throws -> Int32 {
        let finished = DispatchSemaphore(value: 0)
        let stopOnce = StopOnce {
            stop()
            log.flush()
            Console.out("Server stopped.")
            finished.signal()
        }
        stopRequest?.action = { stopOnce.run() }
        let shutdown: ShutdownPort
        do {
            shutdown = try ShutdownPort(port: shutdownPort) { stopOnce.run() }
        } catch {
            stop()
            throw error
        }
        Console.out("Shutdown port is \(shutdown.port)")

        // Signals are waited for on a thread of their own (never the global dispatch pool,
        // which a flood of work can starve), so SIGTERM stops within the graceful-stop time.
        let signalThread = Thread {
            var mask = stopSignalMask()
            var received: Int32 = 0
            while sigwait(&mask, &received) != 0 {}
            stopOnce.run()
        }
        signalThread.name = "stubserver-signals"
        signalThread.start()
        finished.wait()
        shutdown.stopListening()
        return 0
    }

    /// Paths in messages as the user wrote them where possible (relative to the working directory).
    static func displayName(_ path: String) -> String {
        let directory = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(directory) ? String(path.dropFirst(directory.count)) : path
    }

    /// Blocks SIGINT and SIGTERM before any other thread exists, so every thread inherits the
    /// mask and the signals stay pending until the signal thread's `sigwait` takes them (an
    /// ignored signal would be dropped; an unblocked one would kill the process).
    private static func prepareStopSignals() {
        signal(SIGINT, SIG_DFL) // a shell may start background jobs with SIGINT ignored
        signal(SIGTERM, SIG_DFL)
        var mask = stopSignalMask()
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    private static func stopSignalMask() -> sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        return mask
    }
}

/// `POST /__admin/shutdown`'s action, set once the stop routine exists.
final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (@Sendable () -> Void)?

    var action: (@Sendable () -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }

    func run() { action?() }
}

/// Runs its action the first time only (a signal and the shutdown port may race).
final class StopOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func run() {
        lock.lock()
        let first = !done
        done = true
        lock.unlock()
        if first { action() }
    }
}
