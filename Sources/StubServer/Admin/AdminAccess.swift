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
