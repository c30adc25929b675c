#if canImport(Darwin)
import Foundation

/// Upstream calls through URLSession, for `https` upstreams on Apple platforms (Linux uses
/// OpenSSL, `TLSSession`, so that `stubserver` need not link FoundationNetworking and libcurl).
/// Redirects are not followed; hop-by-hop fields are removed both ways.
final class FoundationUpstream: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    static let shared = FoundationUpstream()

    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

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
                let nsError = error as NSError
                if nsError.code == NSURLErrorCancelled { return completion(.failure(.cancelled)) }
                if nsError.code == NSURLErrorTimedOut { return completion(.failure(.readTimeout(timeout))) }
                if nsError.code == NSURLErrorCannotConnectToHost, let url = urlRequest.url {
                    return completion(.failure(.refused("\(url.host ?? ""):\(url.port.map(String.init) ?? "")")))
                }
                if nsError.code == NSURLErrorNetworkConnectionLost {
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
            completion(.success(UpstreamResponse(
                status: http.statusCode, reason: HTTPStatus.reasonPhrase(for: http.statusCode),
                headers: HopByHop.strip(headers), body: body)))
        }
        task.resume()
        return task
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
#endif
