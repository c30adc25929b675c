/// What a responder hands back to the engine for one request.
///
/// ```swift
/// HTTPReply(.response(HTTPResponse(status: 201)), delay: .milliseconds(300))
/// ```
///
/// Besides a complete response there are three kinds of reply that keep the event loop free:
/// `.deferred` (the answer comes later, from any thread), `.streamed` (headers now, body
/// pieces over time) and `.upgraded` (the connection is handed to another protocol). `delay`
/// is a timer in front of every kind; limits, timeouts and graceful stop apply to all of them.
public struct HTTPReply: Sendable {
    public enum Payload: Sendable {
        /// Serialised on the way out.
        case response(HTTPResponse)
        /// Serialised once, when the stub was compiled (static stubs).
        case prepared(PreparedResponse)
        /// Close the connection without answering (fault injection).
        case close
        /// The reply arrives later: fulfil the promise from any thread. Pipelined requests
        /// behind it wait, so replies still leave in request order. A client that disconnects
        /// first cancels the promise (see `HTTPReplyPromise.onCancel`).
        case deferred(HTTPReplyPromise)
        /// A head now and the body in pieces over time, with back-pressure.
        case streamed(HTTPStreamedResponse)
        /// Hand the connection to another protocol (websocket) after a `101` head.
        case upgraded(HTTPUpgrade)
        /// Break the exchange on purpose (Rehearsal's fault injection).
        case fault(HTTPFault)
    }

    public var payload: Payload
    /// Latency before the reply is written: the engine arms a timer, it never sleeps a thread.
    public var delay: Duration
    /// Called once per reply, on the event loop, as it is handed to the socket (or when the
    /// connection dies first), with the status and the time since the request was complete
    /// (latency included). It runs before the client can have the response, so a journal
    /// written here already holds the exchange when the client's call returns. Status 0 means
    /// the connection was closed without an answer. A deferred reply reports once, with the
    /// status of the reply that fulfilled it; a streamed reply reports when its body ended (or
    /// the connection died mid-stream), an upgraded one when the connection was handed over.
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

    /// The status that will be sent; 0 when not known yet (deferred) or when none is (faults).
    public var status: Int {
        switch payload {
        case .response(let response): response.status
        case .prepared(let prepared): prepared.response.status
        case .close, .deferred, .fault: 0
        case .streamed(let streamed): streamed.head.status
        case .upgraded(let upgrade): upgrade.head.status
        }
    }
}
