import Foundation

/// The decoding example in docs/specs.md, run on every `make test`.
final class StoryDecodingExample: FeatureSpec {
    override func testFeature() {
        Feature("Story decoding", tags: "example", "json") {
            let payload = #"""
                [{"id": 1, "title": "Launch day", "commentCount": 5, "url": "https://example.com/1"},
                 {"id": 2, "title": "Swift 6", "commentCount": 0}]
                """#

            Scenario("A complete payload decodes") {
                var stories: [ExampleStory] = []
                Given("the stories payload") { stories = try decode([ExampleStory].self, fromJSON: payload) }
                Then("every story is there") { expect(stories.map(\.title)).to(equal(["Launch day", "Swift 6"])) }
                And("a missing optional url decodes as nil") { expect(stories[1].url).to(beNil()) }
            }

            Scenario("A wrong type names the coding path") {
                Then("decoding fails at [1].id") {
                    let broken = payload.replacingOccurrences(of: #""id": 2"#, with: #""id": "2""#)
                    expect { try decode([ExampleStory].self, fromJSON: broken) }
                        .to(throwError(containing: "type mismatch (Int) at [1].id"))
                    expect(broken).toNot(beDecodable(as: [ExampleStory].self))
                }
            }

            Scenario("A story encodes to the stub's JSON") {
                Then("the JSON matches whatever the key order") {
                    let story = ExampleStory(id: 2, title: "Swift 6", commentCount: 0, url: nil)
                    expect(story).to(matchJSON(#"{"title": "Swift 6", "id": 2, "commentCount": 0}"#))
                }
            }
        }
    }
}
