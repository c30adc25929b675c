/// An embedded server answers `haveReceived` from its own journal.
extension StubServer: ReceivedRequestsVerifying {
    public func verifyReceived(_ filter: RequestFilter, nearMisses: Int = 3) throws -> ReceivedRequestsReport {
        try CompiledFilter(filter).report(journal.entries, nearMisses: nearMisses)
    }

    /// Stubs served now: added ones plus the configuration's (catch-alls included).
    public var stubCount: Int {
        lockedRouting().count
    }
}
