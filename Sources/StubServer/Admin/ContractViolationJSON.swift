/// Contract violations as the admin API sends them (`GET /__admin/contract-violations`, and
/// `contractViolations` in each journal entry of `GET /__admin/requests`); `StubServerClient`
/// reads them back.
///
/// ```json
/// {"sequence": 3, "method": "GET", "path": "/api/v1/stories", "status": 200, "side": "request",
///  "location": "query.pages", "message": "undeclared query parameter \"pages\" (…)"}
/// ```
package enum ContractViolationJSON {
    package static func json(_ violation: ContractViolation) -> JSONValue {
        [
            "sequence": .number(JSONNumber(violation.sequence)), "method": .string(violation.method), "path": .string(violation.path),
            "status": .number(JSONNumber(violation.status)), "side": .string(violation.side.rawValue),
            "location": .string(violation.location), "message": .string(violation.message),
        ]
    }

    /// A journal entry as the admin API and the dashboard's feed list it: `RecordedRequest`'s
    /// JSON, plus `contractViolations` when there are any.
    static func entry(_ entry: JournalEntry) -> JSONValue {
        let json = RecordedRequest(entry).json
        guard !entry.contractViolations.isEmpty, case .object(var object) = json else { return json }
        object.set("contractViolations", .array(entry.contractViolations.map(Self.json)))
        return .object(object)
    }
}
