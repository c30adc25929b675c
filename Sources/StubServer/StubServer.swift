import Foundation
import OpenAPI

/// A moco-compatible stub HTTP server you can run from the command line or embed in tests.
///
/// ```swift
/// let server = try StubServer(configFile: stubs.appending(path: "settings.json"))  // port 0 by default
/// try server.start()          // returns once listening; server.baseURL is http://127.0.0.1:PORT
/// defer { server.stop() }
/// // … exercise the app against server.baseURL …
/// XCTAssertEqual(server.journal.requests(matching: .post("/oauth/token")).count, 1)
/// ```
public final class StubServer: @unchecked Sendable, ReloadableConfiguration {
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
        /// Bytes the journal holds at most (bodies, headers, targets); the oldest entries go first.
        public var journalByteCapacity = 64 * 1024 * 1024
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
        /// The admin API under `/__admin/` (see `AdminAccess`): by default on while bound to
        /// loopback, off otherwise.
        public var admin: AdminAccess = .automatic
        /// Host names (besides `localhost`, IP addresses and `host`) a request's `Host` header
        /// may carry for the admin API to answer; any other name is refused (DNS rebinding).
        ///
        /// ```swift
        /// var options = StubServer.Options()
        /// options.allowedHosts = ["stubs.test"]   // /etc/hosts points it at 127.0.0.1
        /// ```
        public var allowedHosts: [String] = []
        /// What `POST /__admin/shutdown` does once its reply is out; nil stops this server.
        public var onShutdownRequest: (@Sendable () -> Void)?
        /// Serve HTTPS with this certificate and key instead of plain HTTP (Linux: the system's
        /// OpenSSL). `DevelopmentCertificates` makes a local authority and a certificate for
        /// `localhost`; `baseURL` is then `https://…`.
        public var tls: TLSIdentity?
        /// Check every request the app sends, and every response a stub sends, against this
        /// OpenAPI document; violations go to the journal entry, the log line, the admin API
        /// (`GET /__admin/contract-violations`) and `contractViolations()`.
        ///
        /// ```swift
        /// var options = StubServer.Options()
        /// options.openAPI = try OpenAPILoader().load("Stubs/openapi.yaml")
        /// ```
        public var openAPI: OpenAPIDocument?

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
    /// Where stateful scenarios keep their states; kept across reloads.
    let scenarioStates: ScenarioStates
    /// The configuration's router (without added stubs).
    var fileRouting: any RequestRouting
    /// Stubs added at run time, newest first, updated in place (see `AddedStubRouter`).
    let added: AddedStubRouter
    var nextAddedNumber = 1
    private let adminEndpoint: AdminEndpoint?
    /// The dashboard's live feed (`/__admin/ui/events`).
    let dashboardFeed = DashboardFeed()
    /// Requests each stub answered since the start or the last reset.
    let stubHits = StubHitCounter()
    /// The last reload's outcome; guarded by `lock`.
    var lastReloadStatus: ReloadStatus?

    /// Guarded by `lock` (`replaceStubs` changes it).
    var source: Source
    let routes: RouteTable
    private let engine: HTTPServer
    let lock = NSLock()
    var files: [String]
    var loadWarnings: [ConfigDiagnostic]
    let configurationWatch = ConfigurationWatch(queueLabel: "stubserver.reload")

    /// Loads `-c`-style configuration: a JSON file (or glob) of sessions, possibly with settings
    /// entries (`include`, `context`, `file_root`, …). Throws `ConfigError` listing every problem.
    public convenience init(configFile: String, options: Options = Options()) throws {
        let scenarios = ScenarioStates()
        let loaded = try ConfigLoader.load(
            configFile, option: "-c", environment: nil, workingDirectory: Self.directory(options),
            options: Self.routerOptions(options, scenarios))
        self.init(source: .config(path: configFile), loaded: loaded, scenarios: scenarios, options: options)
    }

    public convenience init(configFile: URL, options: Options = Options()) throws {
        try self.init(configFile: configFile.path, options: options)
    }

    /// Loads a `-g`-style global settings file; with `environment`, only entries for that `env`.
    public convenience init(settingsFile: String, environment: String? = nil, options: Options = Options()) throws {
        let scenarios = ScenarioStates()
        let loaded = try ConfigLoader.load(
            settingsFile, option: "-g", environment: environment, workingDirectory: Self.directory(options),
            options: Self.routerOptions(options, scenarios))
        self.init(source: .settings(path: settingsFile, environment: environment), loaded: loaded, scenarios: scenarios, options: options)
    }

    /// Serves sessions built in Swift.
    public convenience init(stubs: [StubDefinition], options: Options = Options()) throws {
        let scenarios = ScenarioStates()
        let router = try Router(stubs: stubs, options: Self.routerOptions(options, scenarios))
        self.init(source: .stubs(stubs), loaded: LoadedConfig(router: router, watchedFiles: []), scenarios: scenarios, options: options)
    }

