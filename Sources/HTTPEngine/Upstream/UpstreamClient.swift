import Foundation
import Locking

#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// A small non-blocking HTTP/1.1 client for upstream calls (proxy, events), on its own event
/// loop thread: connect and read timeouts, a bounded keep-alive pool per upstream, redirects
/// never followed (a 3xx is an answer to pass on), hop-by-hop fields removed both ways
/// (RFC 9110 §7.6.1). `https` upstreams speak TLS through the system's OpenSSL on Linux, loaded
/// on first use (`TLSSession`), and through URLSession on Apple platforms.
///
/// ```swift
/// let call = UpstreamClient.shared.send(try UpstreamRequest(method: "GET", url: "http://127.0.0.1:8080/ping")) { result in
///     print(try? result.get().status)   // on the client's loop thread: keep it quick
/// }
/// call.cancel()   // the completion then gets .cancelled unless it already ran
/// ```
public final class UpstreamClient: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var connectTimeout: Duration = .seconds(5)
        /// Longest silence while a response is due (reset by every byte received).
        public var readTimeout: Duration = .seconds(30)
        /// Open connections per upstream host and port; further calls wait in line.
        public var maxConnectionsPerUpstream = 32
        /// Calls waiting for a connection per upstream before new ones fail at once.
        public var maxWaitingPerUpstream = 4096
        public var maxResponseBytes = 64 * 1024 * 1024
        /// An unused keep-alive connection is closed after this long.
        public var idleTimeout: Duration = .seconds(20)
        /// A PEM file of certificate authorities trusted for `https` upstreams besides the
        /// system's (on Linux; `SSL_CERT_FILE` replaces the system's). A private CA or a
        /// self-signed development server: `configuration.trustedCertificatesFile = "dev-ca.pem"`.
        public var trustedCertificatesFile: String?

        public init() {}
    }

    /// The client proxies and events use: one loop thread for the process, started on first use.
    public static let shared = UpstreamClient()

    public let configuration: Configuration
    let loop: EventLoop
    // Loop-confined state.
    /// Where connections read into; only the loop thread touches it.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var pools: [UpstreamEndpoint: UpstreamPool] = [:]
    #if !canImport(Darwin)
    /// Made on the first `https` call; a failure (no OpenSSL, unreadable CA file) is kept and
    /// reported by every later call too.
    private var tlsContextResult: Result<TLSClientContext, UpstreamError>?
    #endif

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        // Creating an epoll/kqueue descriptor only fails when the process is out of descriptors.
        loop = try! EventLoop(index: 0)
        loop.start(name: "stubserver.upstream")
    }

    deinit { readBuffer.deallocate() }

    /// Closes every connection, fails the calls still waiting with `.cancelled` and ends the
    /// loop thread. Pools keep the client alive until then (the shared client never shuts down).
    public func shutdown() {
        let done = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            let current = pools
            pools = [:]
            for pool in current.values { pool.shutdown() }
            loop.exitLoop()
            done.signal()
        }
        done.wait()
    }

    /// Sends `request`; `completion` runs once, on the client's loop thread.
    @discardableResult
    public func send(_ request: UpstreamRequest, completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void)
        -> UpstreamCall
    {
        let call = UpstreamCall(client: self)
        #if canImport(Darwin)
        if request.scheme == "https" {
            // URLSession completes on its delegate queue; hop to the loop thread, as documented above.
            let loop = self.loop
            call.foundationTask = FoundationUpstream.shared.send(
                request, timeout: request.readTimeout ?? configuration.readTimeout, limit: configuration.maxResponseBytes
            ) { result in loop.execute { completion(result) } }
            return call
        }
        #endif
        let exchange = UpstreamExchange(request: request, client: self, completion: completion)
        call.exchange = exchange
        loop.execute { [self] in start(exchange) }
        return call
    }

    /// Async convenience over `send`.
    public func response(to request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let result = await withCheckedContinuation { continuation in
            send(request) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Idle connections per upstream (for tests of the pool).
    func openConnectionCount(to endpoint: UpstreamEndpoint) -> Int {
        let box = Locked(0)
        let done = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            box.set(pools[endpoint]?.openCount ?? 0)
            done.signal()
        }
        done.wait()
        return box.snapshot
    }

    // MARK: Loop thread

    #if !canImport(Darwin)
    func tlsContext() -> Result<TLSClientContext, UpstreamError> {
        if let tlsContextResult { return tlsContextResult }
        let made = TLSClientContext.make(trustedCertificatesFile: configuration.trustedCertificatesFile)
        tlsContextResult = made
        return made
    }
    #endif

    private func start(_ exchange: UpstreamExchange) {
        guard !exchange.isFinished else { return }
        let endpoint = exchange.request.endpoint
        if let address = SocketAddress(host: endpoint.host, port: endpoint.port) {
            pool(for: endpoint, address: address).enqueue(exchange)
            return
        }
        if let pool = pools[endpoint] {
            pool.enqueue(exchange)
            return
        }
        // Host names resolve off the loop (getaddrinfo blocks), once per upstream.
        DispatchQueue.global().async { [self] in
            let resolved = Self.resolve(endpoint)
            loop.execute { [self] in
                switch resolved {
                case .success(let address): pool(for: endpoint, address: address).enqueue(exchange)
                case .failure(let error): exchange.finish(.failure(error))
                }
            }
        }
    }

    private func pool(for endpoint: UpstreamEndpoint, address: SocketAddress) -> UpstreamPool {
        if let pool = pools[endpoint] { return pool }
        let pool = UpstreamPool(endpoint: endpoint, address: address, client: self)
        pools[endpoint] = pool
        return pool
    }

    private static func resolve(_ endpoint: UpstreamEndpoint) -> Result<SocketAddress, UpstreamError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.unreachable("cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var address = SocketAddress()
        withUnsafeMutableBytes(of: &address.storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        address.length = first.pointee.ai_addrlen
        return .success(address)
    }
}

/// A handle on one upstream call.
public final class UpstreamCall: @unchecked Sendable {
    private weak var client: UpstreamClient?
    fileprivate var exchange: UpstreamExchange?
    #if canImport(Darwin)
    fileprivate var foundationTask: URLSessionTask?
    #endif

    fileprivate init(client: UpstreamClient) { self.client = client }

    /// Stops the call: its connection is closed (or it leaves the queue) and the completion
    /// gets `.cancelled` unless it already ran. Safe from any thread.
    public func cancel() {
        #if canImport(Darwin)
        foundationTask?.cancel()
        #endif
        guard let exchange, let client else { return }
        client.loop.execute { exchange.cancel() }
    }
}
