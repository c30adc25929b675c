import DesignerNews
import Foundation
import TextSnapshot

// Screen snapshots drive the real view model in an environment made from each combination's
// language, against a FixtureAPI (no servers), then lay its state out on the device's grid.
// Inside a SpecKit scenario `#function` is not the scenario, so every state passes its own
// `testName`: it names the files under __Snapshots__/<spec file>/.

/// Snapshots the login screen in 6 languages × 5 devices after `drive` has played with the form.
/// `settle: false` snapshots while the login is still in flight.
@MainActor
func assertLoginScreen(
    api: FixtureAPI? = nil, settle: Bool = true, testName: String,
    file: StaticString = #filePath, line: UInt = #line, _ drive: (LoginViewModel) -> Void
) throws {
    let api = try api ?? FixtureAPI()
    assertScreenSnapshots(
        languages: Language.allCases, devices: Device.allCases, localizer: DesignerNewsStrings.localizer,
        file: file, testName: testName, line: line
    ) { context in
        AppEnvironment.withEnvironment(QAEnvironment.make(api: api, language: context.language)) {
            let viewModel = LoginViewModel()
            drive(viewModel)
            if settle { waitUntilIdle(viewModel.outputs.isLoading, file: file, line: line) }
            return LoginScreen(state: viewModel.outputs.state.value)
        }
    }
}

/// Snapshots the stories screen in 6 languages × 5 devices once the first page has loaded.
@MainActor
func assertStoriesScreen(
    api: FixtureAPI? = nil, testName: String, file: StaticString = #filePath, line: UInt = #line,
    _ drive: (StoriesViewModel) -> Void = { $0.inputs.viewDidLoad() }
) throws {
    let api = try api ?? FixtureAPI()
    assertScreenSnapshots(
        languages: Language.allCases, devices: Device.allCases, localizer: DesignerNewsStrings.localizer,
        file: file, testName: testName, line: line
    ) { context in
        AppEnvironment.withEnvironment(QAEnvironment.make(api: api, language: context.language)) {
            let viewModel = StoriesViewModel()
            drive(viewModel)
            waitUntilIdle(viewModel.outputs.isLoading, file: file, line: line)
            return StoriesScreen(state: viewModel.outputs.state.value)
        }
    }
}

/// Lets the view model's pending main-actor work run (the FixtureAPI answers at once).
@MainActor
private func waitUntilIdle(_ isLoading: Property<Bool>, file: StaticString, line: UInt) {
    expect(isLoading.value, file: file, line: line).toEventually(beFalse(), timeout: serverTimeout)
}
