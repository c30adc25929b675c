// CONTRACT (placeholder until the routing work lands): the compiled, immutable routing table.
// The engine side calls `route(_:)`; the config side builds it. Hot reload swaps whole Routers.

/// Where a stub came from, printed as `file#index` in log lines and near-miss reports.
public struct StubReference: Sendable, Hashable, CustomStringConvertible {
    /// The config file's name as the user wrote it (e.g. `Stubs/login_conf.json`), or `stubs` for
    /// stubs built in Swift.
    public var file: String
    /// Zero-based position of the session in that file.
    public var index: Int

    public init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    public var description: String { "\(file)#\(index)" }
}

/// The outcome of routing one request.
public struct RouteResult: Sendable {
    /// What to send (its `onSent` is left for the caller to fill).
    public var reply: HTTPReply
    /// The stub that answered; nil when nothing matched and `reply` is the near-miss 400.
    public var stub: StubReference?

    public init(reply: HTTPReply, stub: StubReference?) {
        self.reply = reply
        self.stub = stub
    }
}

/// The compiled routing table: first match in config order wins, catch-alls last.
public final class Router: Sendable {
    public init(stubs: [StubDefinition]) throws {}

    public func route(_ request: HTTPRequest) -> RouteResult {
        RouteResult(
            reply: HTTPReply(.response(HTTPResponse(status: 400, body: Array("no stubs loaded\n".utf8)))),
            stub: nil
        )
    }
}
