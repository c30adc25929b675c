/// The boundary between the HTTP engine and what answers requests.
public protocol HTTPResponder: Sendable {
    /// Called on an event-loop thread once a request is complete. Must not block:
    /// latency is expressed with `HTTPReply.delay`.
    func respond(to request: HTTPRequest) -> HTTPReply
}
