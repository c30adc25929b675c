#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps web pages out of the admin API. The API is on without a token on loopback, and any
/// page the developer opens can make the browser send requests to 127.0.0.1: "simple"
/// cross-origin requests (no preflight) and, through DNS rebinding, even same-origin-looking
/// ones under a name the attacker controls. So an admin request is refused when
///
/// - its `Host` is a name other than `localhost`, the bound host or an `allowedHosts` entry
///   (DNS rebinding always arrives with the attacker's name; IP literals cannot be rebound);
///   skipped with a token, which a rebinding page cannot know;
/// - its `Origin` is not the server's own (`http://` or `https://` + its `Host`), or is `null`;
/// - its `Sec-Fetch-Site` says another origin sent it (`cross-site` or `same-site`; a page on
///   `localhost:3000` is "same-site" with `localhost:12306`);
/// - it carries a body (or a content type) that is not `application/json`, the one thing no
///   browser sends cross-origin without a CORS preflight, which the admin API never grants.
///
/// Tools (curl, `StubServerClient`) send none of `Origin`/`Sec-Fetch-Site` and pass; pages
/// the server serves itself (the dashboard under `/__admin/ui`) are same-origin and pass.
///
/// ```swift
/// let guard = AdminRequestGuard(boundHost: "127.0.0.1", allowedHosts: ["stubs.test"], checksHost: true)
/// guard.refusal(for: request)   // nil, or why (403/415)
/// ```
struct AdminRequestGuard: Sendable {
    /// Lower-cased names (no port) a `Host` header may carry besides IP literals.
    let allowedNames: Set<String>
    let checksHost: Bool

    init(boundHost: String, allowedHosts: [String], checksHost: Bool) {
        var names: Set<String> = ["localhost"]
        for name in [boundHost] + allowedHosts {
            let trimmed = Self.withoutTrailingDot(name.trimmingASCIIWhitespace().lowercased())
            if !trimmed.isEmpty { names.insert(trimmed) }
        }
        allowedNames = names
        self.checksHost = checksHost
    }

    struct Refusal: Error, Equatable {
        var status: Int
        var message: String
    }

    func refusal(for request: HTTPRequest) -> Refusal? {
        let host = request.headers["Host"]
        if checksHost, let host, !isAllowed(host: host) {
            return Refusal(
                status: 403,
                message:
                    "the admin API refuses Host \(quoted(host)): only localhost, IP addresses and names given with --host or --allowed-host may reach it (this stops DNS rebinding)"
            )
        }
        if let origin = request.headers["Origin"], !isOwn(origin: origin, host: host) {
            return Refusal(
                status: 403,
                message: "the admin API refuses requests from other origins (Origin \(quoted(origin))): web pages may not drive it")
        }
        if let site = request.headers["Sec-Fetch-Site"]?.trimmingASCIIWhitespace().lowercased(), site != "same-origin", site != "none" {
            return Refusal(status: 403, message: "the admin API refuses requests a browser sent for another site (Sec-Fetch-Site: \(site))")
        }
        let method = request.method.uppercased()
        if method != "GET" && method != "HEAD" {
            let contentType = request.headers["Content-Type"]
            if !request.body.isEmpty || contentType != nil {
                guard let contentType, Self.isJSON(contentType) else {
                    let given = contentType.map { "Content-Type \(quoted($0))" } ?? "no Content-Type"
                    return Refusal(
                        status: 415, message: "the admin API takes bodies as \"Content-Type: application/json\" only (got \(given))")
                }
            }
        }
        return nil
    }

    /// `localhost:12306`, `127.0.0.1`, `[::1]:80`, or a configured name.
    func isAllowed(host: String) -> Bool {
        guard let name = Self.hostName(host.trimmingASCIIWhitespace()) else { return false }
        if Self.isIPLiteral(name) { return true }
        return allowedNames.contains(Self.withoutTrailingDot(name.lowercased()))
    }

    /// The origin the request's own `Host` implies, compared case-insensitively.
    private func isOwn(origin: String, host: String?) -> Bool {
        let origin = origin.trimmingASCIIWhitespace().lowercased()
        // The port in `Host` is this server's own, so `https://` (a TLS server) is the same origin.
        guard let host, let scheme = ["http://", "https://"].first(where: { origin.hasPrefix($0) }) else { return false }
        let authority = String(origin.dropFirst(scheme.count))
        let own = host.trimmingASCIIWhitespace().lowercased()
        return authority == own || Self.withDefaultPort(authority) == Self.withDefaultPort(own)
    }

    /// `a:80` and `a` (`a:443` and `a` over TLS) are the same authority.
    private static func withDefaultPort(_ authority: String) -> String {
        if authority.hasSuffix(":80") { return String(authority.dropLast(3)) }
        if authority.hasSuffix(":443") { return String(authority.dropLast(4)) }
        return authority
    }

    /// The name part of a `Host` value, brackets kept off IPv6; nil when malformed.
    static func hostName(_ value: String) -> String? {
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            return String(value[value.index(after: value.startIndex)..<close])
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let name = parts.first, !name.isEmpty else { return nil }
        if parts.count == 2, !parts[1].allSatisfy(\.isASCIIDigit) { return nil }
        return String(name)
    }

    static func isIPLiteral(_ name: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    private static func withoutTrailingDot(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }

    /// `application/json`, with or without parameters.
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return media.trimmingASCIIWhitespace().lowercased() == "application/json"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
