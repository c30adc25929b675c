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
    private var fileRouting: any RequestRouting
    /// Stubs added at run time, newest first, updated in place (see `AddedStubRouter`).
    private let added: AddedStubRouter
    private var nextAddedNumber = 1
    private let adminEndpoint: AdminEndpoint?
    /// The dashboard's live feed (`/__admin/ui/events`).
    let dashboardFeed = DashboardFeed()
    /// Requests each stub answered since the start or the last reset.
    let stubHits = StubHitCounter()
    /// The last reload's outcome; guarded by `lock`.
    private var lastReloadStatus: ReloadStatus?

    /// Guarded by `lock` (`replaceStubs` changes it).
    private var source: Source
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
        let scenarios = ScenarioStates()
        let loaded = try ConfigLoader.load(
            config: configFile, workingDirectory: Self.directory(options), options: Self.routerOptions(options, scenarios))
        self.init(source: .config(path: configFile), loaded: loaded, scenarios: scenarios, options: options)
    }

    public convenience init(configFile: URL, options: Options = Options()) throws {
        try self.init(configFile: configFile.path, options: options)
    }

    /// Loads a `-g`-style global settings file; with `environment`, only entries for that `env`.
    public convenience init(settingsFile: String, environment: String? = nil, options: Options = Options()) throws {
        let scenarios = ScenarioStates()
        let loaded = try ConfigLoader.load(
            settings: settingsFile, environment: environment, workingDirectory: Self.directory(options),
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
        let adminEndpoint = Self.adminEnabled(options) ? AdminEndpoint(
            token: options.admin.token,
            requestGuard: AdminRequestGuard(boundHost: options.host, allowedHosts: options.allowedHosts, checksHost: options.admin.token == nil)) : nil
        self.adminEndpoint = adminEndpoint
        var configuration = HTTPServer.Configuration(host: options.host, port: options.port, limits: options.limits)
        configuration.eventLoopCount = options.eventLoopCount
        configuration.tls = options.tls
        let logger = options.logger
        let feed = dashboardFeed
        engine = HTTPServer(
            configuration: configuration,
            responder: JournalingResponder(
                routes: routes, journal: journal, logger: logger, admin: adminEndpoint, feed: feed, hits: stubHits),
            onRejection: { rejection in
                let request = HTTPRequest(
                    method: rejection.method ?? "", target: rejection.target ?? "",
                    remoteAddress: rejection.remoteAddress, remotePort: rejection.remotePort
                )
                let entry = journal.record(request: request, stub: nil, status: rejection.status, duration: .zero, rejection: rejection.reason)
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
        do {
            try reloadRoutes()
            noteReload(ReloadStatus(succeeded: true, time: Date(), problems: []))
        } catch {
            let problems = (error as? ConfigError)?.diagnostics.map(\.description) ?? ["\(error)"]
            noteReload(ReloadStatus(succeeded: false, time: Date(), problems: problems))
            throw error
        }
    }

    /// The last reload's outcome (nil before the first), for the dashboard.
    var lastReload: ReloadStatus? {
        lock.lock(); defer { lock.unlock() }
        return lastReloadStatus
    }

    private func noteReload(_ status: ReloadStatus) {
        lock.lock()
        lastReloadStatus = status
        lock.unlock()
        dashboardFeed.publish(event: "reload", data: status.json.compactText)
    }

    private func reloadRoutes() throws {
        let loaded: LoadedConfig
        let routerOptions = Self.routerOptions(options, scenarioStates)
        lock.lock()
        let source = source
        lock.unlock()
        switch source {
        case .config(let path):
            loaded = try ConfigLoader.load(config: path, workingDirectory: Self.directory(options), options: routerOptions)
        case .settings(let path, let environment):
            loaded = try ConfigLoader.load(
                settings: path, environment: environment, workingDirectory: Self.directory(options), options: routerOptions)
        case .stubs(let stubs):
            loaded = LoadedConfig(router: try Router(stubs: stubs, options: routerOptions), watchedFiles: [])
        }
        lock.lock()
        files = loaded.watchedFiles
        loadWarnings = loaded.warnings
        fileRouting = loaded.router
        installRoutesLocked()
        lock.unlock()
    }

    /// Swaps in the file's router and the added stubs' as one; drops the states of scenarios
    /// no stub mentions any more. Call with `lock` held.
    private func installRoutesLocked() {
        var names = added.scenarioNames
        if let router = fileRouting as? Router { names += router.scenarioNames }
        scenarioStates.keepOnly(names)
        // Without added stubs the configuration's router serves alone (no extra hop per request).
        routes.replace(with: added.sessionCount == 0 ? fileRouting : ServerRouting(added: added, file: fileRouting))
        dashboardFeed.publish(event: "stubs", data: "{}")
    }

    var routesForTesting: RouteTable { routes }

    /// Serves `stubs` from now on (the journal and added stubs are kept).
    public func replaceStubs(_ stubs: [StubDefinition]) throws {
        let router = try Router(stubs: stubs, options: Self.routerOptions(options, scenarioStates))
        lock.lock()
        // A server built from Swift stubs now has these; one built from files goes back to
        // them on the next reload, as before.
        if case .stubs = source { source = .stubs(stubs) }
        fileRouting = router
        installRoutesLocked()
        lock.unlock()
    }

    // MARK: Added stubs (the admin API's, in-process)

    /// Adds stubs tried before the configuration's, newest first, and returns their ids
    /// (`admin-1`, …). Throws a `ConfigError` (nothing is added) when one does not compile.
    ///
    /// ```swift
    /// let id = try server.addStub(StubDefinition(request: .get("/ping"), response: .text("pong")))
    /// try server.removeStub(id: id)
    /// ```
    @discardableResult
    public func addStubs(_ stubs: [StubDefinition]) throws -> [String] {
        lock.lock()
        defer { lock.unlock() }
        var fresh: [StubDefinition] = []
        var number = nextAddedNumber
        for var stub in stubs {
            stub.reference = .added(number)
            number += 1
            fresh.append(stub)
        }
        // Only the new sessions are compiled and filed: the others keep their state.
        try added.add(fresh)
        nextAddedNumber = number
        installRoutesLocked()
        return fresh.map { $0.reference!.description }
    }

    /// Adds one stub; see `addStubs(_:)`.
    @discardableResult
    public func addStub(_ stub: StubDefinition) throws -> String {
        try addStubs([stub])[0]
    }

    /// Removes an added stub. Throws `StubServerAdminError.unknownStub` for an id that is not
    /// an added stub (stubs from files are changed by editing the file).
    public func removeStub(id: String) throws {
        lock.lock()
        defer { lock.unlock() }
        guard id.hasPrefix("admin-"), let number = Int(id.dropFirst("admin-".count)), StubReference.added(number).description == id,
              added.remove(number)
        else {
            throw StubServerAdminError.unknownStub(id)
        }
        installRoutesLocked()
    }

    /// Drops every added stub.
    public func resetStubs() {
        lock.lock()
        added.removeAll()
        installRoutesLocked()
        lock.unlock()
    }

    /// Every stub in the order tried: added ones (newest first), then the configuration's.
    public func stubs() -> [StubInfo] {
        lock.lock()
        let added = added.definitions
        let fileRouting = fileRouting
        lock.unlock()
        var list = added.map { StubInfo(id: $0.reference!.description, source: StubReference.addedFile, session: $0.mocoJSON) }
        guard fileRouting is Router else { return list }
        lock.lock()
        let source = source
        lock.unlock()
        // Read again rather than kept: 10,000 sessions' definitions are not worth holding for a listing.
        let definitions: [StubDefinition]
        switch source {
        case .config(let path):
            definitions = (try? ConfigLoader.definitions(config: path, workingDirectory: Self.directory(options)).stubs) ?? []
        case .settings(let path, let environment):
            definitions = (try? ConfigLoader.definitions(config: path, environment: environment, workingDirectory: Self.directory(options)).stubs) ?? []
        case .stubs(let stubs):
            definitions = stubs
        }
        for (position, definition) in definitions.enumerated() {
            let reference = definition.reference ?? StubReference(file: "stubs", index: position)
            list.append(StubInfo(id: reference.description, source: reference.description, session: definition.mocoJSON))
        }
        return list
    }

    /// How many stubs are added, and how many the configuration has.
    func lockedRouting() -> (count: Int, added: Int) {
        lock.lock(); defer { lock.unlock() }
        let fileCount = (fileRouting as? Router)?.stubCount ?? 0
        let addedCount = added.sessionCount
        return (addedCount + fileCount, addedCount)
    }

    // MARK: The journal, in the admin API's words

    /// Journal entries, oldest first: the last `limit` of them, only unmatched ones if asked.
    public func requests(limit: Int? = nil, unmatchedOnly: Bool = false) -> [RecordedRequest] {
        var entries = unmatchedOnly ? journal.unmatched : journal.entries
        if let limit, entries.count > limit { entries = Array(entries.suffix(max(0, limit))) }
        return entries.map(RecordedRequest.init)
    }

    /// Requests matching `filter`. Throws a `ConfigError` when the filter's JSON is malformed.
    public func countRequests(matching filter: RequestFilter) throws -> Int {
        try journal.requestsOrThrow(matching: filter).count
    }

    public func findRequests(matching filter: RequestFilter) throws -> [RecordedRequest] {
        try journal.requestsOrThrow(matching: filter).map(RecordedRequest.init)
    }

    /// Empties the journal.
    public func clearRequests() {
        journal.clear()
        dashboardFeed.publish(event: "reset", data: "{}")
    }

    // MARK: Scenarios

    /// Every scenario the stubs mention, with its current state.
    public func scenarios() -> [ScenarioState] {
        scenarioStates.all.map { ScenarioState(name: $0.name, state: $0.state) }
    }

    /// Moves a scenario to `state`. Throws `StubServerAdminError.unknownScenario` when no stub
    /// mentions `name`.
    public func setScenario(_ name: String, state: String) throws {
        guard scenarioStates.isKnown(name) else { throw StubServerAdminError.unknownScenario(name) }
        scenarioStates.set(name, to: state)
        dashboardFeed.publish(event: "scenarios", data: "{}")
    }

    /// Every scenario back to `Started`.
    public func resetScenarios() {
        scenarioStates.reset()
        dashboardFeed.publish(event: "scenarios", data: "{}")
    }

    /// Back to the start: journal cleared, `seq`/`cycle` and scenarios restarted, added stubs
    /// dropped. The configuration is compiled again (from its files), so a broken edit throws
    /// and the old routes keep serving — with the rest reset.
    public func reset() throws {
        journal.clear()
        stubHits.reset()
        dashboardFeed.publish(event: "reset", data: "{}")
        scenarioStates.reset()
        resetStubs()
        try reload()
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

/// Added stubs first, then the configuration's (one routing pass over both, so catch-alls
/// still come last and a miss is compared with every stub).
struct ServerRouting: RequestRouting {
    let added: AddedStubRouter
    let file: any RequestRouting

    func route(_ request: HTTPRequest) -> RouteResult {
        if let router = file as? Router { return added.reading { Router.route(request, first: added, then: router) } }
        if added.stub(matching: request) != nil { return added.route(request) }
        return file.route(request)
    }
}

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
    /// The admin API, when on; its calls are not journaled.
    var admin: AdminEndpoint? = nil
    /// The dashboard's feed and hit counts.
    var feed: DashboardFeed? = nil
    var hits: StubHitCounter? = nil

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let admin, AdminEndpoint.claims(request) { return admin.respond(to: request) }
        let result = routes.routing.route(request)
        var reply = result.reply
        let stub = result.stub
        let nearMisses = result.nearMisses
        let previous = reply.onSent
        let journal = journal
        let logger = logger
        let feed = feed
        let hits = hits
        reply.onSent = { status, elapsed in
            previous?(status, elapsed)
            let entry = journal.record(request: request, stub: stub, status: status, duration: elapsed, nearMisses: nearMisses)
            logger?(entry)
            if let stub { hits?.count(stub) }
            if let feed, feed.hasSubscribers { feed.publish(DashboardEndpoint.requestMessage(entry)) }
        }
        return reply
    }
}
