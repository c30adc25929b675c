/// A response whose body is sent in pieces over time: server-sent events, a dribbled body.
/// HTTP/1.1 clients get `Transfer-Encoding: chunked` (one chunk per piece); HTTP/1.0 clients get
/// a close-delimited body. The engine owns framing: `Content-Length`, `Transfer-Encoding` and
/// `Connection` in `head` are replaced.
///
/// Back-pressure: the engine calls `produce` for the next piece only once the previous ones
/// have drained to the socket, so a client that stops reading never grows memory. Answer each
/// call with one `write` (or `finish`), now or later, from any thread:
///
/// ```swift
/// // A ticker: one line a second, five times, then the end of the body.
/// let ticker = HTTPStreamedResponse(head: HTTPResponse(headers: ["Content-Type": "text/plain"])) { stream in
///     guard stream.index < 5 else { return stream.finish() }
///     stream.schedule(after: stream.index == 0 ? .zero : .seconds(1)) {
///         stream.write(Array("tick \(stream.index)\n".utf8))
///     }
/// }
/// HTTPReply(.streamed(ticker))
///
/// // The same with fixed pieces and pauses.
/// HTTPReply(.streamed(HTTPStreamedResponse(head: HTTPResponse(), pieces: [
///     .init(Array("a".utf8), pauseAfter: .milliseconds(100)), .init(Array("b".utf8)),
/// ])))
/// ```
///
/// A producer silent for longer than `HTTPServerLimits.replyTimeout` ends the stream (the
/// connection is closed, so the client sees a truncated body).
public struct HTTPStreamedResponse: Sendable {
    /// Status, version and headers; a non-empty body is sent as the first piece.
    public var head: HTTPResponse
    /// Close the connection after the last piece instead of keeping it alive.
    public var closesConnection: Bool
    /// When the total is known: sent as `Content-Length` and the pieces go out unframed (also
    /// to HTTP/1.0 clients, keeping the connection). Pieces must add up to it exactly; the
    /// engine closes the connection on a mismatch, so the client sees a truncated body.
    public var contentLength: Int?
    /// Asked for the next piece each time the connection is ready for one.
    public var produce: @Sendable (HTTPBodyStream) -> Void

    public init(
        head: HTTPResponse, closesConnection: Bool = false, contentLength: Int? = nil,
        produce: @escaping @Sendable (HTTPBodyStream) -> Void
    ) {
        self.head = head
        self.closesConnection = closesConnection
        self.contentLength = contentLength
        self.produce = produce
    }

    /// Fixed pieces, each followed by its pause (timers on the connection's loop).
    public init(head: HTTPResponse, pieces: [Piece], closesConnection: Bool = false, contentLength: Int? = nil) {
        self.init(head: head, closesConnection: closesConnection, contentLength: contentLength) { stream in
            let index = stream.index
            let pause = index > 0 ? pieces[index - 1].pauseAfter : .zero
            stream.schedule(after: pause) {
                if index < pieces.count { stream.write(pieces[index].bytes) } else { stream.finish() }
            }
        }
    }

    /// One piece of a body and the pause after it.
    public struct Piece: Sendable, Equatable {
        public var bytes: [UInt8]
        public var pauseAfter: Duration

        public init(_ bytes: [UInt8], pauseAfter: Duration = .zero) {
            self.bytes = bytes
            self.pauseAfter = pauseAfter
        }
    }
}
