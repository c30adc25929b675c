/// moco's `"sse"`: server-sent events, sent one by one, then the connection closes.
///
/// ```swift
/// let ticks = ResponseDefinition(sse: ServerSentEvents(events: [
///     SSEEvent(event: "tick", data: ["1"], id: "1", delay: .milliseconds(500)),
///     SSEEvent(data: ["done"]),
/// ]))
/// let fromFile = ResponseDefinition(sse: ServerSentEvents(file: "events.sse", delay: .seconds(1)))
/// ```
public struct ServerSentEvents: Sendable, Hashable {
    /// Events written in the configuration (empty when they come from `file`).
    public var events: [SSEEvent]
    /// A file of blank-line-separated blocks (`id:`, `event:`, `data:` (repeatable), `retry:`,
    /// `delay:` in milliseconds), read per request.
    public var file: TextValue?
    /// The wait after each event that does not name its own.
    public var delay: Duration?

    public init(events: [SSEEvent] = [], file: TextValue? = nil, delay: Duration? = nil) {
        self.events = events
        self.file = file
        self.delay = delay
    }
}

/// One server-sent event, written as `id: …\nevent: …\nretry: …\ndata: …\n\n` (moco's order).
public struct SSEEvent: Sendable, Hashable {
    public var event: String?
    /// One `data:` line each.
    public var data: [String]
    public var id: String?
    /// The client's reconnection time, in milliseconds.
    public var retry: Int?
    /// The wait after this event before the next (or before closing).
    public var delay: Duration?

    public init(event: String? = nil, data: [String], id: String? = nil, retry: Int? = nil, delay: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.delay = delay
    }

    /// The event's bytes on the wire.
    public var wireText: String {
        var text = ""
        if let id { text += "id: \(id)\n" }
        if let event { text += "event: \(event)\n" }
        if let retry { text += "retry: \(retry)\n" }
        for line in data { text += "data: \(line)\n" }
        return text + "\n"
    }
}

/// Rehearsal's `"fault"` response key (beyond moco; WireMock has the same faults).
public enum ResponseFault: String, Sendable, Hashable, CaseIterable {
    /// A TCP reset instead of an answer.
    case connectionReset = "connection_reset"
    /// The connection closes without a byte.
    case emptyResponse = "empty_response"
    /// `200 OK` with a chunked head, then a chunk that is not one, then close.
    case malformedResponse = "malformed_response"
    /// Random bytes, then close.
    case randomDataThenClose = "random_data_then_close"
}

/// Rehearsal's `"dribble"` response key: the body in pieces over time, for progress bars,
/// timeouts and slow networks. Either a number of chunks spread over a duration, or a rate.
///
/// ```swift
/// ResponseDefinition.file("big.json").dribble(.chunks(10, over: .seconds(2)))
/// ResponseDefinition.file("big.json").dribble(.bytesPerSecond(4096))
/// ```
public enum Dribble: Sendable, Hashable {
    /// `{"chunks": 10, "duration": 2000}`: the body in `count` near-equal pieces, evenly spaced
    /// so the last one leaves at `duration`.
    case chunks(Int, over: Duration)
    /// `{"bytes_per_second": 4096}`: a tenth of the rate every 100 ms.
    case bytesPerSecond(Int)
}

/// moco's `"websocket"` session: one endpoint per server.
///
/// ```swift
/// let chat = WebSocketEndpoint(uri: "/ws", connected: "hello", sessions: [
///     .init(request: "ping", response: .init(text: "pong")),
///     .init(request: "join", response: .init(text: "joined", group: "room")),
///     .init(request: "shout", response: .init(broadcast: .init(text: "hi all", group: "room"))),
/// ])
/// StubDefinition.websocket(chat)
/// ```
public struct WebSocketEndpoint: Sendable, Hashable {
    public var uri: String
    /// Sent to each client as it connects.
    public var connected: MessageContent?
    /// A ping frame carrying `ping` is answered with a pong carrying `pong` (other pings get
    /// their payload back, as RFC 6455 asks).
    public var pingPongs: [PingPong]
    /// Messages matched by their exact bytes (text or binary frames), first match wins.
    public var sessions: [Session]

    public init(uri: String, connected: MessageContent? = nil, pingPongs: [PingPong] = [], sessions: [Session] = []) {
        self.uri = uri
        self.connected = connected
        self.pingPongs = pingPongs
        self.sessions = sessions
    }

    public struct PingPong: Sendable, Hashable {
        public var ping: String
        public var pong: String
        public init(ping: String, pong: String) {
            self.ping = ping
            self.pong = pong
        }
    }

    public struct Session: Sendable, Hashable {
        /// The message to answer: written out, or the content of a file (moco's
        /// `"request": {"file": …}`), compared byte for byte.
        public var request: MessageContent
        public var response: Reply
        public init(request: MessageContent, response: Reply) {
            self.request = request
            self.response = response
        }
    }

    /// What a matched message causes, in moco's order: the broadcast goes out first (to the
    /// sender too, when it is in the audience), then the sender joins `group`, then the reply
    /// goes to the sender.
    public struct Reply: Sendable, Hashable {
        public var content: MessageContent?
        /// The sender joins this group (for broadcasts to it).
        public var group: String?
        public var broadcast: Broadcast?

        public init(text: String? = nil, file: String? = nil, group: String? = nil, broadcast: Broadcast? = nil) {
            self.content = text.map(MessageContent.text) ?? file.map(MessageContent.file)
            self.group = group
            self.broadcast = broadcast
        }
    }

    /// A message to every connected client, or to one group.
    public struct Broadcast: Sendable, Hashable {
        public var content: MessageContent
        public var group: String?
        public init(text: String, group: String? = nil) {
            self.content = .text(text)
            self.group = group
        }
        public init(content: MessageContent, group: String? = nil) {
            self.content = content
            self.group = group
        }
    }

    /// A message's text, written out or read from a file (per message, under the file root).
    /// Text goes out in a text frame; a file's content in a binary frame, as moco sends it.
    public enum MessageContent: Sendable, Hashable, ExpressibleByStringLiteral {
        case text(String)
        case file(String)

        public init(stringLiteral value: String) { self = .text(value) }
    }
}
