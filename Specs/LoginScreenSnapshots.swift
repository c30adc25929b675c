import DesignerNews
import Foundation

/// The login screen as readers see it: 4 states × 7 languages × 6 devices, reviewed text files
/// under __Snapshots__/LoginScreenSnapshots/. No servers: the view model runs against a FixtureAPI.
final class LoginScreenSnapshots: FeatureSpec {
    override func testFeature() {
        Feature("The login screen in every language and on every device") {
            Scenario("An empty form") {
                Then("the form waits for an email and a password, the button disabled") {
                    try assertLoginScreen(testName: "loginEmpty") { _ in }
                }
            }

            Scenario("An email without a domain") {
                Then("the email hint is shown under the field") {
                    try assertLoginScreen(testName: "loginInvalidEmail") { vm in
                        vm.inputs.emailChanged("lena@designernews")
                        vm.inputs.emailFieldDidEndEditing()
                        vm.inputs.passwordChanged("secret")
                    }
                }
            }

            Scenario("A login in flight") {
                Then("the button gives way to a busy indicator") {
                    try assertLoginScreen(api: try FixtureAPI(login: .never), settle: false, testName: "loginLoading") { vm in
                        vm.inputs.emailChanged("qa@example.com")
                        vm.inputs.passwordChanged("secret")
                        vm.inputs.loginButtonTapped()
                    }
                }
            }

            Scenario("A wrong password") {
                Then("the error is shown above the button") {
                    let rejected = APIError.http(status: 401, envelope: APIErrorEnvelope(error: "invalid_grant"))
                    try assertLoginScreen(api: try FixtureAPI(login: .failure(rejected)), testName: "loginError") { vm in
                        vm.inputs.emailChanged("qa@example.com")
                        vm.inputs.passwordChanged("wrong")
                        vm.inputs.loginButtonTapped()
                    }
                }
            }
        }
    }
}
