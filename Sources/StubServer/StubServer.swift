import Foundation

/// A moco-compatible stub HTTP server you can run from the command line or embed in tests.
///
/// ```swift
/// let server = try StubServer(configFile: stubs.appending(path: "settings.json"))  // port 0 by default
/// try server.start()          // returns once listening; server.baseURL is http://127.0.0.1:PORT
/// defer { server.stop() }
/// // … exercise the app against server.baseURL …
/// XCTAssertEqual(server.journal.requests(matching: .post("/oauth/token")).count, 1)
/// ```
public final class StubServer: @unchecked Sendable {
    /// The toolkit's version, printed by `stubserver version`.
    public static let version = "0.1.0"

    public struct Options: Sendable {
        /// Numeric address to bind. Anything but loopback exposes your stubs to the network.
        public var host = "127.0.0.1"
        /// 0 picks a free port (read it from `port` / `baseURL` after `start()`).
        public var port = 0
        public var limits = HTTPServerLimits()
        /// Entries the journal keeps before dropping the oldest.
        public var journalCapacity = 10_000
        /// Bytes of each request body the journal keeps.
        public var journalBodyLimit = 64 * 1024
        /// Where relative paths in configurations resolve (moco resolves against the working
        /// directory); nil means the process's current directory.
        public var workingDirectory: String?
        /// Event-loop threads; 0 means one per CPU the process may use (its affinity mask and
        /// cgroup CPU quota on Linux; see `UsableProcessors`).
        public var eventLoopCount = 0
        /// Called once per exchange (and per refused request), on an event-loop thread: keep it
        /// quick. The CLI prints its log line from here.
        public var logger: (@Sendable (JournalEntry) -> Void)?

        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            limits: HTTPServerLimits = HTTPServerLimits(),
            journalCapacity: Int = 10_000,
            logger: (@Sendable (JournalEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.journalCapacity = journalCapacity
            self.logger = logger
        }
    }

    /// Where the routes come from, so `reload()` can read them again.
    enum Source: Sendable {
        case config(path: String)
        case settings(path: String, environment: String?)
        case stubs([StubDefinition])
    }

    public let options: Options
    /// Every exchange, bounded (see `Options.journalCapacity`).
    public let journal: RequestJournal

    private let source: Source
    private let routes: RouteTable
    private let engine: HTTPServer
    private let lock = NSLock()
    private var files: [String]
    private var loadWarnings: [ConfigDiagnostic]
    private var watcher: FileWatcher?
    private let reloadQueue = DispatchQueue(label: "stubserver.reload")

    /// Loads `-c`-style configuration: a JSON file (or glob) of sessions, possibly with settings
    /// entries (`include`, `context`, `file_root`, …). Throws `ConfigError` listing every problem.
    public convenience init(configFile: String, options: Options = Options()) throws {
        let loaded = try ConfigLoader.load(config: configFile, workingDirectory: Self.directory(options))
        self.init(source: .config(path: configFile), loaded: loaded, options: options)
    }

    public convenience init(configFile: URL, options: Options = Options()) throws {
        try self.init(configFile: configFile.path, options: options)
    }

    /// Loads a `-g`-style global settings file; with `environment`, only entries for that `env`.
    public convenience init(settingsFile: String, environment: String? = nil, options: Options = Options()) throws {
        let loaded = try ConfigLoader.load(settings: settingsFile, environment: environment, workingDirectory: Self.directory(options))
        self.init(source: .settings(path: settingsFile, environment: environment), loaded: loaded, options: options)
    }

    /// Serves sessions built in Swift.
    public convenience init(stubs: [StubDefinition], options: Options = Options()) throws {
        let router = try Router(stubs: stubs)
        self.init(source: .stubs(stubs), loaded: LoadedConfig(router: router, watchedFiles: []), options: options)
    }

    /// Serves any routing you bring (tests of the engine itself, custom routers).
    convenience init(routing: any RequestRouting, options: Options = Options()) {
        self.init(source: .stubs([]), routing: routing, files: [], options: options)
    }

    private convenience init(source: Source, loaded: LoadedConfig, options: Options) {
        self.init(source: source, routing: loaded.router, files: loaded.watchedFiles, options: options)
        loadWarnings = loaded.warnings
    }

    private init(source: Source, routing: any RequestRouting, files: [String], options: Options) {
        self.options = options
        self.source = source
        self.files = files
        self.loadWarnings = []
        let journal = RequestJournal(capacity: options.journalCapacity, bodyExcerptLimit: options.journalBodyLimit)
        self.journal = journal
        let routes = RouteTable(routing)
        self.routes = routes
        var configuration = HTTPServer.Configuration(host: options.host, port: options.port, limits: options.limits)
        configuration.eventLoopCount = options.eventLoopCount
        let logger = options.logger
        engine = HTTPServer(
            configuration: configuration,
            responder: JournalingResponder(routes: routes, journal: journal, logger: logger),
            onRejection: { rejection in
                let request = HTTPRequest(
                    method: rejection.method ?? "", target: rejection.target ?? "",
                    remoteAddress: rejection.remoteAddress, remotePort: rejection.remotePort
                )
                let entry = journal.record(request: request, stub: nil, status: rejection.status, duration: .zero, rejection: rejection.reason)
                logger?(entry)
            }
        )
    }

    deinit {
        watcher?.stop()
        engine.stop()
    }

