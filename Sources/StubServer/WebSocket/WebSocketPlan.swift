import Foundation

/// A compiled `websocket` endpoint: checks the RFC 6455 handshake and hands accepted
/// connections to a `WebSocketSession` that answers by moco's rules. One hub per endpoint
/// keeps who is connected and in which groups, for broadcasts.
struct WebSocketPlan: Sendable {
    /// Largest message (after reassembling fragments) a client may send; bigger closes with 1009.
    static let maxMessageBytes = 1024 * 1024
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    let endpoint: WebSocketEndpoint
    let root: String
    let fallback: String?
    let hub: WebSocketHub

    init(_ endpoint: WebSocketEndpoint, root: String, fallback: String?, path: String, problems: inout [StubCompileProblem]) {
        self.endpoint = endpoint
        self.root = root
        self.fallback = fallback
        hub = WebSocketHub()
        if !endpoint.uri.hasPrefix("/") {
            problems.append(
                StubCompileProblem(path: ".websocket.uri", message: "expected a path starting with /, got \(quoted(endpoint.uri))"))
        }
        for (index, pingPong) in endpoint.pingPongs.enumerated() where pingPong.ping.utf8.count > 125 || pingPong.pong.utf8.count > 125 {
            problems.append(
                StubCompileProblem(path: ".websocket.pingpongs[\(index)]", message: "ping and pong payloads are at most 125 bytes"))
        }
    }

    /// The `Sec-WebSocket-Accept` value for a client's key.
    static func acceptValue(for key: String) -> String {
        Data(SHA1.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    func reply(to request: HTTPRequest, draft: ResponseDraft) -> HTTPReply {
        func refuse(_ status: Int, _ why: String, extra: [(String, String)] = []) -> HTTPReply {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: ContentTypes.text)
            for (name, value) in extra { headers.add(name: name, value: value) }
            return HTTPReply(
                .response(
                    HTTPResponse(status: status, headers: headers, body: Array("\(endpoint.uri) is a websocket endpoint: \(why)\n".utf8))))
        }
        let headers = request.headers
        func hasToken(_ name: String, _ token: String) -> Bool {
            headers.values(for: name).contains { value in
                value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == token }
            }
        }
        guard hasToken("Upgrade", "websocket"), hasToken("Connection", "upgrade") else {
            return refuse(
                426, "expected Upgrade: websocket and Connection: Upgrade",
                extra: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")])
        }
        guard headers["Sec-WebSocket-Version"]?.trimmingCharacters(in: .whitespaces) == "13" else {
            return refuse(426, "only Sec-WebSocket-Version 13 is spoken", extra: [("Sec-WebSocket-Version", "13")])
        }
        guard let key = headers["Sec-WebSocket-Key"]?.trimmingCharacters(in: .whitespaces),
            let decoded = Data(base64Encoded: key), decoded.count == 16
        else {
            return refuse(400, "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        var head = HTTPResponse(status: 101, version: .http1_1)
        // Headers the stub adds (settings responses, say) go along; the handshake's own win.
        for field in draft.headers where !["Content-Type", "Content-Length"].contains(where: { HTTPHeaders.sameName($0, field.name) }) {
            head.headers.add(name: field.name, value: field.value)
        }
        head.headers.replaceOrAdd(name: "Upgrade", value: "websocket")
        head.headers.replaceOrAdd(name: "Sec-WebSocket-Accept", value: Self.acceptValue(for: key))
        let plan = self
        return HTTPReply(.upgraded(HTTPUpgrade(head: head) { WebSocketSession(plan: plan) }), delay: draft.delay)
    }

    /// Text goes out in a text frame (browsers get a string); a file's content in a binary
    /// frame, as moco sends it (moco sends every message binary).
    static func opcode(for content: WebSocketEndpoint.MessageContent) -> WebSocketFrame.Opcode {
        if case .file = content { return .binary }
        return .text
    }

    /// A message's bytes: literal text, or a file read now (confined to the file root).
    func content(_ content: WebSocketEndpoint.MessageContent) -> [UInt8]? {
        switch content {
        case .text(let text): return Array(text.utf8)
        case .file(let name):
            if case .success(let bytes) = ConfinedFiles.read(name, root: root, fallback: fallback) { return bytes }
            return nil
        }
    }
}

/// Who is connected to one endpoint and which groups they joined. Sessions live on
/// different event loops; sends go through their channels, which are thread-safe.
final class WebSocketHub: @unchecked Sendable {
    private let lock = NSLock()
    private var members: [ObjectIdentifier: (channel: HTTPUpgradedChannel, groups: Set<String>)] = [:]

    func add(_ session: WebSocketSession, channel: HTTPUpgradedChannel) {
        lock.lock(); members[ObjectIdentifier(session)] = (channel, []); lock.unlock()
    }

    func remove(_ session: WebSocketSession) {
        lock.lock(); members[ObjectIdentifier(session)] = nil; lock.unlock()
    }

    func join(_ session: WebSocketSession, group: String) {
        lock.lock(); members[ObjectIdentifier(session)]?.groups.insert(group); lock.unlock()
    }

    /// Sends `frame` to every member, or to the members of `group`.
    func broadcast(_ frame: [UInt8], group: String?) {
        lock.lock()
        let targets = members.values.filter { group == nil || $0.groups.contains(group!) }.map(\.channel)
        lock.unlock()
        HTTPUpgradedChannel.send(frame, to: targets)
    }

    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return members.count
    }
}
