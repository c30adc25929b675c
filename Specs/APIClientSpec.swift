import DesignerNews
import Foundation
import StubServer

/// What the app puts on the wire, and the typed errors it gets back.
final class APIClientSpec: FeatureSpec {
    override func testFeature() {
        Feature("Talking to the API", description: "As a developer I want every call and every failure to be explicit") {
            var backend: StubbedBackend!
            var api: DesignerNewsAPIClient!

            Background {
                backend = try StubbedBackend.start()
                api = backend.api(for: .normal)
            }
            afterEach { backend.stop() }

            /// Runs one call of the app's API client (or `client`) to completion and returns how it ended.
            @MainActor func call<T: Sendable>(
                _ client: DesignerNewsAPIClient? = nil, _ body: @escaping @Sendable (DesignerNewsAPIClient) async throws -> T
            ) -> Result<T, APIError>? {
                let outcome = Outcome<T>()
                let client = client ?? api!
                Task {
                    do {
                        outcome.result = .success(try await body(client))
                    } catch {
                        outcome.result = .failure(error as? APIError ?? .transport(code: -1, message: "\(error)"))
                    }
                }
                expect(outcome.result == nil).toEventually(beFalse(), timeout: serverTimeout)
                return outcome.result
            }

            Scenario("One story, by id") {
                Then("GET /api/v1/stories/105 is the visionOS story") {
                    let result = call { try await $0.story(id: 105) }
                    expect(try result?.get().title).to(equal("Apple Human Interface Guidelines: what changed for visionOS"))
                }
            }

            Scenario("The comments of a story") {
                Then("story 102 has three comments, one a reply") {
                    let result = call { try await $0.comments(storyID: 102) }
                    expect(try result?.get().map(\.parentCommentID)).to(equal([nil, nil, 9102]))
                }
                And("a story nobody commented on has none") {
                    let result = call { try await $0.comments(storyID: 110) }
                    expect(try result?.get()).to(beEmpty())
                }
            }

            Scenario("The signed-in reader needs the token") {
                Then("with the token, me is the QA reader") {
                    let token = try Fixtures.accessToken.accessToken
                    let result = call { try await $0.authorized(with: token).me() }
                    expect(try result?.get().displayName).to(equal("QA Reader"))
                    expect(backend.requests(.get("/api/v1/me").withHeader("Authorization", "Bearer \(token)"))).to(haveCount(1))
                }
                And("without it, the answer is 401 with the decoded error") {
                    let result = call { try await $0.me() }
                    expect(result?.failure).to(
                        equal(
                            .http(
                                status: 401,
                                envelope: APIErrorEnvelope(
                                    error: "invalid_token", errorDescription: "The access token is missing, expired or revoked."))))
                }
            }

            Scenario("Upvoting needs the token") {
                Then("with the token, the upvote of story 104 is recorded") {
                    let token = try Fixtures.accessToken.accessToken
                    let result = call { try await $0.authorized(with: token).upvote(storyID: 104) }
                    expect(try result?.get()).to(equal(Upvote(id: 7001, storyID: 104, userID: 4711)))
                }
                And("without it, the answer is 401") {
                    let result = call { try await $0.upvote(storyID: 104) }
                    expect(result?.failure?.status).to(equal(401))
                }
                And("both were POSTs with the app's client id") {
                    expect(backend.requests(.post("/api/v1/stories/104/upvote").withQuery("client_id", "designernews-ios")))
                        .to(haveCount(2))
                }
            }

            Scenario("An unknown story is a 404 with the API's error") {
                Then("GET /api/v1/stories/999 fails with not_found") {
                    let result = call { try await $0.story(id: 999) }
                    expect(result?.failure).to(
                        equal(
                            .http(
                                status: 404,
                                envelope: APIErrorEnvelope(
                                    error: "not_found", errorDescription: "No story with that id."))))
                }
            }

            Scenario("A malformed answer names its coding path") {
                Then("the qa-broken front page fails at stories[0].vote_count") {
                    let result = call(backend.api(for: .broken)) { try await $0.stories(page: 1) }
                    expect(result?.failure?.description).to(
                        beginWith("could not decode StoriesPage: type mismatch (Int) at stories[0].vote_count"))
                }
            }

            Scenario("A server that is gone is a transport error") {
                Then("a stopped server cannot be reached") {
                    backend.server.stop()
                    let result = call { try await $0.stories(page: 1) }
                    expect(result?.failure).to(
                        satisfy("be a transport error") { error in
                            if case .transport = error { return true }
                            return false
                        })
                }
            }
        }
    }
}

/// The result of an async call, filled in by the task that made it.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<T, APIError>?

    var result: Result<T, APIError>? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
