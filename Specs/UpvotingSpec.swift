import DesignerNews
import Foundation
import StubServer

/// Upvotes show at once and are taken back when the server refuses them.
final class UpvotingSpec: FeatureSpec {
    override func testFeature() {
        Feature("Upvoting a story", description: "As a reader I want my upvote to count at once, and to know when it did not") {
            var backend: StubbedBackend!
            var vm: StoriesViewModel!
            var rows: TestObserver<[StoryRow]>!
            var messages: TestObserver<String>!
            var goToLogin: TestObserver<Void>!

            Background {
                backend = try StubbedBackend.start()
                vm = StoriesViewModel()
                rows = TestObserver()
                messages = TestObserver()
                goToLogin = TestObserver()
                vm.outputs.rows.observe(rows.observer)
                vm.outputs.showMessage.observe(messages.observer)
                vm.outputs.goToLogin.observe(goToLogin.observer)
            }
            afterEach { backend.stop() }

            /// The votes and upvote marks of story 101 as the rows showed them, oldest first.
            @MainActor func votesOfTheFirstStory() -> [String] {
                rows.values.compactMap { $0.first { $0.id == 101 } }.map { "\($0.voteCount)\($0.isUpvoted ? "▲" : "△")" }
            }

            @MainActor func openTheFrontPage() {
                vm.inputs.viewDidLoad()
                expect(rows.lastValue).toEventually(haveCount(10), timeout: serverTimeout)
            }

            Scenario("An upvote counts at once and the server agrees", tags: "smoke") {
                Given("a logged-in reader on the front page") {
                    try backend.logIn()
                    openTheFrontPage()
                }
                When("they upvote the story with 118 points") { vm.inputs.upvoteButtonTapped(storyID: 101) }
                Then("it shows 119 points, upvoted, before the server answers") {
                    expect(votesOfTheFirstStory()).to(equal(["118△", "119▲"]))
                    expect(rows.lastValue?.first?.meta).to(equal("119 points · 42 comments · 2 hours ago"))
                }
                And("the server got one upvote with the reader's token") {
                    let token = try Fixtures.accessToken.accessToken
                    expect(backend.requests(.post("/api/v1/stories/101/upvote").withHeader("Authorization", "Bearer \(token)")))
                        .toEventually(haveCount(1), timeout: serverTimeout)
                }
                And("the count stays at 119 with no message") {
                    expect(votesOfTheFirstStory()).to(equal(["118△", "119▲"]))
                    messages.assertDidNotEmitValue()
                }
            }

            Scenario("A refused upvote is taken back") {
                Given("a logged-in reader on the front page") {
                    try backend.logIn()
                    openTheFrontPage()
                }
                And("a server that refuses votes with 503") { backend.switchTo(.votesFail) }
                When("they upvote the story with 118 points") { vm.inputs.upvoteButtonTapped(storyID: 101) }
                Then("it goes to 119, then back to 118") {
                    expect(votesOfTheFirstStory()).toEventually(equal(["118△", "119▲", "118△"]), timeout: serverTimeout)
                }
                And("the reader is told the vote did not count") {
                    messages.assertValues(["Your upvote didn’t count. Please try again."])
                }
            }

            Scenario("A second tap on an upvoted story sends nothing") {
                Given("a logged-in reader who upvoted a story") {
                    try backend.logIn()
                    openTheFrontPage()
                    vm.inputs.upvoteButtonTapped(storyID: 101)
                    expect(backend.requests(.post("/api/v1/stories/101/upvote"))).toEventually(haveCount(1), timeout: serverTimeout)
                }
                When("they tap the arrow again") { vm.inputs.upvoteButtonTapped(storyID: 101) }
                Then("no second upvote is sent and the count stays at 119") {
                    expect(backend.requests(.post("/api/v1/stories/101/upvote"))).to(haveCount(1))
                    expect(rows.lastValue?.first?.voteCount).to(equal(119))
                }
            }

            Scenario("A reader who is not logged in is asked to log in") {
                Given("a reader without a token on the front page") { openTheFrontPage() }
                When("they upvote a story") { vm.inputs.upvoteButtonTapped(storyID: 101) }
                Then("the login screen is requested") { goToLogin.assertValueCount(1) }
                And("nothing is sent and the count is unchanged") {
                    expect(backend.requests(.post("/api/v1/stories/101/upvote"))).to(beEmpty())
                    expect(votesOfTheFirstStory()).to(equal(["118△"]))
                }
            }
        }
    }
}
