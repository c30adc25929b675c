// Streamed bodies (see `UpstreamBodyStream`): pausing, resuming and relaying what the upstream sends as it arrives.
extension UpstreamConnection {
    /// The consumer of `stream` went away before its end (the connection may have moved on
    /// to another call meanwhile: only that stream's call is abandoned).
    func abandonStream(_ stream: UpstreamBodyStream) {
        guard let current = exchange?.request.bodyStream, current === stream else { return }
        abandon()
    }

    func pauseReading() {
        guard !readingPaused, fd >= 0, state == .reading else { return }
        readingPaused = true
        loop.setInterest(fd, reading: false, writing: wantsWrite, wasReading: true, wasWriting: wantsWrite)
    }

    func resumeReading(_ stream: UpstreamBodyStream) {
        guard readingPaused, let current = exchange?.request.bodyStream, current === stream else { return }
        resumeReadingInterest()
        lastActivity = SystemCalls.monotonicNanos()
        // TLS may hold decrypted bytes the socket will not announce again.
        if state == .reading { read() }
    }

    func resumeReadingInterest() {
        guard readingPaused else { return }
        readingPaused = false
        if fd >= 0 { loop.setInterest(fd, reading: true, writing: wantsWrite, wasReading: false, wasWriting: wantsWrite) }
    }

    /// Hands a streamed body on: the head once (the call's completion gets it), then each
    /// piece as it is parsed.
    func relayStreamedBody() throws(UpstreamResponseParser.Failure) {
        guard let exchange, let stream = exchange.request.bodyStream, var parser, parser.headIsComplete, relaying != false else { return }
        if relaying == nil {
            relaying = UpstreamBodyStream.relays(parser.response)
            if relaying == false {
                // A small answer is collected as usual (its journal entry is then written
                // before the client has it, and a failover could still use it).
                try parser.limitBody(to: configuration.maxResponseBytes)
                self.parser = parser
                return
            }
        }
        if !exchange.isFinished {
            stream.attach(self, loop: loop)
            var head = parser.response
            head.body = []
            exchange.finish(.success(head))
        }
        let piece = parser.takeBody()
        self.parser = parser
        stream.push(piece)
    }
}
