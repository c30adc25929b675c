#if canImport(Darwin)
import Foundation

/// Upstream calls through URLSession, for `https` upstreams on Apple platforms (Linux uses
/// OpenSSL, `TLSSession`, so that `stubserver` need not link FoundationNetworking and libcurl).
/// Redirects are not followed; hop-by-hop fields are removed both ways.
///
/// Differences from the Linux client (docs/apple-platforms.md, "https upstreams on Apple platforms"):
/// the system trust store decides (`trustedCertificatesFile`/`SSL_CERT_FILE` are not read);
/// URLSession adds `Accept-Encoding`, `Accept-Language` and `User-Agent` when absent and decodes
/// compressed bodies; repeated response fields (`Set-Cookie`) arrive joined by commas; `Host` is not
/// forwarded; the size limit is checked once the body is complete.
final class FoundationUpstream: @unchecked Sendable {
    static let shared = FoundationUpstream()

    /// Built once in `init` (a `lazy var` here was a data race: `send` runs on any event-loop thread).
    private let session: URLSession

    private init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// Whether a URLSession error is `code` of NSURLErrorDomain (codes of other domains can collide).
    static func isURLError(_ error: Error, _ code: Int) -> Bool {
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == code
    }

    func send(
        _ request: UpstreamRequest, timeout: Duration, limit: Int,
        completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    ) -> URLSessionTask? {
        guard let url = URL(string: request.url) else {
            completion(.failure(.invalidURL(request.url, "not a valid URL")))
            return nil
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        for field in HopByHop.strip(request.headers) {
            if HTTPHeaders.sameName(field.name, "Host") || HTTPHeaders.sameName(field.name, "Content-Length") { continue }
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                if Self.isURLError(error, NSURLErrorCancelled) { return completion(.failure(.cancelled)) }
                if Self.isURLError(error, NSURLErrorTimedOut) { return completion(.failure(.readTimeout(timeout))) }
                if Self.isURLError(error, NSURLErrorCannotConnectToHost) {
                    // `url`, not `urlRequest.url`: a captured `var` is not allowed in this @Sendable closure.
                    return completion(.failure(.refused("\(url.host ?? ""):\(url.port.map(String.init) ?? "")")))
                }
                if Self.isURLError(error, NSURLErrorNetworkConnectionLost) {
                    return completion(.failure(.closed(error.localizedDescription)))
                }
                return completion(.failure(.unreachable(error.localizedDescription)))
            }
            guard let http = response as? HTTPURLResponse else {
                return completion(.failure(.malformedResponse("not an HTTP response")))
            }
            guard (100...599).contains(http.statusCode) else {
                return completion(.failure(.malformedResponse("bad status code \(http.statusCode)")))
            }
            let body = data.map { [UInt8]($0) } ?? []
            guard body.count <= limit else { return completion(.failure(.responseTooLarge(limit))) }
            var headers = HTTPHeaders()
            for (name, value) in http.allHeaderFields {
                guard let name = name as? String, let value = value as? String else { continue }
                // URLSession has already decoded the body and measured it again.
                if HTTPHeaders.sameName(name, "Content-Encoding") || HTTPHeaders.sameName(name, "Content-Length") { continue }
                headers.add(name: name, value: value)
            }
            completion(
                .success(
                    UpstreamResponse(
                        status: http.statusCode, reason: HTTPStatus.reasonPhrase(for: http.statusCode),
                        headers: HopByHop.strip(headers), body: body)))
        }
        task.resume()
        return task
    }

}

/// URLSession's delegate: refuses redirects, which a proxy hands back to its client unchanged.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
#endif
