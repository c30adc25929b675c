/// Adds a `cors` policy's `Access-Control-*` headers for one request, as moco does: only when
/// the request has an `Origin`; simple methods (GET, HEAD, POST) get the origin, exposed headers
/// and credentials; `OPTIONS` gets origin, methods, headers and max age unconditionally; other
/// methods get those only when the origin and the method are allowed. Beyond moco (what
/// browsers need): `Vary: Origin` whenever the answer depends on the origin, the request's
/// origin echoed instead of `*` when credentials are allowed, and credentials on preflights.
enum CORSHeaders {
    static let simpleMethods: Set<String> = ["GET", "HEAD", "POST"]

    static func apply(_ policy: CORSPolicy, method: String, headers requestHeaders: HTTPHeaders, to headers: inout HTTPHeaders) {
        guard let origin = requestHeaders["Origin"], !origin.isEmpty else { return }
        let method = method.uppercased()
        if policy.isPermissive {
            headers.add(name: "Access-Control-Allow-Origin", value: "*")
            if !simpleMethods.contains(method) {
                headers.add(name: "Access-Control-Allow-Methods", value: "*")
                headers.add(name: "Access-Control-Allow-Headers", value: "*")
            }
            return
        }
        let originAllowed = policy.allowOrigin.map { $0 == "*" || $0 == origin } ?? true
        if simpleMethods.contains(method) {
            guard originAllowed else { return }
            addOrigin(policy, origin: origin, to: &headers)
            if let expose = policy.exposeHeaders {
                headers.add(name: "Access-Control-Expose-Headers", value: expose.joined(separator: ","))
            }
            addCredentials(policy, to: &headers)
            return
        }
        if method != "OPTIONS" {
            // An entry may list several methods ("GET, PUT"): each counts.
            let methodAllowed = policy.allowMethods.map { list in Self.lists(method, in: list) } ?? true
            guard originAllowed, methodAllowed else { return }
        }
        addOrigin(policy, origin: origin, to: &headers)
        if let methods = policy.allowMethods { headers.add(name: "Access-Control-Allow-Methods", value: methods.joined(separator: ",")) }
        if let allowed = policy.allowHeaders { headers.add(name: "Access-Control-Allow-Headers", value: allowed.joined(separator: ",")) }
        if let maxAge = policy.maxAge { headers.add(name: "Access-Control-Max-Age", value: String(maxAge.components.seconds)) }
        addCredentials(policy, to: &headers)
    }

    /// Whether `method` (upper-case) or `*` is one of the names in `entries`.
    private static func lists(_ method: String, in entries: [String]) -> Bool {
        for entry in entries {
            for name in entry.split(separator: ",") {
                let trimmed: String = String(name).trimmingASCIIWhitespace().uppercased()
                if trimmed == "*" || trimmed == method { return true }
            }
        }
        return false
    }

    private static func addOrigin(_ policy: CORSPolicy, origin: String, to headers: inout HTTPHeaders) {
        guard let allowed = policy.allowOrigin else { return }
        if allowed == "*" && policy.allowCredentials != true {
            headers.add(name: "Access-Control-Allow-Origin", value: "*")
            return
        }
        // A specific origin (or `*` with credentials, which browsers refuse): the answer
        // depends on the request's Origin, so caches must key on it.
        headers.add(name: "Access-Control-Allow-Origin", value: allowed == "*" ? origin : allowed)
        headers.add(name: "Vary", value: "Origin")
    }

    private static func addCredentials(_ policy: CORSPolicy, to headers: inout HTTPHeaders) {
        if let credentials = policy.allowCredentials {
            headers.add(name: "Access-Control-Allow-Credentials", value: credentials ? "true" : "false")
        }
    }
}
