import Foundation

// The admin API's operations, in process: added stubs, the journal, scenarios, reset.
extension StubServer {
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
            definitions =
                (try? ConfigLoader.definitions(config: path, environment: environment, workingDirectory: Self.directory(options)).stubs)
                ?? []
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
}
