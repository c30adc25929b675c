import DesignerNews
import Foundation
import StubServer

/// The variants of the stub API, chosen the way the app really can: by its OAuth client id,
/// which it sends with every request (see `Stubs/README.md`).
enum World: String, CustomStringConvertible {
    /// Everything works; the app's own client id.
    case normal = "designernews-ios"
    /// The front page is empty.
    case empty = "qa-empty"
    /// The first page, then newer stories on every later request (a `seq`).
    case newerOnRefresh = "qa-newer-on-refresh"
    /// Logging in and the front page take half a second (`latency`).
    case slow = "qa-slow"
    /// A story on the front page has a vote count that is not a number.
    case broken = "qa-broken"
    /// Upvotes fail with 503.
    case votesFail = "qa-votes-fail"
    /// Everything fails with 500.
    case outage = "qa-outage"

    var description: String { rawValue }
}

/// A fresh stub server, started from `Stubs/settings.json` on a free port for one scenario, with
/// the app's environment pointed at it (fixed clock, English, empty token store).
///
/// ```swift
/// var backend: StubbedBackend!
/// beforeEach { backend = try StubbedBackend.start() }
/// afterEach { backend.stop() }
/// …
/// Given("the server is down") { backend.switchTo(.outage) }
/// Then("one token request was sent") { expect(backend.requests(.post("/oauth/token"))).to(haveCount(1)) }
/// ```
@MainActor
final class StubbedBackend {
    let server: StubServer
    private(set) var world: World = .normal
    let tokenStore = InMemoryKeyValueStore()

    private init(server: StubServer) {
        self.server = server
    }

    /// Starts the server and pushes the app's environment; ``stop()`` undoes both.
    /// With `checkingContract`, the server checks every exchange against `Stubs/openapi.yaml`
    /// (`expect(backend.server).to(haveNoContractViolations())`).
    static func start(world: World = .normal, checkingContract: Bool = false) throws -> StubbedBackend {
        var options = StubServer.Options()
        if checkingContract { try options.checkContract(against: StubsFolder.file("openapi.yaml").path) }
        let server = try StubServer(configFile: StubsFolder.settings, options: options)
        try server.start()
        let backend = StubbedBackend(server: server)
        backend.world = world
        AppEnvironment.pushEnvironment(QAEnvironment.make(api: backend.api(for: world), keyValueStore: backend.tokenStore))
        return backend
    }

    /// The app's API client as it would be configured for `world`.
    func api(for world: World) -> DesignerNewsAPIClient {
        DesignerNewsAPIClient(configuration: .init(baseURL: server.baseURL, clientID: world.rawValue))
    }

    /// Points the current environment's API at another world (keeping any token).
    func switchTo(_ world: World) {
        self.world = world
        AppEnvironment.replaceCurrentEnvironment(api: api(for: world).authorized(with: AppEnvironment.current.api.accessToken))
    }

    /// Logs the QA reader in without going through the login screen.
    func logIn() throws {
        AppEnvironment.login(try Fixtures.accessToken)
    }

    /// Every request the app sent that matches `filter`, oldest first.
    func requests(_ filter: RequestFilter) -> [JournalEntry] {
        server.journal.requests(matching: filter)
    }

    /// Requests no stub answered (each a bug in the app or in `Stubs/`).
    var unmatchedRequests: [JournalEntry] { server.journal.unmatched }

    /// Pops the environment and stops the server.
    func stop() {
        AppEnvironment.popEnvironment()
        server.stop()
    }
}
