import Foundation

// Reloading the configuration: on demand, on a file change (`watchConfiguration`), with the last good one kept.
extension StubServer {
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
            loaded = try ConfigLoader.load(
                path, option: "-c", environment: nil, workingDirectory: Self.directory(options), options: routerOptions)
        case .settings(let path, let environment):
            loaded = try ConfigLoader.load(
                path, option: "-g", environment: environment, workingDirectory: Self.directory(options), options: routerOptions)
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
    func installRoutesLocked() {
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

    /// Watches every configuration file (includes too) and reloads on change. `onReload` hears
    /// about each attempt, on a background queue. The CLI uses this; tests may too.
    public func watchConfiguration(onReload: @escaping @Sendable (ReloadEvent) -> Void = { _ in }) {
        configurationWatch.start(reloading: self, onReload: onReload)
    }

    public func stopWatching() {
        configurationWatch.stop()
    }
}
