import Foundation

/// One session: a request pattern and what to answer. The same model comes out of moco JSON
/// files (`ConfigLoader`) and is built in Swift for `StubServer(stubs:)`.
///
/// ```swift
/// let stubs: [StubDefinition] = [
///     StubDefinition(
///         request: .post("/oauth/token", forms: ["username": "qa@example.com", "password": "secret"]),
///         response: .json(["access_token": "abc123", "token_type": "bearer"]),
///         description: "login"
///     ),
///     StubDefinition(request: .get(.path("/api/v1/stories/{id}")),
///                    response: .file(.template("stories/${req.path.id}.json"))),
///     .redirect(RequestPattern.get("/"), to: "/api/v1/stories"),
///     .catchAll(.json(["error": "not_found"], status: 404)),
/// ]
/// ```
public struct StubDefinition: Sendable {
    /// nil: a catch-all, used only when no other session matches.
    public var request: RequestPattern?
    public var response: ResponseDefinition?
    /// A `302 Found` to this location (moco's session-level `redirectTo`).
    public var redirectTo: TextValue?
    /// moco's `description`: shown in near-miss reports.
    public var description: String?
    /// Settings inherited from the settings entry that included this session.
    public var scope: StubScope
    /// Where the session was written; `Router` numbers Swift-built stubs `stubs#i`.
    public var reference: StubReference?
    /// moco's `mount`: serve a directory (the `response` holds the keys written beside it).
    public var mount: MountDefinition?
    /// moco's REST `resource`.
    public var resource: ResourceDefinition?
    /// Where inside the session this definition was written (`.resource.get[1]`), for problems
    /// found in the sessions a resource expands into.
    package var sourcePath = ""
    /// moco's `on.complete`: an HTTP call fired once this session has answered.
    public var onComplete: EventDefinition? = nil
    /// A stateful scenario: the stub answers only in `requires` and then moves to `next`.
    public var scenario: StubScenario? = nil

    public init(
        request: RequestPattern?,
        response: ResponseDefinition,
        description: String? = nil,
        scope: StubScope = StubScope()
    ) {
        self.request = request
        self.response = response
        self.redirectTo = nil
        self.description = description
        self.scope = scope
        self.reference = nil
    }

    /// Any session shape, as the loader builds it.
    public init(
        request: RequestPattern?, response: ResponseDefinition?, redirectTo: TextValue?, description: String?,
        scope: StubScope, reference: StubReference?
    ) {
        self.request = request
        self.response = response
        self.redirectTo = redirectTo
        self.description = description
        self.scope = scope
        self.reference = reference
    }

    /// `{"response": …}` without a request: answers only when nothing else matches.
    public static func catchAll(_ response: ResponseDefinition, description: String? = nil) -> StubDefinition {
        StubDefinition(request: nil, response: response, description: description)
    }

    /// `{"request": …, "redirectTo": …}`: `302 Found` with `Location`.
    public static func redirect(_ request: RequestPattern, to location: TextValue, description: String? = nil) -> StubDefinition {
        StubDefinition(
            request: request, response: nil, redirectTo: location, description: description, scope: StubScope(),
            reference: nil)
    }

    /// `{"mount": {"dir": …, "uri": …, …}}`: files of `dir` under `uri`; `response` adds headers, status, latency….
    public static func mount(_ mount: MountDefinition, response: ResponseDefinition = ResponseDefinition(), scope: StubScope = StubScope())
        -> StubDefinition
    {
        var definition = StubDefinition(request: nil, response: response, scope: scope)
        definition.mount = mount
        return definition
    }

    /// `{"resource": {"name": "items", "get": […], …}}`.
    public static func resource(_ resource: ResourceDefinition, scope: StubScope = StubScope()) -> StubDefinition {
        var definition = StubDefinition(request: nil, response: nil, redirectTo: nil, description: nil, scope: scope, reference: nil)
        definition.resource = resource
        return definition
    }

    /// Answers only when no other session matches (no request, not a mount or resource).
    public var isCatchAll: Bool { request == nil && mount == nil && resource == nil }

    /// moco's `{"websocket": …}` session: a `GET` on `endpoint.uri` upgraded to a websocket.
    public static func websocket(_ endpoint: WebSocketEndpoint, description: String? = nil) -> StubDefinition {
        var response = ResponseDefinition()
        response.websocket = endpoint
        return StubDefinition(
            request: RequestPattern(method: .equal("GET"), uri: .equal(endpoint.uri)),
            response: response, redirectTo: nil, description: description, scope: StubScope(), reference: nil)
    }

    /// A copy that takes part in a stateful scenario (see `StubScenario`).
    public func inScenario(_ name: String, requires: String? = nil, next: String? = nil) -> StubDefinition {
        var copy = self
        copy.scenario = StubScenario(name: name, requires: requires, next: next)
        return copy
    }
}

/// WireMock's stateful scenarios, as a Rehearsal extension of moco's session object:
/// `"scenario": {"name": "cart", "requires": "Started", "next": "HasItem"}`. Every scenario
/// starts in `Started`; a stub with `requires` matches only in that state, and a stub with
/// `next` moves the scenario there when it answers.
///
/// ```swift
/// StubDefinition(request: .post("/api/v1/stories/101/upvote"), response: .json(["ok": true]))
///     .inScenario("votes", requires: StubScenario.started, next: "Upvoted")
/// ```
public struct StubScenario: Sendable, Hashable {
    /// The state every scenario starts in (and returns to on reset).
    public static let started = "Started"

    public var name: String
    /// The state the stub answers in; nil: any state.
    public var requires: String?
    /// The state the scenario moves to when the stub answers; nil: stays.
    public var next: String?

    public init(name: String, requires: String? = nil, next: String? = nil) {
        self.name = name
        self.requires = requires
        self.next = next
    }
}

/// What a settings entry (`{"include": …, "context": …, "file_root": …, "request": …,
/// "response": …}`) passes down to the sessions it includes. Nested includes compose.
public struct StubScope: Sendable {
    /// URI prefix (`/billing`), joined to every `uri` with exactly one `/`; "" for none.
    public var context: String
    /// Absolute directory that response and request `file` names resolve against. Files are
    /// never served from outside it (symlinks are resolved before the check).
    public var fileRoot: String
    /// moco resolves relative names against the working directory: when a literal file name is
    /// not found under `fileRoot`, it is looked up here (again confined to this directory).
    /// nil when `file_root` was set explicitly.
    public var fallbackRoot: String?
    /// The working directory the server started from, set for stubs from configurations and
    /// the admin API: their paths are then confined to it, `fileRoot` and `fallbackRoot` (see
    /// `PathConfinement`). Nil for stubs built in Swift, whose paths are the program's own.
    package var workingDirectory: String?
    /// Settings `request` matchers, ANDed into every session (catch-alls included).
    public var requests: [RequestPattern]
    /// Settings `response`s, applied before the session's own response (outermost first).
    public var responses: [ResponseDefinition]

    public init(
        context: String = "",
        fileRoot: String = FileManager.default.currentDirectoryPath,
        fallbackRoot: String? = nil,
        requests: [RequestPattern] = [],
        responses: [ResponseDefinition] = []
    ) {
        self.context = context
        self.fileRoot = fileRoot
        self.fallbackRoot = fallbackRoot
        self.requests = requests
        self.responses = responses
    }
}
