#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reply kinds that do not go out in one write: faults, deferred (promised) replies and the
/// reply timeout, and cancelling whatever is in flight when the connection closes.
extension HTTPConnection {
    func deliverFault(_ fault: HTTPFault, onSent: (@Sendable (Int, Duration) -> Void)?, started: UInt64) {
        switch fault {
        case .connectionReset: resetOnClose = true
        case .emptyResponse: break
        case .bytesThenClose(let bytes): output.append(bytes)
        }
        onSent?(0, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- started)))
        closeWhenFlushed = true
        lingerOnClose = false
    }

    func awaitDeferred(_ promise: HTTPReplyPromise, _ reply: ReplyContext) {
        awaitingReply = true
        phase = .responding
        inFlight = .deferred(promise, reply)
        replyDeadline = worker.loop.now &+ context.replyTimeout
        let loop = worker.loop
        let resume = UncheckedAction<HTTPReply> { [weak self] fulfilled in self?.deferredFulfilled(promise, fulfilled) }
        promise.whenFulfilled { fulfilled in
            if loop.inLoop { resume.action(fulfilled) } else { loop.execute { resume.action(fulfilled) } }
        }
        updateInterest()
    }

    private func deferredFulfilled(_ promise: HTTPReplyPromise, _ fulfilled: HTTPReply) {
        guard !isClosed, case .deferred(let pending, let reply) = inFlight, pending === promise else { return }
        inFlight = .none
        awaitingReply = false
        replyDeadline = .max
        var next = fulfilled
        if let outer = reply.onSent {
            let inner = fulfilled.onSent
            next.onSent = { status, elapsed in
                inner?(status, elapsed)
                outer(status, elapsed)
            }
        }
        send(next, version: reply.version, framing: reply.framing, started: reply.started)
        resumeAfterReply()
    }

    func replyTimedOut() {
        replyDeadline = .max
        switch inFlight {
        case .deferred(let promise, let reply):
            inFlight = .none
            awaitingReply = false
            promise.cancel()
            let reason = "the reply was not ready within \(context.limits.replyTimeout)\n"
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            deliver(
                HTTPReply(.response(HTTPResponse(status: 504, headers: headers, body: Array(reason.utf8))), onSent: reply.onSent),
                version: reply.version, framing: reply.framing, started: reply.started)
            resumeAfterReply()
        case .stream:
            closeNow() // mid-body: closing is the only way to tell the client it is truncated
        case .upgraded, .none:
            break
        }
    }

    /// The connection closed with a reply still in progress: cancel its work and report it.
    func abandonInFlight() {
        let current = inFlight
        inFlight = .none
        replyDeadline = .max
        switch current {
        case .none:
            break
        case .deferred(let promise, let reply):
            promise.cancel()
            reply.onSent?(0, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- reply.started)))
        case .stream(let state):
            state.body.cancel()
            // The head went out, so the status was sent; the journal still hears of it.
            state.reply.onSent?(state.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- state.reply.started)))
        case .upgraded(let upgraded):
            upgraded.channel.markClosed()
            upgraded.handler.didClose()
        }
    }
}

/// What a connection needs to finish a reply that did not go out in one write.
struct ReplyContext {
    var version: HTTPVersion
    var framing: RequestFraming
    var started: UInt64
    var onSent: (@Sendable (Int, Duration) -> Void)?
}

/// A reply in progress beyond one write.
enum InFlightReply {
    case none
    case deferred(HTTPReplyPromise, ReplyContext)
    case stream(StreamState)
    case upgraded(UpgradeState)
}
