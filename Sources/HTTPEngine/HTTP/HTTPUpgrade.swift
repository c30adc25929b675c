import Foundation

/// Hands a connection to another protocol: the engine sends `head` (normally `101 Switching
/// Protocols` with `Upgrade`), adds `Connection: Upgrade`, and from then on every byte read is
/// given to the handler `makeHandler` builds, which writes through its `HTTPUpgradedChannel`.
///
/// ```swift
/// final class Echo: HTTPUpgradeHandler {
///     var channel: HTTPUpgradedChannel?
///     func didStart(_ channel: HTTPUpgradedChannel) { self.channel = channel }
///     func didReceive(_ bytes: [UInt8]) { channel?.send(bytes) }
///     func didClose() { channel = nil }
/// }
/// let head = HTTPResponse(status: 101, headers: ["Upgrade": "echo"])
/// HTTPReply(.upgraded(HTTPUpgrade(head: head) { Echo() }))
/// ```
///
/// Reading pauses while more than `HTTPServerLimits.outputHighWaterMark` bytes wait to be sent;
/// the connection is closed after `HTTPServerLimits.upgradedIdleTimeout` without traffic, and a
/// graceful stop calls `serverWillStop()` before closing it at `stopTimeout`.
public struct HTTPUpgrade: Sendable {
    public var head: HTTPResponse
    /// Builds the handler for one connection; it then lives on that connection's event loop.
    public var makeHandler: @Sendable () -> any HTTPUpgradeHandler

    public init(head: HTTPResponse, makeHandler: @escaping @Sendable () -> any HTTPUpgradeHandler) {
        self.head = head
        self.makeHandler = makeHandler
    }
}

/// Speaks the upgraded protocol on one connection. Every method is called on the connection's
/// event loop, so a handler needs no locks for its own state; it must not block.
public protocol HTTPUpgradeHandler: AnyObject {
    /// The head has been queued; `channel` is how the handler writes and closes.
    func didStart(_ channel: HTTPUpgradedChannel)
    /// Bytes from the client, in order (bytes that arrived with the request come first).
    func didReceive(_ bytes: [UInt8])
    /// The connection is gone (either side, or a timeout); the channel no longer sends.
    func didClose()
    /// The server is stopping: say goodbye (a websocket close frame) and close the channel.
    func serverWillStop()
}

extension HTTPUpgradeHandler {
    public func serverWillStop() {}
}

/// The upgraded connection as its handler sees it. `send`, `close` and `schedule` are safe from
/// any thread (a broadcast from another connection's loop, say); the engine runs them on the
/// connection's loop in order.
public final class HTTPUpgradedChannel: @unchecked Sendable {
    private let loop: EventLoop
    private weak var connection: HTTPConnection?
    private let lock = NSLock()
    private var closed = false

    /// The client's address, for logs.
    public let remoteAddress: String
    public let remotePort: Int

    init(loop: EventLoop, connection: HTTPConnection, remoteAddress: String, remotePort: Int) {
        self.loop = loop
        self.connection = connection
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }

    /// True once the connection closed (or `close` was called).
    public var isClosed: Bool {
        lock.lock(); defer { lock.unlock() }
        return closed
    }

    /// Queues bytes for the client. Ignored once closed.
    public func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        onLoop { $0.upgradedSend(bytes) }
    }

    /// Queues the same bytes for many channels (a broadcast) with one task per event loop
    /// rather than one per channel, so a burst of broadcasts does not flood the loops' queues.
    /// A channel whose client has stopped reading is closed once
    /// `HTTPServerLimits.outputHighWaterMark` bytes wait for it, so a silent member costs
    /// bounded memory and no time.
    ///
    /// ```swift
    /// HTTPUpgradedChannel.send(Array("hello, room".utf8), to: members)
    /// ```
    public static func send(_ bytes: [UInt8], to channels: [HTTPUpgradedChannel]) {
        guard !bytes.isEmpty else { return }
        var byLoop: [ObjectIdentifier: (loop: EventLoop, members: [HTTPUpgradedChannel])] = [:]
        for channel in channels {
            if channel.loop.inLoop {
                channel.connection?.upgradedSend(bytes)
            } else {
                byLoop[ObjectIdentifier(channel.loop), default: (channel.loop, [])].members.append(channel)
            }
        }
        for (loop, members) in byLoop.values {
            loop.execute { for member in members { member.connection?.upgradedSend(bytes) } }
        }
    }

    /// Closes the connection once everything queued has been sent.
    public func close() {
        markClosed()
        onLoop { $0.upgradedClose() }
    }

    /// Runs `work` on the connection's loop after `delay` (a timer, no thread sleeps); skipped
    /// once the channel is closed.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let loop = loop
        let arm: @Sendable () -> Void = { [self] in
            loop.schedule(after: delay) { [self] in if !isClosed { work() } }
        }
        if loop.inLoop { arm() } else { loop.execute(arm) }
    }

    /// Bytes queued and not yet taken by the socket (0 when closed or off the loop's thread).
    public var pendingOutputBytes: Int {
        guard loop.inLoop, let connection else { return 0 }
        return connection.pendingOutputBytes
    }

    func markClosed() {
        lock.lock(); closed = true; lock.unlock()
    }

    private func onLoop(_ action: @escaping (HTTPConnection) -> Void) {
        loop.withConnection({ [self] in connection }, action)
    }
}
