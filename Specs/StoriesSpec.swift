import DesignerNews
import Foundation
import StubServer
import TextSnapshot

/// The front page against a fresh stub server per scenario.
final class StoriesSpec: FeatureSpec {
    override func testFeature() {
        Feature("Reading the front page", description: "As a reader I want the newest design stories, page by page") {
            var backend: StubbedBackend!
            var vm: StoriesViewModel!
            var rows: TestObserver<[StoryRow]>!
            var isLoading: TestObserver<Bool>!
            var isRefreshing: TestObserver<Bool>!
            var showEmptyState: TestObserver<Bool>!
            var errorMessage: TestObserver<String?>!
            var openURL: TestObserver<URL>!

            Background {
                backend = try StubbedBackend.start()
                vm = StoriesViewModel()
                rows = TestObserver()
                isLoading = TestObserver()
                isRefreshing = TestObserver()
                showEmptyState = TestObserver()
                errorMessage = TestObserver()
                openURL = TestObserver()
                vm.outputs.rows.observe(rows.observer)
                vm.outputs.isLoading.observe(isLoading.observer)
                vm.outputs.isRefreshing.observe(isRefreshing.observer)
                vm.outputs.showEmptyState.observe(showEmptyState.observer)
                vm.outputs.errorMessage.observe(errorMessage.observer)
                vm.outputs.openURL.observe(openURL.observer)
            }
            afterEach { backend.stop() }

            /// Waits for the first page (or its failure) to arrive.
            @MainActor func waitForTheFirstPage() {
                expect(isLoading.values).toEventually(equal([false, true, false]), timeout: serverTimeout)
            }

            Scenario("The front page lists the newest stories", tags: "smoke") {
                When("the reader opens the app") {
                    vm.inputs.viewDidLoad()
                    waitForTheFirstPage()
                }
                Then("10 stories are listed, newest first") {
                    expect(rows.lastValue?.map(\.id)).to(equal(Array(101...110)))
                }
                And("each row says points, comments and age") {
                    expect(rows.lastValue?.first?.meta).to(equal("118 points · 42 comments · 2 hours ago"))
                    expect(rows.lastValue?.last?.meta).to(equal("201 points · 37 comments · 2 days ago"))
                }
                And("who posted it and where it links to") {
                    expect(rows.lastValue?.first?.byline).to(equal("by Lena Roth · medium.com"))
                    expect(rows.lastValue?[2].byline).to(equal("by Priya Natarajan"))
                }
                And("the app asked for page 1 with its client id") {
                    expect(backend.requests(.get("/api/v1/stories").withQuery("page", "1").withQuery("client_id", "designernews-ios")))
                        .to(haveCount(1))
                }
            }

            Scenario("Tapping a story opens its link") {
                Given("the front page") {
                    vm.inputs.viewDidLoad()
                    waitForTheFirstPage()
                }
                When("the reader taps the story about airport signage") { vm.inputs.storyTapped(storyID: 104) }
                Then("its article opens") {
                    openURL.assertValues([URL(string: "https://www.typeroom.eu/the-typography-of-airport-signage")!])
                }
            }

            Rule("Pages") {
                Scenario("Scrolling to the last row loads the next page") {
                    Given("the front page") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    When("the reader scrolls to the 10th row") { vm.inputs.willDisplayRow(9, outOf: 10) }
                    Then("the 5 older stories of page 2 are added below") {
                        expect(rows.lastValue?.map(\.id)).toEventually(equal(Array(101...115)), timeout: serverTimeout)
                    }
                    And("page 2 was asked for once") {
                        expect(backend.server).to(haveReceived(.get("/api/v1/stories").withQuery("page", "2"), times: 1))
                    }
                    When("the reader scrolls to the end again") { vm.inputs.willDisplayRow(14, outOf: 15) }
                    Then("nothing more is asked for: page 2 was the last") {
                        expect(backend.requests(.get("/api/v1/stories"))).to(haveCount(2))
                    }
                }

                Scenario("Rows before the last one load nothing") {
                    Given("the front page") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    When("the reader sees rows 1 to 9") {
                        for row in 0..<9 { vm.inputs.willDisplayRow(row, outOf: 10) }
                    }
                    Then("only page 1 was asked for") {
                        expect(backend.requests(.get("/api/v1/stories"))).to(haveCount(1))
                    }
                }
            }

            Rule("Pull to refresh") {
                Scenario("Refreshing brings the newer stories to the top") {
                    Given("a server whose front page gets two new stories after the first visit") { backend.switchTo(.newerOnRefresh) }
                    And("the front page") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    When("the reader pulls to refresh") { vm.inputs.refresh() }
                    Then("the list stays visible while refreshing") {
                        isRefreshing.assertLastValue(true)
                        isLoading.assertLastValue(false)
                        expect(rows.lastValue).to(haveCount(10))
                    }
                    And("the two new stories come first once it is done") {
                        expect(isRefreshing.values).toEventually(equal([false, true, false]), timeout: serverTimeout)
                        expect(rows.lastValue?.prefix(3).map(\.id)).to(equal([202, 201, 101]))
                    }
                    And("the newest reads \"1 point · 0 comments · just now\"") {
                        expect(rows.lastValue?.first?.meta).to(equal("1 point · 0 comments · just now"))
                    }
                }
            }

            Rule("Empty and error states") {
                Scenario("An empty front page says so") {
                    Given("a server with no stories") { backend.switchTo(.empty) }
                    When("the reader opens the app") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    Then("the empty state is shown, with no rows and no error") {
                        showEmptyState.assertValues([false, true])
                        rows.assertValues([[]])
                        errorMessage.assertValues([nil])
                    }
                }

                Scenario("A server error offers a retry that recovers") {
                    Given("a server that is down") { backend.switchTo(.outage) }
                    When("the reader opens the app") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    Then("the error state explains it") {
                        errorMessage.assertValues([nil, "Designer News is having trouble right now. Please try again later."])
                        rows.assertValues([[]])
                    }
                    When("the server is back and the reader taps retry") {
                        backend.switchTo(.normal)
                        vm.inputs.retryButtonTapped()
                    }
                    Then("the stories are listed and the error is gone") {
                        expect(rows.lastValue).toEventually(haveCount(10), timeout: serverTimeout)
                        errorMessage.assertLastValue(nil)
                    }
                    And("the app asked twice") {
                        expect(backend.requests(.get("/api/v1/stories"))).to(haveCount(2))
                    }
                }

                Scenario("A malformed story is an error, not a crash") {
                    Given("a server whose front page has a vote count written as a string") { backend.switchTo(.broken) }
                    When("the reader opens the app") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    Then("the error state asks to try again") {
                        errorMessage.assertLastValue("Something went wrong. Please try again.")
                    }
                }
            }

            Rule("Reader's locale") {
                ScenarioOutline(
                    "<language> in <zone> reads <meta>",
                    examples: [
                        (language: Language.en, zone: "UTC", meta: "201 points · 37 comments · 2 days ago"),
                        (language: .de, zone: "UTC", meta: "201 Punkte · 37 Kommentare · vor 2 Tagen"),
                        (language: .fr, zone: "UTC", meta: "201 points · 37 commentaires · il y a 2 jours"),
                        (language: .es, zone: "America/Los_Angeles", meta: "201 puntos · 37 comentarios · hace 2 días"),
                        (language: .ja, zone: "Asia/Tokyo", meta: "201ポイント · コメント37件 · 昨日"),
                        (language: .ar, zone: "UTC", meta: "201 نقطة · 37 تعليقًا · منذ يومين"),
                    ]
                ) { row in
                    Given("a reader in \(row.language.displayName) whose clock says 2023-11-15 12:00 UTC, in \(row.zone)") {
                        AppEnvironment.replaceCurrentEnvironment(language: row.language, timeZone: TimeZone(identifier: row.zone)!)
                    }
                    When("the front page loads") {
                        vm.inputs.viewDidLoad()
                        waitForTheFirstPage()
                    }
                    Then("the story posted 2023-11-13 18:11 UTC reads \"\(row.meta)\"") {
                        expect(rows.lastValue?.last?.meta).to(equal(row.meta))
                    }
                }
            }
        }
    }
}
