import Foundation

/// The dashboard's live feed: server-sent events pushed to every open `/__admin/ui/events`
/// stream as things happen (a request answered, a reload, stubs added, a reset), never polled.
///
/// Bounded: at most `maximumSubscribers` streams, each holding at most `maximumPendingBytes`
/// not yet taken by its client. A client that falls that far behind has its stream ended; its
/// `EventSource` reconnects with `Last-Event-ID` and gets what it missed from the journal.
/// Publishing costs one lock when nobody watches.
///
/// ```swift
/// let feed = DashboardFeed()
/// let stream = feed.subscribe(replaying: { [] })        // an HTTPStreamedResponse to send
/// feed.publish(event: "reload", data: #"{"ok":true}"#)  // written to every subscriber
/// ```
final class DashboardFeed: @unchecked Sendable {
    static let maximumSubscribers = 16
    static let maximumPendingBytes = 1024 * 1024
    /// A comment line this often keeps an idle stream inside the engine's reply timeout and
    /// finds clients that went away.
    static let heartbeat: Duration = .seconds(15)

    private let lock = NSLock()
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]

    var hasSubscribers: Bool {
        lock.lock(); defer { lock.unlock() }
        return !subscribers.isEmpty
    }

    var subscriberCount: Int {
        lock.lock(); defer { lock.unlock() }
        return subscribers.count
    }

    /// One SSE message: `event: NAME`, an optional `id:`, the data on one line (JSON has no
    /// raw newlines), and the blank line that ends it.
    static func message(event: String, id: Int? = nil, data: String) -> [UInt8] {
        var text = "event: \(event)\n"
        if let id { text += "id: \(id)\n" }
        text += "data: \(data)\n\n"
        return Array(text.utf8)
    }

    /// Sends `data` as event `event` to every subscriber.
    func publish(event: String, id: Int? = nil, data: String) {
        lock.lock()
        let current = Array(subscribers.values)
        lock.unlock()
        guard !current.isEmpty else { return }
        let bytes = Self.message(event: event, id: id, data: data)
        for subscriber in current { subscriber.enqueue(bytes) }
    }

    /// Sends an encoded message (`message(event:id:data:)`) to every subscriber.
    func publish(_ bytes: [UInt8]) {
        lock.lock()
        let current = Array(subscribers.values)
        lock.unlock()
        for subscriber in current { subscriber.enqueue(bytes) }
    }

    /// A new stream starting with what `replay` returns (earlier events, already encoded), or
    /// nil when `maximumSubscribers` streams are open. `replay` runs once the stream is
    /// subscribed, so nothing published meanwhile is lost (it may come twice: events carry ids).
    func subscribe(replaying replay: () -> [UInt8]) -> HTTPStreamedResponse? {
        let subscriber = Subscriber()
        lock.lock()
        guard subscribers.count < Self.maximumSubscribers else {
            lock.unlock()
            return nil
        }
        subscribers[ObjectIdentifier(subscriber)] = subscriber
        lock.unlock()
        subscriber.prepend(Array(": stubserver dashboard feed\nretry: 1000\n\n".utf8) + replay())
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        return HTTPStreamedResponse(head: HTTPResponse(status: 200, headers: headers)) { [weak self] stream in
            guard let feed = self else { return stream.finish() }
            if stream.index == 0 {
                stream.onCancel { [weak feed] in feed?.remove(subscriber) }
            }
            if !subscriber.produce(stream) { feed.remove(subscriber) }
        }
    }

    private func remove(_ subscriber: Subscriber) {
        lock.lock()
        subscribers[ObjectIdentifier(subscriber)] = nil
        lock.unlock()
    }

    /// Ends every stream (the server is stopping).
    func closeAll() {
        lock.lock()
        let current = Array(subscribers.values)
        subscribers = [:]
        lock.unlock()
        for subscriber in current { subscriber.close() }
    }

    /// One open stream: bytes waiting for the client, or the stream waiting for bytes.
    private final class Subscriber: @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [UInt8] = []
        /// The stream asked for its next piece and nothing was pending.
        private var waiting: HTTPBodyStream?
        private var ended = false

        /// Puts `bytes` before anything pending (called before the stream is handed out).
        func prepend(_ bytes: [UInt8]) {
            lock.lock()
            pending = bytes + pending
            lock.unlock()
        }

        func enqueue(_ bytes: [UInt8]) {
            lock.lock()
            guard !ended else { return lock.unlock() }
            if let stream = waiting {
                waiting = nil
                lock.unlock()
                stream.write(bytes)
                return
            }
            if pending.count + bytes.count > DashboardFeed.maximumPendingBytes {
                // Too far behind: end the stream once it asks again; the client reconnects and
                // catches up from the journal.
                ended = true
                pending = []
            } else {
                pending += bytes
            }
            lock.unlock()
        }

        /// Answers the engine's ask for the next piece; false once the stream has ended.
        func produce(_ stream: HTTPBodyStream) -> Bool {
            lock.lock()
            if ended {
                lock.unlock()
                stream.finish()
                return false
            }
            if !pending.isEmpty {
                let bytes = pending
                pending = []
                lock.unlock()
                stream.write(bytes)
                return true
            }
            waiting = stream
            lock.unlock()
            let asked = stream.index
            stream.schedule(after: DashboardFeed.heartbeat) { [weak self] in self?.beat(stream, asked: asked) }
            return true
        }

        private func beat(_ stream: HTTPBodyStream, asked: Int) {
            lock.lock()
            guard let waiting, waiting === stream, stream.index == asked else { return lock.unlock() }
            self.waiting = nil
            lock.unlock()
            stream.write(Array(": ping\n\n".utf8))
        }

        func close() {
            lock.lock()
            ended = true
            let stream = waiting
            waiting = nil
            lock.unlock()
            stream?.finish()
        }
    }
}
