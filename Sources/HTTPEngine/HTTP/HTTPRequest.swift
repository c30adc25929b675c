/// One parsed HTTP request, as the engine hands it to the router.
///
/// The engine fills the raw fields; request-derived views used by matchers (decoded path,
/// query items, cookies, form fields) are computed by the matching layer.
public struct HTTPRequest: Sendable {
    /// The method exactly as sent (`GET`, `post` stays `post`).
    public var method: String
    /// The raw request-target, e.g. `/api/v1/stories?page=2`.
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// The complete body (chunked bodies are already de-chunked).
    public var body: [UInt8]
    /// Peer address (`127.0.0.1`) and port; empty and 0 for requests built in code.
    public var remoteAddress: String
    public var remotePort: Int

    public init(
        method: String,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = "",
        remotePort: Int = 0
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }

    /// The path part of the target, still percent-encoded.
    public var rawPath: Substring {
        if let mark = target.firstIndex(where: { $0 == "?" || $0 == "#" }) { return target[..<mark] }
        return target[...]
    }

    /// The query string without `?`, or nil when the target has none.
    public var rawQuery: Substring? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        let rest = target[target.index(after: mark)...]
        if let hash = rest.firstIndex(of: "#") { return rest[..<hash] }
        return rest
    }
}
