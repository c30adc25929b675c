import Foundation

/// A reply that a responder promises and fulfils later, from any thread: a proxy waiting for
/// its upstream, an event that must land first. The event loop stays free meanwhile.
///
/// ```swift
/// struct SlowBackend: HTTPResponder {
///     func respond(to request: HTTPRequest) -> HTTPReply {
///         let promise = HTTPReplyPromise()
///         let work = DispatchWorkItem {
///             promise.fulfill(HTTPResponse(status: 200, body: Array("done".utf8)))
///         }
///         promise.onCancel { work.cancel() }      // the client went away: stop working
///         DispatchQueue.global().asyncAfter(deadline: .now() + 0.2, execute: work)
///         return HTTPReply(.deferred(promise))
///     }
/// }
/// ```
///
/// The first `fulfill` wins; later ones, and any after a cancellation, are ignored. If nobody
/// fulfils it within `HTTPServerLimits.replyTimeout` the engine answers `504` and cancels it.
public final class HTTPReplyPromise: @unchecked Sendable {
    private enum State {
        case pending
        case fulfilled(HTTPReply)
        case delivered
        case cancelled
    }

    private let lock = NSLock()
    private var state = State.pending
    private var consumer: (@Sendable (HTTPReply) -> Void)?
    private var cancelHandlers: [@Sendable () -> Void] = []

    public init() {}

    /// Answers the request with `reply` (any kind, including another deferred or a stream).
    /// Safe from any thread; only the first call counts.
    public func fulfill(_ reply: HTTPReply) {
        lock.lock()
        guard case .pending = state else { lock.unlock(); return }
        if let consumer {
            state = .delivered
            self.consumer = nil
            cancelHandlers.removeAll()
            lock.unlock()
            consumer(reply)
        } else {
            state = .fulfilled(reply)
            lock.unlock()
        }
    }

    /// Answers the request with a complete response.
    public func fulfill(_ response: HTTPResponse) {
        fulfill(HTTPReply(.response(response)))
    }

    /// True once the client disconnected, the reply timed out or the server stopped first.
    public var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        if case .cancelled = state { return true }
        return false
    }

    /// Runs `handler` (on an arbitrary thread) if the promise is cancelled before it is
    /// fulfilled; at once if it already was.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        switch state {
        case .cancelled:
            lock.unlock()
            handler()
        case .pending:
            cancelHandlers.append(handler)
            lock.unlock()
        case .fulfilled, .delivered:
            lock.unlock()
        }
    }

    // MARK: Engine side

    /// The engine takes delivery: `consumer` runs once with the reply, at once if the promise
    /// was already fulfilled, else on the fulfilling thread.
    package func whenFulfilled(_ consumer: @escaping @Sendable (HTTPReply) -> Void) {
        lock.lock()
        switch state {
        case .fulfilled(let reply):
            state = .delivered
            cancelHandlers.removeAll()
            lock.unlock()
            consumer(reply)
        case .pending:
            self.consumer = consumer
            lock.unlock()
        case .delivered, .cancelled:
            lock.unlock()
        }
    }

    /// Gives up on the reply (client gone, timeout, stop). Returns false if it was already
    /// fulfilled or cancelled.
    @discardableResult
    func cancel() -> Bool {
        lock.lock()
        guard case .pending = state else { lock.unlock(); return false }
        state = .cancelled
        consumer = nil
        let handlers = cancelHandlers
        cancelHandlers.removeAll()
        lock.unlock()
        for handler in handlers { handler() }
        return true
    }
}
