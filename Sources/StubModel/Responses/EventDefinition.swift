/// moco's `on.complete`: an HTTP call fired once a session has answered (an analytics beacon,
/// a webhook). Synchronous by default: the call has reached the sink before the client gets its
/// answer.
///
/// ```swift
/// EventDefinition(method: .post, url: "http://127.0.0.1:9000/hook", content: .template("${req.content}"))
/// ```
public struct EventDefinition: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: TextValue
    /// `post` body: text (template allowed) …
    public var content: TextValue?
    /// … or JSON (`application/json`).
    public var json: JSONValue?
    public var headers: [ResponseHeader]
    /// Fire in the background instead of before the answer.
    public var async: Bool
    /// With `async`: wait this long before firing.
    public var latency: Duration?

    public init(
        method: Method, url: TextValue, content: TextValue? = nil, json: JSONValue? = nil, headers: [ResponseHeader] = [],
        async: Bool = false, latency: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.content = content
        self.json = json
        self.headers = headers
        self.async = async
        self.latency = latency
    }
}
