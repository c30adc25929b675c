import Foundation

/// The producer's handle on one streamed body (see `HTTPStreamedResponse`). Every method is
/// safe from any thread; the engine applies them on the connection's event loop, in order.
///
/// ```swift
/// HTTPStreamedResponse(head: HTTPResponse()) { stream in
///     stream.index < 3 ? stream.write(Array("piece \(stream.index)\n".utf8)) : stream.finish()
/// }
/// ```
public final class HTTPBodyStream: @unchecked Sendable {
    private let loop: EventLoop
    private weak var connection: HTTPConnection?
    private let lock = NSLock()
    private var demanded = 0
    private var cancelled = false
    private var cancelHandlers: [@Sendable () -> Void] = []

    init(loop: EventLoop, connection: HTTPConnection) {
        self.loop = loop
        self.connection = connection
    }

    /// How many pieces were asked for before the current one: 0 on the first call of
    /// `produce`, 1 on the second, …
    public var index: Int {
        lock.lock(); defer { lock.unlock() }
        return max(demanded - 1, 0)
    }

    /// True once the client went away, the server stopped or the stream timed out.
    public var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }

    /// Sends one piece (a chunk for HTTP/1.1). Empty pieces are skipped (an empty chunk would
    /// end the body). Ignored after `finish` or cancellation.
    public func write(_ bytes: [UInt8]) {
        onLoop { $0.streamDidWrite(bytes, from: self) }
    }

    /// Ends the body. The connection then serves its next request (or closes, for HTTP/1.0
    /// and `closesConnection`).
    public func finish() {
        onLoop { $0.streamDidFinish(from: self) }
    }

    /// Ends the body as broken: what was written goes out, then the connection closes without
    /// the final chunk, so the client sees a truncated body rather than a complete one (the
    /// source failed midway, e.g. a proxied upstream dropped its connection).
    public func abort() {
        onLoop { $0.streamDidAbort(from: self) }
    }

    /// Runs `work` after `delay` on the connection's loop timer (no thread sleeps); skipped if
    /// the stream was cancelled meanwhile.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        guard delay > .zero else {
            if !isCancelled { work() }
            return
        }
        let loop = loop
        let arm: @Sendable () -> Void = { [self] in
            loop.schedule(after: delay) { [self] in if !isCancelled { work() } }
        }
        if loop.inLoop { arm() } else { loop.execute(arm) }
    }

    /// Runs `handler` (on the loop, or at once if already cancelled) when the stream is cut
    /// short: client gone, stop, timeout.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        if cancelled { lock.unlock(); handler(); return }
        cancelHandlers.append(handler)
        lock.unlock()
    }

    // MARK: Engine side

    /// Counts one more demand (called by the engine just before `produce`).
    func noteDemand() {
        lock.lock(); demanded += 1; lock.unlock()
    }

    func cancel() {
        lock.lock()
        guard !cancelled else { lock.unlock(); return }
        cancelled = true
        let handlers = cancelHandlers
        cancelHandlers.removeAll()
        lock.unlock()
        for handler in handlers { handler() }
    }

    /// Drops the producer's callbacks once the stream ended normally.
    func retire() {
        lock.lock(); cancelHandlers.removeAll(); lock.unlock()
    }

    private func onLoop(_ action: @escaping (HTTPConnection) -> Void) {
        loop.withConnection({ [self] in connection }, action)
    }
}

/// Carries a loop-confined closure to the loop thread (it only ever runs there).
package struct UncheckedAction<T>: @unchecked Sendable {
    package let action: (T) -> Void
    package init(_ action: @escaping (T) -> Void) { self.action = action }
}

extension EventLoop {
    /// Runs `action` on this loop with the connection `current` gives there, if it is still
    /// there: at once when called on the loop, else on a later turn (from a producer's or a
    /// handler's thread). The app-facing handles (streams, upgraded channels) reach their
    /// connection only this way.
    func withConnection(_ current: @escaping () -> HTTPConnection?, _ action: @escaping (HTTPConnection) -> Void) {
        if inLoop {
            if let connection = current() { action(connection) }
        } else {
            let box = UncheckedAction<Void> { _ in if let connection = current() { action(connection) } }
            execute { box.action(()) }
        }
    }
}