    /// Serves any routing you bring (tests of the engine itself, custom routers).
    convenience init(routing: any RequestRouting, options: Options = Options()) {
        self.init(source: .stubs([]), routing: routing, files: [], scenarios: ScenarioStates(), options: options)
    }

    private convenience init(source: Source, loaded: LoadedConfig, scenarios: ScenarioStates, options: Options) {
        self.init(source: source, routing: loaded.router, files: loaded.watchedFiles, scenarios: scenarios, options: options)
        loadWarnings = loaded.warnings
    }

    private init(source: Source, routing: any RequestRouting, files: [String], scenarios: ScenarioStates, options: Options) {
        self.options = options
        self.source = source
        self.files = files
        self.loadWarnings = []
        self.scenarioStates = scenarios
        self.fileRouting = routing
        self.added = AddedStubRouter(options: Self.routerOptions(options, scenarios))
        if let router = routing as? Router { scenarios.keepOnly(router.scenarioNames) }
        let journal = RequestJournal(
            capacity: options.journalCapacity, byteCapacity: options.journalByteCapacity, bodyExcerptLimit: options.journalBodyLimit)
        self.journal = journal
        let routes = RouteTable(routing)
        self.routes = routes
        let adminEndpoint =
            Self.adminEnabled(options)
            ? AdminEndpoint(
                token: options.admin.token,
                requestGuard: AdminRequestGuard(
                    boundHost: options.host, allowedHosts: options.allowedHosts, checksHost: options.admin.token == nil)) : nil
        self.adminEndpoint = adminEndpoint
        var configuration = HTTPServer.Configuration(host: options.host, port: options.port, limits: options.limits)
        configuration.eventLoopCount = options.eventLoopCount
        configuration.tls = options.tls
        let logger = options.logger
        let feed = dashboardFeed
        engine = HTTPServer(
            configuration: configuration,
            responder: JournalingResponder(
                routes: routes, journal: journal, logger: logger, admin: adminEndpoint, feed: feed, hits: stubHits,
                contract: options.openAPI.map(RuntimeContractCheck.init(api:))),
            onRejection: { rejection in
                let request = HTTPRequest(
                    method: rejection.method ?? "", target: rejection.target ?? "",
                    remoteAddress: rejection.remoteAddress, remotePort: rejection.remotePort
                )
                let entry = journal.record(
                    request: request, stub: nil, status: rejection.status, duration: .zero, rejection: rejection.reason)
                logger?(entry)
                if feed.hasSubscribers { feed.publish(DashboardEndpoint.requestMessage(entry)) }
            }
        )
        journal.attach(to: engine.memory)
        adminEndpoint?.server = self
    }

    /// The memory budget the journal and the engine's buffers share (`limits.maxMemoryBytes`).
    public var memory: MemoryBudget { engine.memory }

    static func routerOptions(_ options: Options, _ scenarios: ScenarioStates) -> RouterOptions {
        RouterOptions(scenarios: scenarios, reservedPrefix: adminEnabled(options) ? AdminEndpoint.prefix : nil)
    }

    /// Whether the admin API answers: never when `.off`; with a token always; otherwise only
    /// while bound to loopback.
    static func adminEnabled(_ options: Options) -> Bool {
        switch options.admin {
        case .off: return false
        case .token: return true
        case .automatic: return AdminAccess.isLoopback(options.host)
        }
    }

    /// True when `/__admin/` answers on this server.
    public var isAdminEnabled: Bool { adminEndpoint != nil }

    deinit {
        configurationWatch.stop()
        engine.stop()
    }

    static func directory(_ options: Options) -> String {
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
        // Open dashboards would otherwise hold the graceful stop for its whole timeout.
        dashboardFeed.closeAll()
        engine.stop()
    }

    public var isRunning: Bool { engine.isRunning }

    /// How many event loops serve (0 when stopped): `Options.eventLoopCount`, or one per
    /// usable CPU.
    public var eventLoopCount: Int { engine.eventLoopCount }

    /// The bound port (after `start()`).
    public var port: Int { engine.port }

    /// `http://127.0.0.1:PORT` (the configured host, bracketed for IPv6); `https://localhost:PORT`
    /// when serving HTTPS on loopback, the name a development certificate is made for.
    public var baseURL: URL {
        var host = options.host
        if host == "0.0.0.0" || host == "::" { host = "127.0.0.1" }
        if options.tls != nil && (host == "127.0.0.1" || host == "::1") { host = "localhost" }
        if host.contains(":") { host = "[\(host)]" }
        return URL(string: "\(options.tls == nil ? "http" : "https")://\(host):\(port)")!
    }
}
