/// A response as the routing layer describes it. The engine owns framing: it sets
/// `Content-Length` (or none for 1xx/204/304), `Connection`, and drops the body for `HEAD`.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Reason phrase; nil uses the standard phrase for `status` (never empty on the wire,
    /// because libcurl-based URLSession rejects a status line without one).
    public var reason: String?
    /// Protocol version of the status line; nil answers with the request's version (moco).
    public var version: HTTPVersion?
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(
        status: Int = 200,
        reason: String? = nil,
        version: HTTPVersion? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.status = status
        self.reason = reason
        self.version = version
        self.headers = headers
        self.body = body
    }
}
