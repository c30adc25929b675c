/// One way an exchange broke the API's OpenAPI document, as a server started with
/// `--openapi` (or `StubServer.Options.openAPI`) saw it: a request the real API would reject,
/// or a stub's response the document does not declare.
///
/// ```swift
/// // GET /api/v1/stories → 200: request query.pages: undeclared query parameter "pages" (GET /api/v1/stories declares client_id, page)
/// for violation in try server.contractViolations() { print(violation) }
/// ```
public struct ContractViolation: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Which half of the exchange broke the document.
    public enum Side: String, Sendable, Codable {
        case request, response
    }

    /// The journal entry's sequence number.
    public var sequence: Int
    public var method: String
    /// The percent-decoded path, without the query.
    public var path: String
    /// The status the stub answered (0: none).
    public var status: Int
    public var side: Side
    /// Where in the exchange: `operation`, `query.page`, `header.X-Id`, `body $.user.id`, `status`.
    public var location: String
    /// What was expected, with the schema keyword that failed when there is one.
    public var message: String

    public init(sequence: Int, method: String, path: String, status: Int, side: Side, location: String, message: String) {
        self.sequence = sequence
        self.method = method
        self.path = path
        self.status = status
        self.side = side
        self.location = location
        self.message = message
    }

    /// `GET /api/v1/stories → 200: request query.pages: undeclared query parameter "pages" …`.
    public var description: String {
        "\(method) \(path) → \(status): \(side.rawValue) \(location): \(message)"
    }
}

/// Something that can list the contract violations a server saw: an embedded `StubServer`
/// given an OpenAPI document, or a `StubServerClient` talking to `stubserver start --openapi`.
/// SpecKit's `haveNoContractViolations` asks it.
public protocol ContractViolationsReporting {
    /// Every violation of the requests still in the journal, oldest first. Blocking: a
    /// client waits for the server's answer. Throws when the server checks no document.
    func contractViolations() throws -> [ContractViolation]
}

/// `contractViolations()` on a server that checks no OpenAPI document.
public struct ContractCheckNotEnabled: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String {
        "this stub server checks no OpenAPI document: start it with `stubserver start --openapi api.yaml` (embedded: StubServer.Options.openAPI)"
    }
}
