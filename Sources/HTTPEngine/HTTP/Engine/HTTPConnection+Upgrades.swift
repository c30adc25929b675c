#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Upgraded connections (websockets, raw stream servers): the handler owns the bytes both ways.
extension HTTPConnection {
    /// A stream server's connection: handed to `handler` before any byte is read.
    func startRawStream(_ handler: any HTTPUpgradeHandler) {
        let channel = HTTPUpgradedChannel(loop: worker.loop, connection: self, remoteAddress: remoteHost, remotePort: remotePort)
        inFlight = .upgraded(UpgradeState(handler: handler, channel: channel))
        awaitingReply = true
        phase = .responding
        lastTraffic = worker.loop.now
        handler.didStart(channel)
        updateInterest()
    }

    func startUpgrade(_ upgrade: HTTPUpgrade, _ reply: ReplyContext) {
        let head = upgrade.head
        appendVersion(head.version ?? reply.version)
        _ = HTTPResponseSerializer.appendStatusAndHeaders(of: head, contentLength: false) { output.append($0) }
        output.append("Connection: Upgrade\r\n\r\n")
        let channel = HTTPUpgradedChannel(loop: worker.loop, connection: self, remoteAddress: remoteHost, remotePort: remotePort)
        let handler = upgrade.makeHandler()
        inFlight = .upgraded(UpgradeState(handler: handler, channel: channel))
        awaitingReply = true
        phase = .responding
        lastTraffic = worker.loop.now
        reply.onSent?(head.status, .nanoseconds(Int64(SystemCalls.monotonicNanos() &- reply.started)))
        handler.didStart(channel)
        if !isClosed && !input.isEmpty {
            let early = Array(input.readable)
            input.consume(early.count)
            handler.didReceive(early)
        }
        updateInterest()
    }

    /// Bytes of an upgraded connection's input handed to its handler per loop turn. What a
    /// handler does with them can fan out (a websocket broadcast sends each message to every
    /// member), so a client's burst is taken in slices, other connections served in between.
    private static let upgradedSliceBytes = 2 * 1024

    func upgradedDidRead(_ gotBytes: Bool) {
        guard case .upgraded(let upgraded) = inFlight else { return }
        if gotBytes { lastTraffic = worker.loop.now }
        if !input.isEmpty && !closeWhenFlushed {
            let bytes = Array(input.readable.prefix(Self.upgradedSliceBytes))
            input.consume(bytes.count)
            upgraded.handler.didReceive(bytes)
        }
        guard !isClosed else { return }
        if !input.isEmpty && !closeWhenFlushed {
            scheduleUpgradedInput()
        } else if peerClosed {
            closeNow()
            return
        }
        flush()
    }

    /// The rest of the input on a later turn, after the events already waiting.
    private func scheduleUpgradedInput() {
        guard !upgradedInputScheduled else { return }
        upgradedInputScheduled = true
        let resume = UncheckedAction<Void> { [weak self] _ in
            guard let self else { return }
            upgradedInputScheduled = false
            if !isClosed { upgradedDidRead(false) }
        }
        worker.loop.execute { resume.action(()) }
    }

    func upgradedSend(_ bytes: [UInt8]) {
        guard !isClosed, !closeWhenFlushed, case .upgraded = inFlight else { return }
        let limit = context.limits.outputHighWaterMark
        if !output.isEmpty && output.readableCount + bytes.count > limit {
            flush() // let the kernel take what it will before judging the peer
            guard !isClosed else { return }
            if !output.isEmpty && output.readableCount + bytes.count > limit {
                // A peer that stopped reading (a broadcast's silent member): queueing more would
                // grow without bound, and dropping messages silently would lie. Closing tells it.
                closeNow()
                return
            }
        }
        output.append(bytes)
        scheduleUpgradedFlush()
    }

    /// Sends from an upgraded handler are written once per loop turn, not once per message: a
    /// burst of broadcasts costs one write per member instead of one system call per message
    /// (most of them failing with EAGAIN on a member that does not read).
    private func scheduleUpgradedFlush() {
        if writeInterest {
            // The socket is full: its writable event flushes. Counted in 64 KiB steps, not per
            // message (the budget's lock is shared by every loop).
            if output.readableCount >= memoryCharged + 64 * 1024 { accountMemory() }
            return
        }
        guard !upgradedFlushScheduled else { return }
        upgradedFlushScheduled = true
        let flushLater = UncheckedAction<Void> { [weak self] _ in
            guard let self else { return }
            upgradedFlushScheduled = false
            if !isClosed { flush() }
        }
        worker.loop.execute { flushLater.action(()) }
    }

    func upgradedClose() {
        guard !isClosed, case .upgraded = inFlight else { return }
        closeWhenFlushed = true
        lingerOnClose = false
        awaitingReply = false
        flush()
    }
}

/// An upgraded connection's protocol handler and its channel.
struct UpgradeState {
    let handler: any HTTPUpgradeHandler
    let channel: HTTPUpgradedChannel
}
