import DesignerNews
import Foundation

/// The app's models decode the very files the stub server serves, and a broken payload says
/// exactly where it is broken.
final class DecodingSpec: FeatureSpec {
    override func testFeature() {
        Feature(
            "Decoding the API's JSON",
            description: "As a developer I want every stub payload to decode, and a broken one to name its coding path"
        ) {
            let decoder = DesignerNewsJSON.decoder()

            Rule("A page of stories") {
                Scenario("The front page decodes with every field") {
                    var page: StoriesPage!
                    When("Stubs/stories.json is decoded") {
                        page = try decode(StoriesPage.self, fromFile: StubsFolder.file("stories.json"), decoder: decoder)
                    }
                    Then("it holds 10 stories and points at page 2") {
                        expect(page.stories).to(haveCount(10))
                        expect(page.nextPage).to(equal(2))
                    }
                    And("the first story has its title, link, counts, date, author and no badge") {
                        expect(page.stories.first).to(
                            equal(
                                Story(
                                    id: 101, title: "Designing a calmer notification system",
                                    url: URL(string: "https://medium.com/@lenaroth/designing-a-calmer-notification-system-4f2a")!,
                                    comment: "A long read on batching, quiet hours and the copy that goes with them.",
                                    commentCount: 42, voteCount: 118, createdAt: DesignerNewsJSON.parseDate("2023-11-15T09:12:44Z")!,
                                    userDisplayName: "Lena Roth", hostname: "medium.com", badge: nil)))
                    }
                    And("the badges are read as they are written") {
                        expect(page.stories.compactMap(\.badge?.rawValue)).to(equal(["show", "ask", "design", "show", "ask", "design"]))
                    }
                }

                Scenario("The last page has no next page") {
                    var page: StoriesPage!
                    When("Stubs/stories_page2.json is decoded") {
                        page = try decode(StoriesPage.self, fromFile: StubsFolder.file("stories_page2.json"), decoder: decoder)
                    }
                    Then("it holds 5 older stories and no next page") {
                        expect(page.stories.map(\.id)).to(equal([111, 112, 113, 114, 115]))
                        expect(page.nextPage).to(beNil())
                    }
                }

                Scenario("A story without its optional fields still decodes") {
                    var json = ""
                    Given("a story without comment, hostname and badge, and a page without next_page") {
                        json = try JSONFixture("stories.json")
                            .removing("stories[1].comment").removing("stories[1].hostname").removing("stories[1].badge")
                            .removing("next_page").text
                    }
                    Then("the story decodes with those fields empty") {
                        let page = try decode(StoriesPage.self, fromJSON: json, decoder: decoder)
                        expect(page.stories[1].comment).to(beNil())
                        expect(page.stories[1].hostname).to(beNil())
                        expect(page.stories[1].badge).to(beNil())
                        expect(page.nextPage).to(beNil())
                    }
                }
            }

            Rule("Broken payloads name their path") {
                ScenarioOutline(
                    "<problem> at <path>",
                    examples: [
                        (
                            problem: "A vote count written as a string", file: "stories.json", path: "stories[2].vote_count",
                            change: Change.set("39"), message: "type mismatch (Int) at stories[2].vote_count"
                        ),
                        (
                            problem: "A missing title", file: "stories.json", path: "stories[4].title",
                            change: .remove, message: "key not found at stories[4].title"
                        ),
                        (
                            problem: "A null author", file: "stories.json", path: "stories[0].user_display_name",
                            change: .set(NSNull()), message: "value not found (String) at stories[0].user_display_name"
                        ),
                        (
                            problem: "A date that is not ISO-8601", file: "stories.json", path: "stories[7].created_at",
                            change: .set("14/11/2023"), message: "data corrupted at stories[7].created_at: Expected an ISO-8601 date"
                        ),
                        (
                            problem: "A story that is not an object", file: "stories.json", path: "stories[9]",
                            change: .set("110"), message: "type mismatch (Dictionary<String, Any>) at stories[9]"
                        ),
                    ]
                ) { row in
                    var json = ""
                    Given("Stubs/\(row.file), broken at \(row.path): \(row.problem)") {
                        json = try row.change.apply(to: JSONFixture(row.file), at: row.path).text
                    }
                    Then("decoding fails with \"\(row.message)\"") {
                        expect { try decode(StoriesPage.self, fromJSON: json, decoder: decoder) }
                            .to(throwError(containing: "could not decode StoriesPage: \(row.message)"))
                    }
                }

                Scenario("The failure carries the reason and the path as values") {
                    var failure: DecodingFailure?
                    When("a page whose third story has a string vote count is decoded") {
                        let json = try JSONFixture("stories.json").setting("stories[2].vote_count", to: "39").text
                        do { _ = try decode(StoriesPage.self, fromJSON: json, decoder: decoder) } catch {
                            failure = error as? DecodingFailure
                        }
                    }
                    Then("the reason is a type mismatch expecting Int") {
                        expect(failure?.reason).to(equal(.typeMismatch(expected: "Int")))
                    }
                    And("the coding path is stories[2].vote_count") {
                        expect(failure?.codingPath).to(equal("stories[2].vote_count"))
                    }
                }
            }

            Rule("One story") {
                Scenario("Every story file decodes and matches the front page") {
                    var stories: [Story] = []
                    When("Stubs/stories/101.json … 110.json are decoded") {
                        stories = try (101...110).map { id in
                            try decode(StoryEnvelope.self, fromFile: StubsFolder.file("stories/\(id).json"), decoder: decoder).story
                        }
                    }
                    Then("each equals the same story on the front page") {
                        let frontPage = try decode(StoriesPage.self, fromFile: StubsFolder.file("stories.json"), decoder: decoder)
                        expect(stories).to(equal(frontPage.stories))
                    }
                }
            }

            Rule("An access token") {
                Scenario("The token response decodes") {
                    var token: AccessToken!
                    When("Stubs/login_response.json is decoded") {
                        token = try decode(AccessToken.self, fromFile: StubsFolder.file("login_response.json"), decoder: decoder)
                    }
                    Then("it is a bearer token for the user scope, created at 2023-11-15 10:46:40 UTC") {
                        expect(token).to(
                            equal(
                                AccessToken(
                                    accessToken: "b4f1c2d9e8a7465f9c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b", tokenType: "bearer",
                                    scope: "user", createdAt: Date(timeIntervalSince1970: 1_700_045_200))))
                    }
                }

                Scenario("A token without scope and creation time decodes") {
                    Then("scope and created_at are optional") {
                        let token = try decode(
                            AccessToken.self, fromJSON: #"{"access_token": "abc", "token_type": "bearer"}"#, decoder: decoder)
                        expect(token).to(equal(AccessToken(accessToken: "abc", tokenType: "bearer")))
                    }
                }

                Scenario("A token response without the token names the key") {
                    Then("decoding fails at access_token") {
                        let json = try JSONFixture("login_response.json").removing("access_token").text
                        expect { try decode(AccessToken.self, fromJSON: json, decoder: decoder) }
                            .to(throwError(containing: "could not decode AccessToken: key not found at access_token"))
                    }
                }
            }

            Rule("Comments") {
                Scenario("The comments of story 101 decode, replies naming their parent") {
                    var comments: [Comment] = []
                    When("Stubs/comments/101.json is decoded") {
                        comments = try decode(CommentsEnvelope.self, fromFile: StubsFolder.file("comments/101.json"), decoder: decoder)
                            .comments
                    }
                    Then("there are 4 comments, two of them replies") {
                        expect(comments.map(\.id)).to(equal([9001, 9002, 9003, 9004]))
                        expect(comments.map(\.parentCommentID)).to(equal([nil, 9001, 9002, nil]))
                    }
                    And("the first one is Tom Okafor's, with 12 votes") {
                        expect(comments.first?.userDisplayName).to(equal("Tom Okafor"))
                        expect(comments.first?.voteCount).to(equal(12))
                        expect(comments.first?.createdAt).to(equal(DesignerNewsJSON.parseDate("2023-11-15T09:40:02Z")))
                    }
                }

                Scenario("A comment whose body is a number names its coding path") {
                    Then("decoding fails at comments[1].body") {
                        let json = try JSONFixture("comments/101.json").setting("comments[1].body", to: 42).text
                        expect { try decode(CommentsEnvelope.self, fromJSON: json, decoder: decoder) }
                            .to(throwError(containing: "could not decode CommentsEnvelope: type mismatch (String) at comments[1].body"))
                    }
                }
            }

            Rule("The signed-in reader") {
                Scenario("The reader decodes with an empty portrait") {
                    var user: User!
                    When("Stubs/me.json is decoded") {
                        user = try decode(UserEnvelope.self, fromFile: StubsFolder.file("me.json"), decoder: decoder).user
                    }
                    Then("it is the QA reader, without a portrait") {
                        expect(user.id).to(equal(4711))
                        expect(user.displayName).to(equal("QA Reader"))
                        expect(user.job).to(equal("Quality Engineer"))
                        expect(user.portraitURL).to(beNil())
                    }
                }

                Scenario("A reader without a display name names the key") {
                    Then("decoding fails at user.display_name") {
                        let json = try JSONFixture("me.json").removing("user.display_name").text
                        expect { try decode(UserEnvelope.self, fromJSON: json, decoder: decoder) }
                            .to(throwError(containing: "could not decode UserEnvelope: key not found at user.display_name"))
                    }
                }
            }

            Rule("The error envelope") {
                Scenario("A rejected login explains itself") {
                    Then("Stubs/login_error.json decodes as invalid_grant with a description") {
                        let envelope = try decode(APIErrorEnvelope.self, fromFile: StubsFolder.file("login_error.json"), decoder: decoder)
                        expect(envelope.error).to(equal("invalid_grant"))
                        expect(envelope.errorDescription).to(beginWith("The provided authorization grant is invalid"))
                    }
                }

                Scenario("An error without a description still decodes") {
                    Then("error_description is optional") {
                        let envelope = try decode(APIErrorEnvelope.self, fromJSON: #"{"error": "not_found"}"#, decoder: decoder)
                        expect(envelope).to(equal(APIErrorEnvelope(error: "not_found")))
                    }
                }
            }
        }
    }
}

/// How an outline row breaks a payload.
enum Change: CustomStringConvertible {
    case set(Any)
    case remove

    func apply(to fixture: JSONFixture, at path: String) -> JSONFixture {
        switch self {
        case .set(let value): fixture.setting(path, to: value)
        case .remove: fixture.removing(path)
        }
    }

    var description: String {
        switch self {
        case .set(let value): "set to \(value)"
        case .remove: "removed"
        }
    }
}
