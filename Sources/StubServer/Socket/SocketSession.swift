import Foundation

/// One exchange of a socket server: the bytes received, the stub that answered (nil when none
/// did, and then nothing is sent, as in moco) and the bytes sent.
public struct SocketExchange: Sendable {
    public var received: [UInt8]
    public var sent: [UInt8]?
    public var stub: StubReference?
    /// When nothing matched: the closest stub and what it failed.
    public var nearMiss: StubNearMiss?
    /// Why nothing was sent although a stub matched (a response kind a socket cannot carry).
    public var problem: String?
    public var remoteAddress: String
    public var remotePort: Int
}

/// One client connection of a socket server. Like moco, every burst of bytes read (what
/// arrived together, up to the engine's read size) is one request, matched against the
/// sessions as a request body; the answer's body is written back. Bursts that arrive while a
/// `latency` is pending wait their turn, so answers leave in order.
final class SocketSession: HTTPUpgradeHandler {
    /// Bytes waiting behind a pending answer, at most; a client past it is disconnected.
    static let maxQueuedBytes = 1024 * 1024

    private let routes: RouteTable
    private let logger: (@Sendable (SocketExchange) -> Void)?
    private var channel: HTTPUpgradedChannel?
    private var answering = false
    private var queued: [[UInt8]] = []
    private var queuedBytes = 0

    init(routes: RouteTable, logger: (@Sendable (SocketExchange) -> Void)?) {
        self.routes = routes
        self.logger = logger
    }

    func didStart(_ channel: HTTPUpgradedChannel) { self.channel = channel }

    func didReceive(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, channel != nil else { return }
        if answering {
            queuedBytes += bytes.count
            guard queuedBytes <= Self.maxQueuedBytes else { channel?.close(); return }
            queued.append(bytes)
            return
        }
        answer(bytes)
    }

    func didClose() {
        channel = nil
        queued = []
    }

    func serverWillStop() { channel?.close() }

    private func answer(_ bytes: [UInt8]) {
        guard let channel else { return }
        let request = HTTPRequest(
            method: "POST", target: "/", body: bytes, remoteAddress: channel.remoteAddress, remotePort: channel.remotePort)
        let result = routes.routing.route(request)
        var exchange = SocketExchange(
            received: bytes, sent: nil, stub: result.stub, nearMiss: result.stub == nil ? result.nearMiss : nil,
            problem: nil, remoteAddress: channel.remoteAddress, remotePort: channel.remotePort)
        var body: [UInt8]?
        if result.stub != nil {
            switch result.reply.payload {
            case .response(let response): body = response.body
            case .prepared(let prepared): body = prepared.response.body
            case .streamed:
                exchange.problem = "a response file of \(StreamedFileBody.threshold / 1024) KiB or more is not sent on a socket"
            default:
                exchange.problem = "this response kind is not available on a socket server"
            }
        }
        exchange.sent = body
        let delay = result.reply.delay
        guard let body, delay > .zero else {
            if let body { channel.send(body) }
            logger?(exchange)
            return
        }
        answering = true
        // The channel runs the timer on this connection's loop, where the session lives.
        let session = LoopBound(self)
        let sent = exchange
        channel.schedule(after: delay) { session.value?.sendDelayed(body, sent) }
    }

    private func sendDelayed(_ body: [UInt8], _ exchange: SocketExchange) {
        answering = false
        channel?.send(body)
        logger?(exchange)
        while !answering, channel != nil, !queued.isEmpty {
            let next = queued.removeFirst()
            queuedBytes -= next.count
            answer(next)
        }
    }
}

/// A weak reference handed through `schedule`, whose closure runs on the same loop thread.
private final class LoopBound: @unchecked Sendable {
    weak var value: SocketSession?
    init(_ value: SocketSession) { self.value = value }
}
