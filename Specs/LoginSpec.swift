import DesignerNews
import Foundation
import StubServer
import TextSnapshot

/// The login form against a fresh stub server per scenario (Stubs/settings.json, a free port).
final class LoginSpec: FeatureSpec {
    override func testFeature() {
        Feature("Logging in", description: "As a reader I want to log in so that I can upvote stories") {
            var backend: StubbedBackend!
            var vm: LoginViewModel!
            var buttonEnabled: TestObserver<Bool>!
            var isLoading: TestObserver<Bool>!
            var emailError: TestObserver<String?>!
            var errorMessage: TestObserver<String?>!
            var loggedIn: TestObserver<AccessToken>!

            Background {
                backend = try StubbedBackend.start()
                vm = LoginViewModel()
                buttonEnabled = TestObserver()
                isLoading = TestObserver()
                emailError = TestObserver()
                errorMessage = TestObserver()
                loggedIn = TestObserver()
                vm.outputs.isLoginButtonEnabled.observe(buttonEnabled.observer)
                vm.outputs.isLoading.observe(isLoading.observer)
                vm.outputs.emailError.observe(emailError.observer)
                vm.outputs.errorMessage.observe(errorMessage.observer)
                vm.outputs.loginSucceeded.observe(loggedIn.observer)
            }
            afterEach { backend.stop() }

            Rule("The form") {
                Scenario("An empty form cannot be sent") {
                    Then("the login button is disabled") { buttonEnabled.assertValues([false]) }
                }

                ScenarioOutline(
                    "\"<email>\" with <password> <verdict>",
                    examples: [
                        (email: "qa@example.com", password: "a password", verdict: "enables the button", enabled: true),
                        (email: "qa@example.com", password: "no password", verdict: "leaves the button disabled", enabled: false),
                        (email: "qa@example", password: "a password", verdict: "leaves the button disabled", enabled: false),
                        (email: "@example.com", password: "a password", verdict: "leaves the button disabled", enabled: false),
                        (email: "qa @example.com", password: "a password", verdict: "leaves the button disabled", enabled: false),
                        (email: " qa@example.com ", password: "a password", verdict: "enables the button", enabled: true),
                    ]
                ) { row in
                    When("the reader types \"\(row.email)\" and \(row.password)") {
                        vm.inputs.emailChanged(row.email)
                        vm.inputs.passwordChanged(row.password == "no password" ? "" : "secret")
                    }
                    Then("the login button \(row.enabled ? "is enabled" : "stays disabled")") {
                        expect(buttonEnabled.lastValue).to(equal(row.enabled))
                    }
                }

                Scenario("An invalid email is pointed out when the reader leaves the field") {
                    When("the reader types \"lena@designernews\"") { vm.inputs.emailChanged("lena@designernews") }
                    Then("no hint is shown while typing") { emailError.assertValues([nil]) }
                    When("the reader leaves the email field") { vm.inputs.emailFieldDidEndEditing() }
                    Then("the hint asks for a valid email address") {
                        emailError.assertLastValue("Enter a valid email address.")
                    }
                    When("the reader completes the address") { vm.inputs.emailChanged("lena@designernews.co") }
                    Then("the hint disappears") { emailError.assertValues([nil, "Enter a valid email address.", nil]) }
                }
            }

            Rule("Success") {
                Scenario("The QA account logs in and the token is stored", tags: "smoke") {
                    When("the reader logs in as qa@example.com with the right password") {
                        vm.inputs.emailChanged("qa@example.com")
                        vm.inputs.passwordChanged("secret")
                        vm.inputs.loginButtonTapped()
                    }
                    Then("the login succeeds with the token of Stubs/login_response.json") {
                        let token = try Fixtures.accessToken.accessToken
                        expect(loggedIn.values.map(\.accessToken)).toEventually(equal([token]), timeout: serverTimeout)
                    }
                    And("the token is stored") {
                        let token = try Fixtures.accessToken.accessToken
                        expect(backend.tokenStore.string(forKey: AppEnvironment.accessTokenKey)).to(equal(token))
                    }
                    And("the API now sends it") {
                        let token = try Fixtures.accessToken.accessToken
                        expect(AppEnvironment.current.api.accessToken).to(equal(token))
                    }
                    And("the app sent one form-encoded password grant with its client credentials") {
                        let sent = backend.requests(
                            .post("/oauth/token")
                                .withFormField("grant_type", "password")
                                .withFormField("username", "qa@example.com")
                                .withFormField("password", "secret")
                                .withFormField("client_id", "designernews-ios")
                                .withFormField("client_secret")
                                .withHeader("Content-Type", "application/x-www-form-urlencoded"))
                        expect(sent).to(haveCount(1))
                        expect(backend.unmatchedRequests).to(beEmpty())
                    }
                }

                Scenario("The form shows it is busy while the token is on its way") {
                    Given("a server that answers logins after half a second") { backend.switchTo(.slow) }
                    When("the reader logs in") {
                        vm.inputs.emailChanged("qa@example.com")
                        vm.inputs.passwordChanged("secret")
                        vm.inputs.loginButtonTapped()
                    }
                    Then("the form is loading and the button disabled") {
                        isLoading.assertLastValue(true)
                        buttonEnabled.assertLastValue(false)
                    }
                    When("the reader taps login again") { vm.inputs.loginButtonTapped() }
                    Then("loading ends once, with the button enabled again") {
                        expect(isLoading.values).toEventually(equal([false, true, false]), timeout: serverTimeout)
                        buttonEnabled.assertValues([false, true, false, true])
                    }
                    And("only one token request was sent") {
                        expect(backend.server).to(haveReceived(.post("/oauth/token"), times: 1))
                    }
                }
            }

            Rule("Failures in the reader's language") {
                ScenarioOutline(
                    "<failure> in <language>",
                    examples: [
                        (
                            failure: "A wrong password", language: Language.en, password: "wrong", world: World.normal,
                            message: "The email or password is incorrect."
                        ),
                        (
                            failure: "A wrong password", language: .de, password: "wrong", world: .normal,
                            message: "E-Mail-Adresse oder Passwort ist falsch."
                        ),
                        (
                            failure: "A wrong password", language: .ja, password: "wrong", world: .normal,
                            message: "メールアドレスまたはパスワードが正しくありません。"
                        ),
                        (
                            failure: "A server outage", language: .fr, password: "secret", world: .outage,
                            message: "Designer News rencontre des difficultés. Veuillez réessayer plus tard."
                        ),
                        (
                            failure: "A server outage", language: .ar, password: "secret", world: .outage,
                            message: "يواجه Designer News مشكلة حاليًا. يُرجى المحاولة مرة أخرى لاحقًا."
                        ),
                        (
                            failure: "A server outage", language: .es, password: "secret", world: .outage,
                            message: "Designer News tiene problemas en este momento. Inténtalo de nuevo más tarde."
                        ),
                    ]
                ) { row in
                    Given("a reader whose app is in \(row.language.displayName)") {
                        AppEnvironment.replaceCurrentEnvironment(language: row.language)
                        backend.switchTo(row.world)
                    }
                    When("they log in as qa@example.com with the password \"\(row.password)\"") {
                        vm.inputs.emailChanged("qa@example.com")
                        vm.inputs.passwordChanged(row.password)
                        vm.inputs.loginButtonTapped()
                    }
                    Then("the form says \"\(row.message)\"") {
                        expect(errorMessage.lastValue ?? nil).toEventually(equal(row.message), timeout: serverTimeout)
                    }
                    And("no token is stored and the button can be tapped again") {
                        expect(backend.tokenStore.allValues).to(beEmpty())
                        loggedIn.assertDidNotEmitValue()
                        buttonEnabled.assertLastValue(true)
                    }
                }

                Scenario("Typing again clears the error") {
                    Given("a login rejected for a wrong password") {
                        vm.inputs.emailChanged("qa@example.com")
                        vm.inputs.passwordChanged("wrong")
                        vm.inputs.loginButtonTapped()
                        expect(errorMessage.lastValue ?? nil).toEventually(
                            equal("The email or password is incorrect."), timeout: serverTimeout)
                    }
                    When("the reader corrects the password") { vm.inputs.passwordChanged("secret") }
                    Then("the error is gone") { errorMessage.assertLastValue(nil) }
                }
            }
        }
    }
}
