#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may use the admin API under `/__admin/`.
///
/// ```swift
/// var options = StubServer.Options(host: "0.0.0.0")
/// options.admin = .token("s3cret")     // every call needs `Authorization: Bearer s3cret`
/// ```
public enum AdminAccess: Sendable, Equatable {
    /// On while bound to loopback (anyone on this machine may call it); off when bound wider.
    case automatic
    /// On wherever bound; every call needs `Authorization: Bearer TOKEN` (else 401).
    case token(String)
    /// Off: `/__admin/` is routed like any other path.
    case off

    var token: String? {
        if case .token(let token) = self { return token }
        return nil
    }

    /// `127.x.x.x`, `::1` or `localhost`.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return host.hasPrefix("127.") }
        return false
    }
}

/// Admin operations on things that do not exist.
public enum StubServerAdminError: Error, Equatable, CustomStringConvertible {
    case unknownStub(String)
    case unknownScenario(String)

    public var description: String {
        switch self {
        case .unknownStub(let id): "no added stub has the id \(quoted(id)) (stubs from files change by editing the file)"
        case .unknownScenario(let name): "no stub mentions the scenario \(quoted(name))"
        }
    }
}

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
