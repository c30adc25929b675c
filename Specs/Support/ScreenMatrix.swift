import DesignerNews
import Foundation
import TextSnapshot

// Screen snapshots drive the real view model in an environment made from each combination's
// language, against a FixtureAPI (no servers), then lay its state out on the device's grid.
// Inside a SpecKit scenario `#function` is not the scenario, so every state passes its own
// `testName`: it names the files under __Snapshots__/<spec file>/.

/// The QA matrix: Kickstarter's six languages plus Portuguese, on Kickstarter's five devices plus a
/// current 6.1" iPhone. The original 6 × 5 snapshot files keep their names; Portuguese and the
/// 6.1" phone only add files.
let qaLanguages: [Language] = Language.allCases + [.pt]
let qaDevices: [Device] = Device.allCases + [.phone6_1inch]

/// Snapshots the login screen in 7 languages × 6 devices after `drive` has played with the form.
/// `settle: false` snapshots while the login is still in flight.
@MainActor
func assertLoginScreen(
    api: FixtureAPI? = nil, settle: Bool = true, testName: String,
    languages: [Language] = qaLanguages, devices: [Device] = qaDevices,
    file: StaticString = #filePath, line: UInt = #line, _ drive: (LoginViewModel) -> Void
) throws {
    let api = try api ?? FixtureAPI()
    assertScreenSnapshots(
        languages: languages, devices: devices, localizer: DesignerNewsStrings.localizer,
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

/// Snapshots the stories screen in 7 languages × 6 devices once the first page has loaded.
@MainActor
func assertStoriesScreen(
    api: FixtureAPI? = nil, testName: String, languages: [Language] = qaLanguages, devices: [Device] = qaDevices,
    file: StaticString = #filePath, line: UInt = #line,
    _ drive: (StoriesViewModel) -> Void = { $0.inputs.viewDidLoad() }
) throws {
    let api = try api ?? FixtureAPI()
    assertScreenSnapshots(
        languages: languages, devices: devices, localizer: DesignerNewsStrings.localizer,
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
