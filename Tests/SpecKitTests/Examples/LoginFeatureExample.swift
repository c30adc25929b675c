import Foundation

/// The view-model example in docs/specs.md, run on every `make test`.
final class LoginFeatureExample: FeatureSpec {
    override func testFeature() {
        Feature("Login", description: "As a reader I want to sign in so that I can vote on stories.", tags: "example") {
            var vm: ExampleLoginViewModel!
            var loginEnabled: TestObserver<Bool>!
            var greetings: TestObserver<String>!

            Background {
                vm = ExampleLoginViewModel()
                loginEnabled = TestObserver()
                greetings = TestObserver()
                vm.outputs.isLoginEnabled.observe(loginEnabled.observer)
                vm.outputs.greeting.observe(greetings.observer)
            }
            justBeforeEach { vm.inputs.viewDidLoad() }

            Scenario("The login button starts disabled", tags: "smoke") {
                Then("the login button is disabled") { loginEnabled.assertValues([false]) }
                And("nobody is greeted") { greetings.assertDidNotEmitValue() }
            }

            Rule("Validation") {
                ScenarioOutline(
                    "<email> with a <length>-character password is <verdict>",
                    examples: [
                        (email: "ada@example.com", length: 8, verdict: "accepted", enabled: true),
                        (email: "ada@example.com", length: 3, verdict: "rejected", enabled: false),
                        (email: "not-an-email", length: 8, verdict: "rejected", enabled: false),
                    ]
                ) { row in
                    When("the reader types \(row.email)") { vm.inputs.emailChanged(row.email) }
                    And("a \(row.length)-character password") {
                        vm.inputs.passwordChanged(String(repeating: "x", count: row.length))
                    }
                    Then("the login button is \(row.enabled ? "enabled" : "disabled")") {
                        expect(loginEnabled.lastValue).to(equal(row.enabled))
                    }
                }

                context("when the environment accepts 3-character passwords") {
                    beforeEach { ExampleApp.environment.push(modifying: { $0.minimumPasswordLength = 3 }) }
                    afterEach { ExampleApp.environment.pop() }

                    Scenario("a 3-character password is enough") {
                        When("the reader types a 3-character password") {
                            vm.inputs.emailChanged("ada@example.com")
                            vm.inputs.passwordChanged("abc")
                        }
                        Then("the login button is enabled") { expect(loginEnabled.lastValue).to(beTrue()) }
                    }
                }
            }

            Scenario("Logging in greets the reader", tags: "smoke") {
                When("a reader logs in") {
                    vm.inputs.emailChanged("ada@example.com")
                    vm.inputs.passwordChanged("correct horse")
                    vm.inputs.loginTapped()
                }
                Then("they are greeted by email") {
                    expect(greetings.values).toEventually(equal(["Welcome, ada@example.com"]), timeout: 10)
                }
            }

            Scenario("The greeting follows the environment's language") {
                When("a German reader logs in") {
                    ExampleApp.environment.withEnvironment(modifying: { $0.greeting = "Willkommen" }) {
                        vm.inputs.emailChanged("ada@example.com")
                        vm.inputs.loginTapped()
                    }
                }
                await Then("the greeting is German") {
                    await expect(greetings.lastValue).toEventually(equal("Willkommen, ada@example.com"), timeout: 10)
                }
                And("the environment is English again") {
                    expect(ExampleApp.environment.current.greeting).to(equal("Welcome"))
                }
            }

            xScenario("Signing in with a passkey", "waiting for the identity API")
        }
    }
}