    private static func directory(_ options: Options) -> String {
        options.workingDirectory ?? FileManager.default.currentDirectoryPath
    }

    // MARK: Running

    /// Binds and starts serving; returns once connections are accepted.
    /// Throws `HTTPServerError` (e.g. `.addressInUse`).
    public func start() throws {
        try engine.start()
    }

    /// Finishes in-flight requests (bounded by `limits.stopTimeout`), closes every connection
    /// and the listener, and stops watching files. When it returns the port is free.
    public func stop() {
        stopWatching()
        engine.stop()
    }

    public var isRunning: Bool { engine.isRunning }

    /// How many event loops serve (0 when stopped): `Options.eventLoopCount`, or one per
    /// usable CPU.
    public var eventLoopCount: Int { engine.eventLoopCount }

    /// The bound port (after `start()`).
    public var port: Int { engine.port }

    /// `http://127.0.0.1:PORT` (the configured host, bracketed for IPv6).
    public var baseURL: URL {
        var host = options.host
        if host == "0.0.0.0" || host == "::" { host = "127.0.0.1" }
        if host.contains(":") { host = "[\(host)]" }
        return URL(string: "http://\(host):\(port)")!
    }

    // MARK: Reloading

    /// What the last load noticed without refusing the configuration (a response file that
    /// does not exist yet, a file included twice…).
    public var warnings: [ConfigDiagnostic] {
        lock.lock(); defer { lock.unlock() }
        return loadWarnings
    }

    /// The files the current configuration was read from (absolute paths).
    public var watchedFiles: [String] {
        lock.lock(); defer { lock.unlock() }
        return files
    }

    /// Reads the configuration again and swaps the routes atomically, without touching the
    /// listener or open connections. On error the last good configuration keeps serving and
    /// the error (a `ConfigError` for configuration problems) is thrown.
    public func reload() throws {
        let loaded: LoadedConfig
        switch source {
        case .config(let path):
            loaded = try ConfigLoader.load(config: path, workingDirectory: Self.directory(options))
        case .settings(let path, let environment):
            loaded = try ConfigLoader.load(settings: path, environment: environment, workingDirectory: Self.directory(options))
        case .stubs(let stubs):
            loaded = LoadedConfig(router: try Router(stubs: stubs), watchedFiles: [])
        }
        routes.replace(with: loaded.router)
        lock.lock()
        files = loaded.watchedFiles
        loadWarnings = loaded.warnings
        lock.unlock()
    }

    var routesForTesting: RouteTable { routes }

    /// Serves `stubs` from now on (the journal is kept).
    public func replaceStubs(_ stubs: [StubDefinition]) throws {
        routes.replace(with: try Router(stubs: stubs))
    }

    /// Watches every configuration file (includes too) and reloads on change. `onReload` hears
    /// about each attempt, on a background queue. The CLI uses this; tests may too.
    public func watchConfiguration(onReload: @escaping @Sendable (ReloadEvent) -> Void = { _ in }) {
        lock.lock()
        defer { lock.unlock() }
        guard watcher == nil else { return }
        let watcher = FileWatcher(files: files) { [weak self] changed in
            guard let self else { return }
            reloadQueue.async {
                do {
                    try self.reload()
                    self.watcher?.update(files: self.watchedFiles)
                    onReload(.reloaded(changedFiles: changed))
                } catch {
                    onReload(.failed(changedFiles: changed, error: error))
                }
            }
        }
        self.watcher = watcher
        watcher.start()
    }

    public func stopWatching() {
        lock.lock()
        let current = watcher
        watcher = nil
        lock.unlock()
        current?.stop()
    }
}

/// What happened when watched configuration files changed.
public enum ReloadEvent: Sendable, CustomStringConvertible {
    /// The new configuration is serving.
    case reloaded(changedFiles: [String])
    /// The new configuration is broken; the previous one keeps serving.
    case failed(changedFiles: [String], error: any Error)

    public var description: String {
        switch self {
        case .reloaded(let files):
            return "\(files.joined(separator: ", ")) changed; configuration reloaded"
        case .failed(let files, let error):
            return "\(files.joined(separator: ", ")) changed but the configuration is broken; still serving the last good one:\n\(error)"
        }
    }
}

/// Anything that turns a request into a reply plus the stub that made it. `Router` is the one
/// the configuration builds.
protocol RequestRouting: Sendable {
    func route(_ request: HTTPRequest) -> RouteResult
}

extension Router: RequestRouting {}

/// The current routes; reload swaps the whole table at once.
final class RouteTable: @unchecked Sendable {
    private let lock = NSLock()
    private var current: any RequestRouting

    init(_ routing: any RequestRouting) { current = routing }

    var routing: any RequestRouting {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    func replace(with routing: any RequestRouting) {
        lock.lock(); current = routing; lock.unlock()
    }
}

/// Routes each request and records the exchange in the journal once the reply goes out.
struct JournalingResponder: HTTPResponder {
    let routes: RouteTable
    let journal: RequestJournal
    let logger: (@Sendable (JournalEntry) -> Void)?

    func respond(to request: HTTPRequest) -> HTTPReply {
        let result = routes.routing.route(request)
        var reply = result.reply
        let stub = result.stub
        let previous = reply.onSent
        let journal = journal
        let logger = logger
        reply.onSent = { status, elapsed in
            previous?(status, elapsed)
            let entry = journal.record(request: request, stub: stub, status: status, duration: elapsed)
            logger?(entry)
        }
        return reply
    }
}
