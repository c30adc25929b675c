import Foundation
import OpenAPI

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

/// An embedded server given `Options.openAPI` answers `haveNoContractViolations` from its journal.
extension StubServer: ContractViolationsReporting {
    /// Every contract violation of the exchanges still in the journal, oldest first.
    /// Throws `ContractCheckNotEnabled` when the server checks no document.
    public func contractViolations() throws -> [ContractViolation] {
        guard options.openAPI != nil else { throw ContractCheckNotEnabled() }
        return journal.entries.flatMap(\.contractViolations)
    }
}

extension StubServer.Options {
    /// Loads the OpenAPI document at `path` (JSON or YAML, relative to `workingDirectory`) into
    /// `openAPI`. Throws `OpenAPIError` naming the file, line and column of what does not load.
    ///
    /// ```swift
    /// var options = StubServer.Options()
    /// try options.checkContract(against: "Stubs/openapi.yaml")
    /// ```
    public mutating func checkContract(against path: String, workingDirectory: String? = nil) throws {
        openAPI = try OpenAPILoader(workingDirectory: workingDirectory ?? self.workingDirectory ?? FileManager.default.currentDirectoryPath)
            .load(path)
    }
}
