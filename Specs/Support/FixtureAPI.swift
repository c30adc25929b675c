import DesignerNews
import Foundation

/// An in-memory ``DesignerNewsAPI`` for the screen snapshots, which must not start servers:
/// each call answers at once with a value (by default from `Stubs/`), fails, or never answers.
///
/// ```swift
/// try FixtureAPI(stories: .failure(.http(status: 500, envelope: nil)))
/// try FixtureAPI(login: .never)   // the login stays in flight
/// ```
struct FixtureAPI: DesignerNewsAPI {
    enum Answer<Value: Sendable>: Sendable {
        case value(Value)
        case failure(APIError)
        /// Never answers (until the task is cancelled): a request in flight.
        case never

        func get() async throws(APIError) -> Value {
            switch self {
            case .value(let value): return value
            case .failure(let error): throw error
            case .never:
                try? await Task.sleep(nanoseconds: 24 * 3600 * 1_000_000_000)
                throw .transport(code: URLError.cancelled.rawValue, message: "cancelled")
            }
        }
    }

    var login: Answer<AccessToken>
    var stories: Answer<StoriesPage>
    var accessToken: String?

    /// Answers left out come from `Stubs/login_response.json` and `Stubs/stories.json`.
    init(login: Answer<AccessToken>? = nil, stories: Answer<StoriesPage>? = nil) throws {
        self.login = try login ?? .value(Fixtures.accessToken)
        self.stories = try stories ?? .value(Fixtures.frontPage)
    }

    func authorized(with token: String?) -> any DesignerNewsAPI {
        var copy = self
        copy.accessToken = token
        return copy
    }

    func login(email: String, password: String) async throws(APIError) -> AccessToken { try await login.get() }
    func stories(page: Int) async throws(APIError) -> StoriesPage { try await stories.get() }

    func story(id: Int) async throws(APIError) -> Story {
        guard let story = (try? Fixtures.frontPage)?.stories.first(where: { $0.id == id }) else {
            throw .http(status: 404, envelope: APIErrorEnvelope(error: "not_found"))
        }
        return story
    }

    func comments(storyID: Int) async throws(APIError) -> [Comment] { [] }
    func upvote(storyID: Int) async throws(APIError) -> Upvote { Upvote(id: 1, storyID: storyID) }
    func me() async throws(APIError) -> User { User(id: 4711, displayName: "QA Reader") }
}
