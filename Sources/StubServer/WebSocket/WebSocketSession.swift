/// One websocket connection after the handshake: reassembles fragmented messages, answers
/// pings (moco's `pingpongs`), matches text messages to the endpoint's `sessions`, and runs the
/// close handshake. Lives on its connection's event loop.
final class WebSocketSession: HTTPUpgradeHandler {
    private let plan: WebSocketPlan
    private var channel: HTTPUpgradedChannel?
    private var buffer: [UInt8] = []
    private var message: (opcode: WebSocketFrame.Opcode, payload: [UInt8])?
    /// We sent a close frame and wait for the client's.
    private var closing = false

    init(plan: WebSocketPlan) { self.plan = plan }

    func didStart(_ channel: HTTPUpgradedChannel) {
        self.channel = channel
        plan.hub.add(self, channel: channel)
        if let connected = plan.endpoint.connected, let bytes = plan.content(connected) {
            send(WebSocketPlan.opcode(for: connected), bytes)
        }
    }

    func didReceive(_ bytes: [UInt8]) {
        buffer += bytes
        var offset = 0
        defer { if offset > 0 { buffer.removeFirst(min(offset, buffer.count)) } }
        while channel != nil {
            let decoded: (frame: WebSocketFrame, consumed: Int)?
            do throws(WebSocketFrame.Violation) {
                decoded = try WebSocketFrame.decode(buffer[offset...], maxPayload: WebSocketPlan.maxMessageBytes)
            } catch {
                fail(error)
                return
            }
            guard let (frame, consumed) = decoded else { return }
            offset += consumed
            handle(frame)
        }
    }

    func didClose() {
        plan.hub.remove(self)
        channel = nil
    }

    func serverWillStop() {
        startClosing(1001, "server stopping")
    }

    private func handle(_ frame: WebSocketFrame) {
        switch frame.opcode {
        case .ping:
            let pong = plan.endpoint.pingPongs.first { Array($0.ping.utf8) == frame.payload }.map { Array($0.pong.utf8) } ?? frame.payload
            send(.pong, pong)
        case .pong:
            break
        case .close:
            if closing {
                channel?.close()
                return
            }
            // Echo the status code (when there is a valid one), then close the connection.
            var code: UInt16 = 1000
            if frame.payload.count >= 2 { code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) }
            if frame.payload.count == 1 || (frame.payload.count >= 2 && !Self.isValidCloseCode(code)) {
                fail(.init(code: 1002, reason: "invalid close frame"))
                return
            }
            if frame.payload.count > 2, String(validating: frame.payload[2...], as: UTF8.self) == nil {
                fail(.init(code: 1007, reason: "close reason is not UTF-8"))
                return
            }
            channel?.send(WebSocketFrame.close(code).encoded())
            channel?.close()
        case .text, .binary:
            guard message == nil else {
                fail(.init(code: 1002, reason: "a new message began before the fragmented one ended"))
                return
            }
            if frame.fin { deliver(frame.opcode, frame.payload) } else { message = (frame.opcode, frame.payload) }
        case .continuation:
            guard var current = message else {
                fail(.init(code: 1002, reason: "continuation frame without a message"))
                return
            }
            guard current.payload.count + frame.payload.count <= WebSocketPlan.maxMessageBytes else {
                fail(.init(code: 1009, reason: "message larger than \(WebSocketPlan.maxMessageBytes) bytes"))
                return
            }
            current.payload += frame.payload
            message = frame.fin ? nil : current
            if frame.fin { deliver(current.opcode, current.payload) }
        }
    }

    /// A whole message: the first session whose request equals it answers.
    private func deliver(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) {
        guard !closing else { return }
        if opcode == .text, String(validating: payload, as: UTF8.self) == nil {
            fail(.init(code: 1007, reason: "text message is not UTF-8"))
            return
        }
        guard let session = plan.endpoint.sessions.first(where: { plan.content($0.request) == payload }) else { return }
        // moco's handler order: the broadcast goes out as its handler runs (the sender gets it
        // too when in the audience), the sender joins the group, and the reply is written last.
        let reply = session.response
        if let broadcast = reply.broadcast, let bytes = plan.content(broadcast.content) {
            let frame = WebSocketFrame(fin: true, opcode: WebSocketPlan.opcode(for: broadcast.content), payload: bytes)
            plan.hub.broadcast(frame.encoded(), group: broadcast.group)
        }
        if let group = reply.group { plan.hub.join(self, group: group) }
        if let content = reply.content, let bytes = plan.content(content) { send(WebSocketPlan.opcode(for: content), bytes) }
    }

    private func send(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) {
        channel?.send(WebSocketFrame(fin: true, opcode: opcode, payload: payload).encoded())
    }

    private func fail(_ violation: WebSocketFrame.Violation) {
        buffer = []
        channel?.send(WebSocketFrame.close(violation.code, reason: violation.reason).encoded())
        channel?.close()
        channel = nil
    }

    /// Server-initiated close: send ours, wait briefly for the client's, then close anyway.
    private func startClosing(_ code: UInt16, _ reason: String) {
        guard let channel, !closing else { return }
        closing = true
        channel.send(WebSocketFrame.close(code, reason: reason).encoded())
        channel.schedule(after: .seconds(1)) { [channel] in channel.close() }
    }

    static func isValidCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011: true
        case 3000...4999: true
        default: false
        }
    }
}
