import DesignerNews
import Foundation

/// The stories screen as readers see it: 3 states × 7 languages × 6 devices, plus the front page in
/// accessibility-sized text on a 6.1" phone; reviewed text files
/// under __Snapshots__/StoriesScreenSnapshots/. No servers: the view model runs against a FixtureAPI
/// serving Stubs/stories.json, with the clock at 2023-11-15 12:00 UTC.
final class StoriesScreenSnapshots: FeatureSpec {
    override func testFeature() {
        Feature("The stories screen in every language and on every device") {
            Scenario("The front page") {
                Then("ten stories with points, comments, age and author") {
                    try assertStoriesScreen(testName: "storiesList")
                }
            }

            Scenario("The front page in the largest accessibility text") {
                Then("titles wrap over more lines and fewer stories fit above the fold") {
                    try assertStoriesScreen(
                        testName: "storiesListLargeText", languages: [.en, .ar, .pt],
                        devices: [.phone6_1inch.with(dynamicType: .accessibility3)])
                }
            }

            Scenario("An empty front page") {
                Then("the empty state invites the reader to refresh later") {
                    try assertStoriesScreen(api: try FixtureAPI(stories: .value(StoriesPage(stories: []))), testName: "storiesEmpty")
                }
            }

            Scenario("A front page that failed to load") {
                Then("the error state explains it and offers a retry") {
                    let outage = APIError.http(status: 500, envelope: APIErrorEnvelope(error: "server_error"))
                    try assertStoriesScreen(api: try FixtureAPI(stories: .failure(outage)), testName: "storiesError")
                }
            }
        }
    }
}
