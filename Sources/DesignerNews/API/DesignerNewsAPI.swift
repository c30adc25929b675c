import Foundation

/// Everything the app asks the Designer News API. ``DesignerNewsAPIClient`` talks HTTP;
/// specs may swap in any other conformance through ``AppEnvironment``.
///
/// ```swift
/// let api = DesignerNewsAPIClient(configuration: .init(baseURL: server.baseURL))
/// let token = try await api.login(email: "qa@example.com", password: "secret")
/// let page = try await api.authorized(with: token.accessToken).stories(page: 1)
/// ```
/// Every call throws an ``APIError``: the HTTP status with the decoded error body, a transport
/// failure, or a decoding failure naming the coding path.
public protocol DesignerNewsAPI: Sendable {
    /// The bearer token sent with calls that need a signed-in reader, if any.
    var accessToken: String? { get }

    /// The same API, sending `token` (or no token) from now on.
    func authorized(with token: String?) -> any DesignerNewsAPI

    /// `POST /oauth/token` (password grant, form-encoded, with the app's client id and secret).
    func login(email: String, password: String) async throws(APIError) -> AccessToken

    /// `GET /api/v1/stories?page=N`, newest first; pages start at 1.
    func stories(page: Int) async throws(APIError) -> StoriesPage

    /// `GET /api/v1/stories/{id}`.
    func story(id: Int) async throws(APIError) -> Story

    /// `GET /api/v1/stories/{id}/comments`.
    func comments(storyID: Int) async throws(APIError) -> [Comment]

    /// `POST /api/v1/stories/{id}/upvote`; needs a token.
    func upvote(storyID: Int) async throws(APIError) -> Upvote

    /// `GET /api/v1/me`; needs a token.
    func me() async throws(APIError) -> User
}
