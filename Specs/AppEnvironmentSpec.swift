import DesignerNews
import Foundation
import TextSnapshot

/// The stack of environments the app reads everything from (Kickstarter's AppEnvironment).
final class AppEnvironmentSpec: FeatureSpec {
    override func testFeature() {
        Feature("The app's environment", description: "As a developer I want every outside input of the app in one place I can swap") {
            var depth = 0
            Background { depth = AppEnvironment.depth }
            afterEach {
                while AppEnvironment.depth > depth { AppEnvironment.popEnvironment() }
            }

            Scenario("Pushing and popping an environment") {
                Given("an app in English") { AppEnvironment.pushEnvironment(QAEnvironment.make(language: .en)) }
                When("a Japanese environment is pushed") { AppEnvironment.pushEnvironment(language: .ja) }
                Then("the app is in Japanese, with the Japanese locale") {
                    expect(AppEnvironment.current.language).to(equal(.ja))
                    expect(AppEnvironment.current.locale.identifier).to(equal("ja_JP"))
                    expect(AppEnvironment.current.strings("login.button")).to(equal("ログイン"))
                }
                When("it is popped") { AppEnvironment.popEnvironment() }
                Then("the app is in English again") { expect(AppEnvironment.current.language).to(equal(.en)) }
            }

            Scenario("withEnvironment restores the previous one, even when its body throws") {
                struct Interrupted: Error {}
                var languageInside: Language?
                var thrown: Error?
                Given("an app in English") { AppEnvironment.pushEnvironment(QAEnvironment.make(language: .en)) }
                When("a body run in Arabic throws") {
                    do {
                        try AppEnvironment.withEnvironment(language: .ar) {
                            languageInside = AppEnvironment.current.language
                            throw Interrupted()
                        }
                    } catch {
                        thrown = error
                    }
                }
                Then("the body ran in Arabic and its error came out") {
                    expect(languageInside).to(equal(.ar))
                    expect(thrown is Interrupted).to(beTrue())
                }
                And("the app is in English again") { expect(AppEnvironment.current.language).to(equal(.en)) }
            }

            Scenario("Logging in stores the token and authorizes the API") {
                let store = InMemoryKeyValueStore()
                Given("a signed-out reader") { AppEnvironment.pushEnvironment(QAEnvironment.make(keyValueStore: store)) }
                When("the app logs them in") { AppEnvironment.login(AccessToken(accessToken: "t0k3n")) }
                Then("the token is stored and the API sends it") {
                    expect(store.string(forKey: AppEnvironment.accessTokenKey)).to(equal("t0k3n"))
                    expect(AppEnvironment.current.storedAccessToken).to(equal("t0k3n"))
                    expect(AppEnvironment.current.api.accessToken).to(equal("t0k3n"))
                }
                When("the app logs them out") { AppEnvironment.logout() }
                Then("the token is gone from both") {
                    expect(store.allValues).to(beEmpty())
                    expect(AppEnvironment.current.api.accessToken).to(beNil())
                }
            }

            Scenario("The clock and time zone are the environment's, never the machine's") {
                Given("an environment whose clock says 2023-11-15 12:00 UTC, in Tokyo") {
                    AppEnvironment.pushEnvironment(QAEnvironment.make(timeZone: TimeZone(identifier: "Asia/Tokyo")!))
                }
                Then("now is that instant and the calendar counts days in Tokyo") {
                    expect(AppEnvironment.current.now).to(equal(QAEnvironment.now))
                    let calendar = AppEnvironment.current.localCalendar
                    expect(calendar.component(.hour, from: AppEnvironment.current.now)).to(equal(21))
                }
            }
        }
    }
}
