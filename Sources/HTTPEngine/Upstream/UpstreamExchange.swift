/// One request on its way through the client: queued, then on a connection. Loop-confined
/// apart from construction.
final class UpstreamExchange: @unchecked Sendable {
    let request: UpstreamRequest
    let client: UpstreamClient
    private var completion: (@Sendable (Result<UpstreamResponse, UpstreamError>) -> Void)?
    /// The connection carrying it, once it has one.
    weak var connection: UpstreamConnection?
    weak var pool: UpstreamPool?
    /// A reused connection died before any response byte: one retry on a fresh connection.
    var retried = false

    init(
        request: UpstreamRequest, client: UpstreamClient, completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    ) {
        self.request = request
        self.client = client
        self.completion = completion
    }

    var isFinished: Bool { completion == nil }

    /// The request as bytes: hop-by-hop fields removed, `Host` and `Content-Length` owned here.
    lazy var serialized: [UInt8] = {
        var text = "\(request.method) \(request.target) HTTP/1.1\r\nHost: \(request.hostField)\r\n"
        for field in HopByHop.strip(request.headers) {
            if HTTPHeaders.sameName(field.name, "Host") || HTTPHeaders.sameName(field.name, "Content-Length") { continue }
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(HTTPRequestParser.isTokenByte),
                !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 })
            else { continue }
            text += "\(field.name): \(field.value)\r\n"
        }
        let method = request.method.uppercased()
        if !request.body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            text += "Content-Length: \(request.body.count)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8) + request.body
    }()

    func finish(_ result: Result<UpstreamResponse, UpstreamError>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }

    func cancel() {
        guard !isFinished else { return }
        if let connection {
            connection.abandon()
        } else {
            pool?.remove(self)
        }
        finish(.failure(.cancelled))
    }
}
