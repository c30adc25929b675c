/// moco's response `cors`: `true` (allow everything) or the configured parts. Headers are
/// added only when the request carries an `Origin`.
///
/// ```swift
/// let open = CORSPolicy()                                    // "cors": true
/// let app = CORSPolicy(allowOrigin: "https://app.example", allowMethods: ["GET", "PUT"],
///                      allowHeaders: ["X-Token"], maxAge: .seconds(600), allowCredentials: true)
/// ```
public struct CORSPolicy: Sendable, Hashable {
    public var allowOrigin: String?
    public var allowMethods: [String]?
    public var allowHeaders: [String]?
    /// Sent as whole seconds.
    public var maxAge: Duration?
    public var exposeHeaders: [String]?
    public var allowCredentials: Bool?

    public init(
        allowOrigin: String? = nil, allowMethods: [String]? = nil, allowHeaders: [String]? = nil, maxAge: Duration? = nil,
        exposeHeaders: [String]? = nil, allowCredentials: Bool? = nil
    ) {
        self.allowOrigin = allowOrigin
        self.allowMethods = allowMethods
        self.allowHeaders = allowHeaders
        self.maxAge = maxAge
        self.exposeHeaders = exposeHeaders
        self.allowCredentials = allowCredentials
    }

    /// `"cors": true`: nothing configured.
    public var isPermissive: Bool {
        allowOrigin == nil && allowMethods == nil && allowHeaders == nil && maxAge == nil && exposeHeaders == nil && allowCredentials == nil
    }
}
