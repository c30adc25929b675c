import Foundation

/// Where an upstream call goes: `http://host:port`, the unit a connection pool is kept for.
struct UpstreamEndpoint: Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: Int
    /// `https`: connections speak TLS (and are pooled apart from plain ones).
    var secure = false

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// One request to an upstream (proxy, events). `target` is the origin-form path and query.
///
/// ```swift
/// let request = try UpstreamRequest(method: "GET", url: "http://127.0.0.1:8080/api/ping?x=1")
/// ```
public struct UpstreamRequest: Sendable {
    public var method: String
    /// `http` or `https`.
    public var scheme: String
    public var host: String
    public var port: Int
    /// `/path?query`.
    public var target: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Overrides the client's read timeout for this call.
    public var readTimeout: Duration?
    /// When set, the body is handed on here as it arrives and the completion gets the head
    /// alone (see `UpstreamBodyStream`).
    package var bodyStream: UpstreamBodyStream?

    public init(
        method: String, scheme: String = "http", host: String, port: Int, target: String, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.scheme = scheme
        self.host = host
        self.port = port
        self.target = target.isEmpty ? "/" : target
        self.headers = headers
        self.body = body
    }

    /// Splits an absolute `http://` or `https://` URL. Throws `UpstreamError.invalidURL`.
    public init(method: String, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(UpstreamError) {
        let parsed = try UpstreamURL(url)
        self.init(
            method: method, scheme: parsed.scheme, host: parsed.host, port: parsed.port, target: parsed.target, headers: headers, body: body
        )
    }

    var endpoint: UpstreamEndpoint { UpstreamEndpoint(host: host, port: port, secure: scheme == "https") }

    /// The `Host` field value: the port is left out when it is the scheme's default.
    var hostField: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return port == defaultPort ? name : "\(name):\(port)"
    }

    /// The absolute URL, as messages show it: `http://127.0.0.1:8080/api/ping?x=1`.
    public var url: String { "\(scheme)://\(hostField)\(target)" }
}

/// An absolute URL split the way the client needs it, without Foundation's URL quirks
/// (a template may render spaces or unusual characters into the path; they are sent as they are
/// only if they are valid in a request-target).
package struct UpstreamURL: Sendable {
    var scheme: String
    var host: String
    var port: Int
    var target: String

    package init(_ text: String) throws(UpstreamError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let schemeEnd = trimmed.range(of: "://") else { throw .invalidURL(text, "expected http://host[:port]/path") }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw .invalidURL(text, "only http and https upstreams are supported") }
        let rest = trimmed[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text, "unclosed [ in the host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw .invalidURL(text, "unexpected text after the host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw .invalidURL(text, "expected a host") }
        var port = scheme == "https" ? 443 : 80
        if let portText, !portText.isEmpty {
            guard let value = Int(portText), (1...65535).contains(value) else { throw .invalidURL(text, "the port must be 1 to 65535") }
            port = value
        }
        var target = String(rest[authorityEnd...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .invalidURL(text, "the path and query must not contain spaces or control characters (percent-encode them)")
        }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.target = target
    }
}

/// An upstream's answer, with hop-by-hop fields already removed and the body de-chunked.
public struct UpstreamResponse: Sendable {
    public var status: Int
    public var reason: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, reason: String = "", version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [])
    {
        self.status = status
        self.reason = reason
        self.version = version
        self.headers = headers
        self.body = body
    }
}

/// Why an upstream call produced no response.
public enum UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURL(String, String)
    /// Name resolution, or a connection that could not be made.
    case unreachable(String)
    /// Nothing accepts connections at the endpoint (`host:port`): the connection was refused.
    case refused(String)
    /// The upstream accepted the connection, then closed or reset it before its response was complete.
    case closed(String)
    case connectTimeout(Duration)
    /// No byte arrived for this long while a response was due.
    case readTimeout(Duration)
    case malformedResponse(String)
    case responseTooLarge(Int)
    /// Too many calls already waiting for a connection to this upstream.
    case overloaded(String)
    case cancelled

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "invalid upstream URL \"\(url)\": \(reason)"
        case .unreachable(let reason): "upstream unreachable: \(reason)"
        case .refused(let endpoint): "upstream unreachable: \(endpoint): Connection refused (nothing is listening there)"
        case .closed(let reason): "upstream closed the connection before answering: \(reason)"
        case .connectTimeout(let limit): "upstream did not accept the connection within \(limit)"
        case .readTimeout(let limit): "upstream sent nothing for \(limit)"
        case .malformedResponse(let reason): "upstream sent a malformed response: \(reason)"
        case .responseTooLarge(let limit): "upstream response larger than \(limit) bytes"
        case .overloaded(let endpoint): "too many calls waiting for \(endpoint)"
        case .cancelled: "cancelled"
        }
    }

    /// The status a proxy answers with when the upstream failed this way.
    package var gatewayStatus: Int {
        switch self {
        case .connectTimeout, .readTimeout: 504
        case .overloaded: 503
        default: 502
        }
    }
}

/// RFC 9110 §7.6.1: fields that describe one connection and are never forwarded, plus every
/// field the `Connection` header names.
enum HopByHop {
    static let fields = ["Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade", "Trailer"]

    static func strip(_ headers: HTTPHeaders) -> HTTPHeaders {
        var listed: [String] = []
        for value in headers.values(for: "Connection") {
            listed += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var result = HTTPHeaders()
        for field in headers {
            if fields.contains(where: { HTTPHeaders.sameName($0, field.name) }) { continue }
            if listed.contains(where: { HTTPHeaders.sameName($0, field.name) }) { continue }
            result.add(name: field.name, value: field.value)
        }
        return result
    }
}
