import Foundation

/// An upstream response body handed on as it arrives instead of collected whole: a proxied
/// `text/event-stream` passes each event through when the upstream sends it, and a large
/// download costs a bounded buffer, not its size.
///
/// Set it on an `UpstreamRequest` (`request.bodyStream = stream`); the call's completion then
/// gets the response head (status and headers, an empty body) as soon as it is parsed, and the
/// body follows here. The consumer pulls with `next`; while more than `highWaterMark` bytes
/// wait, the connection stops reading from the upstream (TCP pushes back), and reads again
/// once the consumer has taken them.
///
/// ```swift
/// let body = UpstreamBodyStream()
/// var request = try UpstreamRequest(method: "GET", url: "http://127.0.0.1:8080/events")
/// request.bodyStream = body
/// client.send(request) { head in
///     body.next { event in print(event) }   // .bytes(…), then .end (or .failed)
/// }
/// ```
package final class UpstreamBodyStream: @unchecked Sendable {
    package enum Event: Sendable, Equatable {
        /// Everything that arrived since the last `next` (never empty).
        case bytes([UInt8])
        case end
        case failed(String)
    }

    /// Bytes waiting for the consumer before the upstream connection stops reading.
    package static let highWaterMark = 256 * 1024
    /// Answers announcing at most this much are collected whole instead of relayed.
    package static let relayThreshold = 1024 * 1024

    /// Whether a response's body is relayed, decided from its head: an event stream always,
    /// another body when it announces more than `relayThreshold` bytes. Smaller answers (and
    /// chunked ones of unknown size) are collected as a whole, as before.
    package static func relays(_ head: UpstreamResponse) -> Bool {
        if (100..<200).contains(head.status) || head.status == 204 || head.status == 304 { return false }
        if head.headers["Content-Type"]?.lowercased().contains("text/event-stream") == true { return true }
        if head.headers.values(for: "Transfer-Encoding").contains(where: { $0.lowercased().contains("chunked") }) { return false }
        guard let length = head.headers["Content-Length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { return false }
        return length > relayThreshold
    }

    private let lock = NSLock()
    private var pieces: [[UInt8]] = []
    private var buffered = 0
    private var ended = false
    private var failure: String?
    private var cancelled = false
    private var paused = false
    private var waiter: (@Sendable (Event) -> Void)?
    /// The connection reading the body, until it ends (only used on `loop`).
    private var connection = WeakConnection()
    private var loop: EventLoop?

    package init() {}

    /// True once a connection delivers into this stream (the body then comes here; an
    /// upstream call that does not stream — Foundation's on Apple platforms — never attaches).
    package var isAttached: Bool {
        lock.lock(); defer { lock.unlock() }
        return loop != nil
    }

    /// Bytes received and not yet taken by the consumer (at most `highWaterMark` plus one read).
    package var bufferedByteCount: Int {
        lock.lock(); defer { lock.unlock() }
        return buffered
    }

    // MARK: Connection side (the upstream client's loop)

    func attach(_ connection: UpstreamConnection, loop: EventLoop) {
        lock.lock()
        self.connection = WeakConnection(value: connection)
        self.loop = loop
        lock.unlock()
    }

    /// More body; pauses the connection when the consumer is behind.
    func push(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        lock.lock()
        if cancelled { lock.unlock(); return }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter(.bytes(bytes))
            return
        }
        pieces.append(bytes)
        buffered += bytes.count
        let pause = buffered > Self.highWaterMark && !paused
        if pause { paused = true }
        let connection = self.connection
        lock.unlock()
        if pause { connection.value?.pauseReading() }
    }

    func end() { settle(.end) }

    func fail(_ reason: String) { settle(.failed(reason)) }

    private func settle(_ event: Event) {
        lock.lock()
        guard !ended && failure == nil else { lock.unlock(); return }
        if case .failed(let reason) = event { failure = reason } else { ended = true }
        connection = WeakConnection()
        let waiter = self.waiter
        self.waiter = nil
        let deliver = waiter != nil && pieces.isEmpty
        lock.unlock()
        if deliver { waiter?(event) }
    }

    // MARK: Consumer side (any thread)

    /// Calls `deliver` once: now with what is waiting (or the end), or when something arrives.
    package func next(_ deliver: @escaping @Sendable (Event) -> Void) {
        lock.lock()
        if !pieces.isEmpty {
            let bytes = pieces.count == 1 ? pieces[0] : Array(pieces.joined())
            pieces = []
            buffered = 0
            let resume = paused
            paused = false
            let connection = self.connection
            let loop = self.loop
            lock.unlock()
            if resume, let loop { loop.execute { [self] in connection.value?.resumeReading(self) } }
            deliver(.bytes(bytes))
            return
        }
        if let failure { lock.unlock(); deliver(.failed(failure)); return }
        if ended { lock.unlock(); deliver(.end); return }
        waiter = deliver
        lock.unlock()
    }

    /// The consumer went away: the connection is closed (a half-read body cannot be reused).
    package func cancel() {
        lock.lock()
        cancelled = true
        pieces = []
        buffered = 0
        waiter = nil
        let finished = ended || failure != nil
        let connection = self.connection
        let loop = self.loop
        self.connection = WeakConnection()
        lock.unlock()
        guard !finished, let loop else { return }
        loop.execute { [self] in connection.value?.abandonStream(self) }
    }
}

/// The connection, weakly, carried to its own loop (it is only ever touched there).
private struct WeakConnection: @unchecked Sendable {
    weak var value: UpstreamConnection?
}
