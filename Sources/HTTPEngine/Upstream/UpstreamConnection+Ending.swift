#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// How an exchange ends: its response delivered, the connection lost or failed, the read timer, close.
extension UpstreamConnection {
    func complete(reusable: Bool) {
        guard let exchange, let parser else { return close() }
        let response = parser.response
        self.exchange = nil
        self.parser = nil
        cancelTimer()
        reused = true
        if reusable {
            pool.release(self)
        } else {
            close()
        }
        exchange.request.bodyStream?.end()
        exchange.finish(.success(response))
    }

    func connectionLost(_ reason: String) {
        guard let exchange else { return close() }
        let started = parser?.hasStarted ?? false
        if reused && !started && !exchange.retried {
            // The upstream closed a keep-alive connection as we reused it: try a fresh one once.
            self.exchange = nil
            close()
            exchange.retried = true
            exchange.connection = nil
            pool.enqueue(exchange, first: true)
            return
        }
        fail(exchange, .closed("\(pool.endpoint): \(reason)"))
    }

    /// Refused is told apart: it means nothing listens there (for a stubserver client: none is running).
    func connectFailure(_ code: Int32) -> UpstreamError {
        code == ECONNREFUSED ? .refused("\(pool.endpoint)") : .unreachable("\(pool.endpoint): \(String(cString: strerror(code)))")
    }

    func fail(_ exchange: UpstreamExchange, _ error: UpstreamError) {
        self.exchange = nil
        close()
        // After its head the call has answered: the failure ends the streamed body instead.
        if exchange.isFinished { exchange.request.bodyStream?.fail("\(error)") }
        exchange.finish(.failure(error))
    }

    func armReadTimer() {
        lastActivity = SystemCalls.monotonicNanos()
        timer = loop.schedule(after: readTimeout) { [weak self] in self?.readTimerFired() }
    }

    private func readTimerFired() {
        timer = nil
        guard state == .reading || state == .writing, let exchange else { return }
        let limit = readTimeout
        if readingPaused {
            // Waiting for our own consumer is not the upstream being slow.
            lastActivity = SystemCalls.monotonicNanos()
            timer = loop.schedule(after: limit) { [weak self] in self?.readTimerFired() }
            return
        }
        let deadline = lastActivity &+ limit.nanoseconds
        if SystemCalls.monotonicNanos() >= deadline {
            fail(exchange, .readTimeout(limit))
        } else {
            timer = loop.schedule(at: deadline) { [weak self] in self?.readTimerFired() }
        }
    }

    /// The call's own read timeout, else the client's.
    private var readTimeout: Duration { exchange?.request.readTimeout ?? configuration.readTimeout }

    func cancelTimer() {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
    }

    func setWriting(_ writing: Bool) {
        guard fd >= 0, writing != wantsWrite else { return }
        loop.setInterest(fd, reading: !readingPaused, writing: writing, wasReading: !readingPaused, wasWriting: wantsWrite)
        wantsWrite = writing
    }

    func close() {
        cancelTimer()
        #if !canImport(Darwin)
        tls?.shutdown()
        tls = nil
        #endif
        if fd >= 0 {
            loop.deregister(fd)
            SystemCalls.close(fd)
            fd = -1
        }
        state = .closed
        parser = nil
        // The pool counted this connection when it was created; uncount it exactly once.
        if !released {
            released = true
            pool.closed(self)
        }
    }
}
