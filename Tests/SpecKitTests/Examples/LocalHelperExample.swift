import Foundation

/// The "Good to know" example in docs/specs.md: a local helper function in a `Feature` body must be
/// marked `@MainActor` to touch a main-actor view model. Without the attribute this file does not
/// compile ("call to main actor-isolated instance method 'emailChanged' in a synchronous
/// nonisolated context"): Swift gives closures the main actor of the block they are passed to,
/// but not local functions.
final class LocalHelperExample: FeatureSpec {
    override func testFeature() {
        Feature("A helper for the login steps", tags: "example") {
            var vm: ExampleLoginViewModel!
            var greetings: TestObserver<String>!
            Background {
                vm = ExampleLoginViewModel()
                greetings = TestObserver()
                vm.outputs.greeting.observe(greetings.observer)
            }

            @MainActor func logIn(as email: String) {
                vm.inputs.emailChanged(email)
                vm.inputs.passwordChanged("correct horse")
                vm.inputs.loginTapped()
            }

            Scenario("A helper logs the reader in") {
                When("the reader logs in as ada@example.com") { logIn(as: "ada@example.com") }
                Then("they are greeted") {
                    expect(greetings.values).toEventually(equal(["Welcome, ada@example.com"]), timeout: 10)
                }
            }
        }
    }
}
