#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streamed replies: the head, then pieces as the producer writes them (chunked, sized or
/// close-delimited), asked for only as the output drains.
extension HTTPConnection {
    func startStream(_ streamed: HTTPStreamedResponse, _ reply: ReplyContext) {
        let head = streamed.head
        let version = head.version ?? reply.version
        let length = streamed.contentLength.map { max($0, 0) }
        let chunked = length == nil && (version.major > 1 || (version.major == 1 && version.minor >= 1))
        let forbidsBody = HTTPStatus.forbidsBody(head.status)
        let noBody = reply.framing.isHead || forbidsBody
        appendVersion(version)
        let closes = HTTPResponseSerializer.appendStatusAndHeaders(of: head, contentLength: false) { output.append($0) }
        // A close-delimited body (HTTP/1.0) ends the connection; so does a stream that asks to.
        let keepAlive =
            reply.framing.keepAlive && !stopping && !worker.stopping && !closes
            && !streamed.closesConnection && (chunked || noBody || length != nil)
        if chunked && !forbidsBody { output.append("Transfer-Encoding: chunked\r\n") }
        if let length, !forbidsBody {
            output.append("Content-Length: ")
            output.append(decimal: length)
            output.append("\r\n")
        }
        appendConnection(keepAlive: keepAlive, version: version)
        guard !noBody else {
            finishReply(status: head.status, keepAlive: keepAlive, onSent: reply.onSent, started: reply.started)
            return
        }
        let state = StreamState(
            body: HTTPBodyStream(loop: worker.loop, connection: self), produce: streamed.produce,
            chunked: chunked, keepAlive: keepAlive, status: head.status, reply: reply
        )
        state.remaining = length
        inFlight = .stream(state)
        awaitingReply = true
        phase = .responding
        if !head.body.isEmpty { appendPiece(head.body, to: state) }
        pumpStream()
    }

    /// Asks the producer for the next piece when the previous ones have drained. Re-entrant
    /// calls (a producer that writes at once) loop here instead of recursing.
    func pumpStream() {
        guard case .stream(let state) = inFlight, !isClosed, !state.demandOutstanding,
            output.readableCount < Self.streamLowWaterMark
        else { return }
        if state.pumping { state.pumpAgain = true; return }
        state.pumping = true
        defer { state.pumping = false }
        repeat {
            state.pumpAgain = false
            state.demandOutstanding = true
            replyDeadline = worker.loop.now &+ context.replyTimeout
            state.body.noteDemand()
            state.produce(state.body)
        } while state.pumpAgain && !isClosed && isCurrent(state) && !state.demandOutstanding
            && output.readableCount < Self.streamLowWaterMark
    }

    private func isCurrent(_ state: StreamState) -> Bool {
        if case .stream(let current) = inFlight { return current === state }
        return false
    }

    private func appendPiece(_ bytes: [UInt8], to state: StreamState) {
        guard !bytes.isEmpty else { return }
        if let remaining = state.remaining {
            // More than the announced length cannot be framed: send what fits, then close.
            output.append(Array(bytes.prefix(remaining)))
            state.remaining = remaining - min(remaining, bytes.count)
            if bytes.count > remaining { state.overran = true }
        } else if state.chunked {
            output.append(String(bytes.count, radix: 16))
            output.append("\r\n")
            output.append(bytes)
            output.append("\r\n")
        } else {
            output.append(bytes)
        }
    }

    func streamDidWrite(_ bytes: [UInt8], from body: HTTPBodyStream) {
        guard !isClosed, case .stream(let state) = inFlight, state.body === body else { return }
        state.demandOutstanding = false
        replyDeadline = .max
        appendPiece(bytes, to: state)
        if state.overran {
            closeWhenFlushed = true
            lingerOnClose = false
            inFlight = .none
            awaitingReply = false
            body.cancel()
            state.reply.onSent?(state.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- state.reply.started)))
        }
        flush()
    }

    func streamDidAbort(from body: HTTPBodyStream) {
        guard !isClosed, case .stream(let state) = inFlight, state.body === body else { return }
        closeWhenFlushed = true
        lingerOnClose = false
        inFlight = .none
        awaitingReply = false
        replyDeadline = .max
        body.cancel()
        state.reply.onSent?(state.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- state.reply.started)))
        flush()
    }

    func streamDidFinish(from body: HTTPBodyStream) {
        guard !isClosed, case .stream(let state) = inFlight, state.body === body else { return }
        inFlight = .none
        awaitingReply = false
        replyDeadline = .max
        if state.chunked { output.append("0\r\n\r\n") }
        body.retire()
        // A body shorter than its Content-Length can only be reported by closing.
        let keepAlive = state.keepAlive && !stopping && !worker.stopping && (state.remaining ?? 0) == 0
        finishReply(status: state.status, keepAlive: keepAlive, onSent: state.reply.onSent, started: state.reply.started)
        flush()
        resumeAfterReply()
    }
}

/// A streamed body in progress: framing, and whether a piece has been asked for.
final class StreamState {
    let body: HTTPBodyStream
    let produce: @Sendable (HTTPBodyStream) -> Void
    let chunked: Bool
    let keepAlive: Bool
    let status: Int
    let reply: ReplyContext
    /// Bytes still owed for a `Content-Length` body; nil for chunked or close-delimited ones.
    var remaining: Int?
    var overran = false
    var demandOutstanding = false
    var pumping = false
    var pumpAgain = false

    init(
        body: HTTPBodyStream, produce: @escaping @Sendable (HTTPBodyStream) -> Void, chunked: Bool, keepAlive: Bool, status: Int,
        reply: ReplyContext
    ) {
        self.body = body
        self.produce = produce
        self.chunked = chunked
        self.keepAlive = keepAlive
        self.status = status
        self.reply = reply
    }
}
