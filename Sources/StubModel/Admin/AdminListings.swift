/// One stub as the admin API lists it.
public struct StubInfo: Sendable, Equatable {
    /// `admin-3` for an added stub, `Stubs/login_conf.json#0` for one from a file.
    public var id: String
    /// `admin`, or `file#index`.
    public var source: String
    /// The session as moco JSON.
    public var session: JSONValue

    public init(id: String, source: String, session: JSONValue) {
        self.id = id
        self.source = source
        self.session = session
    }
}

/// A scenario and the state it is in.
public struct ScenarioState: Sendable, Equatable {
    public var name: String
    public var state: String

    public init(name: String, state: String) {
        self.name = name
        self.state = state
    }
}
