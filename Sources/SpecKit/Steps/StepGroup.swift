/// A reusable group of steps, the Gherkin-side shared behaviour: it runs as one step whose inner
/// steps are recorded beneath it (indented in the living document), with the same skip-after-
/// failure rules as any step.
///
/// ```swift
/// let signedIn = StepGroup("Given", "a signed-in reader") { (email: String) in
///     Given("the login screen") { vm = LoginViewModel() }
///     When("they sign in as \(email)") { vm.inputs.email(email); vm.inputs.loginTapped() }
///     Then("they are signed in") { expect(vm.outputs.isSignedIn.value).to(beTrue()) }
/// }
///
/// Scenario("Upvoting a story") {
///     signedIn("ada@example.com")
///     When("they upvote the first story") { … }
/// }
/// ```
/// Declare it where scenarios can reach it (a `let` in the Feature body, or a static property).
public struct StepGroup<Input> {
    enum Body {
        case sync(@MainActor (Input) throws -> Void)
        case async(@MainActor (Input) async throws -> Void)
    }

    /// `Given`, `When`, `Then`, `And` or `But`.
    public let keyword: String
    /// The step text the group is reported as.
    public let text: String
    let body: Body

    public init(_ keyword: String = "Given", _ text: String, _ body: @escaping @MainActor (Input) throws -> Void) {
        self.keyword = keyword
        self.text = text
        self.body = .sync(body)
    }

    public init(_ keyword: String = "Given", _ text: String, _ body: @escaping @MainActor (Input) async throws -> Void) {
        self.keyword = keyword
        self.text = text
        self.body = .async(body)
    }

    /// Runs the group as a step; `as text` replaces the reported step text for this use.
    @MainActor
    public func callAsFunction(_ input: Input, as text: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let site = CallSite(file: file, line: line)
        switch body {
        case .sync(let body):
            StepRunner.run(keyword, text ?? self.text, site) { try body(input) }
        case .async:
            StepRunner.run(keyword, text ?? self.text, site) {
                throw StepArgumentError(message: "this step group is async: call it with `await`")
            }
        }
    }

    /// Async use: `await signedIn("ada@example.com")`.
    @MainActor
    public func callAsFunction(
        _ input: Input, as text: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async {
        let site = CallSite(file: file, line: line)
        switch body {
        case .sync(let body): StepRunner.run(keyword, text ?? self.text, site) { try body(input) }
        case .async(let body): await StepRunner.run(keyword, text ?? self.text, site) { try await body(input) }
        }
    }
}

extension StepGroup where Input == Void {
    /// Runs a group that takes no input: `aFreshInstall()`.
    @MainActor
    public func callAsFunction(as text: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        callAsFunction((), as: text, file: file, line: line)
    }

    /// Async use of a group that takes no input: `await aFreshInstall()`.
    @MainActor
    public func callAsFunction(as text: String? = nil, file: StaticString = #filePath, line: UInt = #line) async {
        await callAsFunction((), as: text, file: file, line: line)
    }
}
