/// The connections to one upstream: idle keep-alive ones, a bounded number open, and the calls
/// waiting for one. Loop-confined.
final class UpstreamPool {
    let endpoint: UpstreamEndpoint
    let address: SocketAddress
    let client: UpstreamClient
    private var idle: [UpstreamConnection] = []
    private var waiting: [UpstreamExchange] = []
    private var waitingHead = 0
    /// Connections open or opening, idle ones included.
    private(set) var openCount = 0

    init(endpoint: UpstreamEndpoint, address: SocketAddress, client: UpstreamClient) {
        self.endpoint = endpoint
        self.address = address
        self.client = client
    }

    func enqueue(_ exchange: UpstreamExchange, first: Bool = false) {
        exchange.pool = self
        if let connection = idle.popLast() {
            connection.begin(exchange)
            return
        }
        if openCount < client.configuration.maxConnectionsPerUpstream {
            openConnection(for: exchange)
            return
        }
        guard waiting.count - waitingHead < client.configuration.maxWaitingPerUpstream else {
            exchange.finish(.failure(.overloaded(endpoint.description)))
            return
        }
        if first {
            waiting.insert(exchange, at: waitingHead)
        } else {
            waiting.append(exchange)
        }
    }

    func shutdown() {
        while let next = nextWaiting() { next.finish(.failure(.cancelled)) }
        for connection in idle { connection.abandon() }
        idle = []
    }

    func remove(_ exchange: UpstreamExchange) {
        if let index = waiting[waitingHead...].firstIndex(where: { $0 === exchange }) { waiting.remove(at: index) }
    }

    private func openConnection(for exchange: UpstreamExchange) {
        openCount += 1
        let connection = UpstreamConnection(pool: self)
        connection.connect(then: exchange)
    }

    private func nextWaiting() -> UpstreamExchange? {
        while waitingHead < waiting.count {
            let next = waiting[waitingHead]
            waitingHead += 1
            if waitingHead > 64 && waitingHead * 2 > waiting.count {
                waiting.removeFirst(waitingHead)
                waitingHead = 0
            }
            if !next.isFinished { return next }
        }
        return nil
    }

    /// A connection finished an exchange and can carry another.
    func release(_ connection: UpstreamConnection) {
        if let next = nextWaiting() {
            connection.begin(next)
        } else {
            idle.append(connection)
            connection.becomeIdle()
        }
    }

    /// A connection closed (error, upstream's choice, idle timeout, cancellation).
    func closed(_ connection: UpstreamConnection) {
        openCount -= 1
        idle.removeAll { $0 === connection }
        if let next = nextWaiting() { openConnection(for: next) }
    }
}
