import Foundation
import SpecKitAppSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``DesignerNewsAPI`` over HTTP with `URLSession`.
///
/// ```swift
/// let api = DesignerNewsAPIClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:12306")!))
/// let page = try await api.stories(page: 1)
/// ```
/// Every `/api/v1` request carries `client_id` as a query parameter (the token request sends it
/// as a form field), and calls that need a reader send `Authorization: Bearer <token>`.
public struct DesignerNewsAPIClient: DesignerNewsAPI {
    /// Where the API lives and who the app is.
    public struct Configuration: Sendable, Equatable {
        public var baseURL: URL
        public var clientID: String
        public var clientSecret: String
        /// Seconds before a request gives up.
        public var timeout: TimeInterval

        /// The real service's address; the app's own client credentials.
        public static let production = Configuration(baseURL: URL(string: "https://api.designernews.co")!)

        public init(
            baseURL: URL, clientID: String = "designernews-ios", clientSecret: String = "designernews-ios-secret",
            timeout: TimeInterval = 30
        ) {
            self.baseURL = baseURL
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    public let accessToken: String?
    private let session: URLSession

    /// - Parameter session: defaults to one shared ephemeral session without cache or cookies
    ///   (a session per client would tie up threads on Linux).
    public init(configuration: Configuration, accessToken: String? = nil, session: URLSession = DesignerNewsAPIClient.sharedSession) {
        self.configuration = configuration
        self.accessToken = accessToken
        self.session = session
    }

    /// Ephemeral, no URL cache (a stub server on a reused port must never be answered from
    /// cache), no cookies.
    public static let sharedSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }()

    public func authorized(with token: String?) -> any DesignerNewsAPI {
        DesignerNewsAPIClient(configuration: configuration, accessToken: token, session: session)
    }

    // MARK: Endpoints

    public func login(email: String, password: String) async throws(APIError) -> AccessToken {
        var request = makeRequest("POST", path: "oauth/token", query: [])
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            FormEncoding.encode([
                ("grant_type", "password"),
                ("username", email),
                ("password", password),
                ("client_id", configuration.clientID),
                ("client_secret", configuration.clientSecret),
            ]).utf8)
        return try await send(request, decoding: AccessToken.self)
    }

    public func stories(page: Int) async throws(APIError) -> StoriesPage {
        let request = makeRequest("GET", path: "api/v1/stories", query: [("page", String(page))])
        return try await send(request, decoding: StoriesPage.self)
    }

    public func story(id: Int) async throws(APIError) -> Story {
        let request = makeRequest("GET", path: "api/v1/stories/\(id)")
        return try await send(request, decoding: StoryEnvelope.self).story
    }

    public func comments(storyID: Int) async throws(APIError) -> [Comment] {
        let request = makeRequest("GET", path: "api/v1/stories/\(storyID)/comments")
        return try await send(request, decoding: CommentsEnvelope.self).comments
    }

    public func upvote(storyID: Int) async throws(APIError) -> Upvote {
        let request = makeRequest("POST", path: "api/v1/stories/\(storyID)/upvote")
        return try await send(request, decoding: UpvoteEnvelope.self).upvote
    }

    public func me() async throws(APIError) -> User {
        let request = makeRequest("GET", path: "api/v1/me")
        return try await send(request, decoding: UserEnvelope.self).user
    }

    // MARK: Plumbing

    /// A request to `baseURL/path`; `/api/v1` paths get `client_id` first in the query.
    func makeRequest(_ method: String, path: String, query: [(String, String)] = []) -> URLRequest {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        var items = path.hasPrefix("api/") ? [URLQueryItem(name: "client_id", value: configuration.clientID)] : []
        items += query.map { URLQueryItem(name: $0.0, value: $0.1) }
        components.queryItems = items.isEmpty ? nil : items
        var request = URLRequest(url: components.url!, timeoutInterval: configuration.timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let accessToken {
            request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    func send<Body: Decodable>(_ request: URLRequest, decoding type: Body.Type) async throws(APIError) -> Body {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            let urlError = error as? URLError
            throw .transport(code: urlError?.errorCode ?? -1, message: urlError?.localizedDescription ?? String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport(code: URLError.badServerResponse.rawValue, message: "not an HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else {
            let envelope = try? DesignerNewsJSON.decoder().decode(APIErrorEnvelope.self, from: data)
            throw .http(status: http.statusCode, envelope: envelope)
        }
        do {
            return try DesignerNewsJSON.decoder().decode(Body.self, from: data)
        } catch {
            throw .decoding(DecodingFailure(error, decoding: Body.self))
        }
    }
}
