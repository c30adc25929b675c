/// What a responder hands back to the engine for one request.
///
/// ```swift
/// HTTPReply(.response(HTTPResponse(status: 201)), delay: .milliseconds(300))
/// ```
public struct HTTPReply: Sendable {
    public enum Payload: Sendable {
        /// Serialised on the way out.
        case response(HTTPResponse)
        /// Serialised once, when the stub was compiled (static stubs).
        case prepared(PreparedResponse)
        /// Close the connection without answering (fault injection).
        case close
    }

    public var payload: Payload
    /// Latency before the reply is written: the engine arms a timer, it never sleeps a thread.
    public var delay: Duration
    /// Called once per reply, on the event loop, as it is handed to the socket (or when the
    /// connection dies first), with the status and the time since the request was complete
    /// (latency included). It runs before the client can have the response, so a journal
    /// written here already holds the exchange when the client's call returns. Status 0 means
    /// the connection was closed without an answer.
    public var onSent: (@Sendable (_ status: Int, _ elapsed: Duration) -> Void)?

    public init(
        _ payload: Payload,
        delay: Duration = .zero,
        onSent: (@Sendable (_ status: Int, _ elapsed: Duration) -> Void)? = nil
    ) {
        self.payload = payload
        self.delay = delay
        self.onSent = onSent
    }

    public var status: Int {
        switch payload {
        case .response(let response): response.status
        case .prepared(let prepared): prepared.response.status
        case .close: 0
        }
    }
}
