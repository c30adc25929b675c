import DesignerNews
import Foundation
import StubServer

/// The app against the API's contract: a stub server that checks every exchange against
/// `Stubs/openapi.yaml` (what `stubserver start --openapi Stubs/openapi.yaml` does), so a spec
/// fails when the app sends what the real API would reject.
final class ContractSpec: FeatureSpec {
    override func testFeature() {
        Feature(
            "Talking to the API as its OpenAPI document says",
            description: "As a team we want specs to fail when the app drifts from the API"
        ) {
            var backend: StubbedBackend!
            var vm: StoriesViewModel!
            var rows: TestObserver<[StoryRow]>!

            Background {
                backend = try StubbedBackend.start(checkingContract: true)
                vm = StoriesViewModel()
                rows = TestObserver()
                vm.outputs.rows.observe(rows.observer)
            }
            afterEach { backend.stop() }

            Scenario("Reading two pages and upvoting sends only what the API accepts") {
                Given("a logged-in reader on the front page") {
                    try backend.logIn()
                    vm.inputs.viewDidLoad()
                    expect(rows.lastValue).toEventually(haveCount(10), timeout: serverTimeout)
                }
                When("they scroll to the last row and upvote a story") {
                    vm.inputs.willDisplayRow(9, outOf: 10)
                    expect(rows.lastValue).toEventually(haveCount(15), timeout: serverTimeout)
                    vm.inputs.upvoteButtonTapped(storyID: 101)
                    expect(backend.requests(.post("/api/v1/stories/101/upvote"))).toEventually(haveCount(1), timeout: serverTimeout)
                }
                Then("no request or stub response broke the document") {
                    expect(backend.server).to(haveNoContractViolations())
                }
            }
        }
    }
}
