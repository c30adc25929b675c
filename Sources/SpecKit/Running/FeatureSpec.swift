import Foundation
import XCTest

/// The base class of a spec: override `testFeature()` and declare one `Feature`.
/// Every scenario (and every outline row) becomes its own XCTest test.
///
/// ```swift
/// // Tests/MySpecs/SpecKitBootstrap.swift — once per test target, required on Linux:
/// @_exported import SpecKit
///
/// // Tests/MySpecs/LoginFeature.swift
/// import SpecKit
///
/// final class LoginFeature: FeatureSpec {
///     override func testFeature() {
///         Feature("Login") {
///             Scenario("The button starts disabled") {
///                 Then("the login button is disabled") { expect(LoginViewModel().isLoginEnabled).to(beFalse()) }
///             }
///         }
///     }
/// }
/// ```
///
/// Keep the class itself free of `@MainActor` (a main-actor XCTestCase crashes
/// the Linux runner); scenario, hook and step bodies already run on the main actor.
open class FeatureSpec: XCTestCase {
    /// Declares the feature. SpecKit calls it while building the test list;
    /// run as a test of its own it fails, because that only happens when the
    /// scenarios could not be expanded (see the bootstrap file above).
    open func testFeature() {}

    private let recorderSlot = Locked<ScenarioRecorder?>(nil)

    /// The scenario this test case ran, for the reporter.
    var recorder: ScenarioRecorder? { recorderSlot.snapshot }

    private let anchorRan = Locked(false)

    /// True the first time only: the anchor runs the feature once, however many declarations it reaches.
    func claimAnchorRun() -> Bool {
        anchorRan.withLock { ran in
            defer { ran = true }
            return !ran
        }
    }

    func attach(_ recorder: ScenarioRecorder) {
        recorderSlot.withLock { $0 = recorder }
    }

    #if canImport(ObjectiveC)
    // Apple platforms: XCTest builds suites through the Objective-C runtime,
    // so each scenario is added as a method and listed here (as Quick does).

    override open class var defaultTestSuite: XCTestSuite {
        let base = super.defaultTestSuite
        guard let registered = registerScenarioMethods() else { return base }
        let scenarioMethods = Set(registered.map(\.method))
        // Our own per-class suite: it runs the class `setUp()`/`tearDown()` as XCTest's does, lists
        // the scenarios in declaration order, and leaves out the `testFeature` anchor, whose
        // scenarios run as tests of their own, and scenario methods inherited from a parent spec.
        let suite = FeatureTestSuite(name: base.name, specClass: self)
        for test in base.tests {
            let method = RuntimeTestName.method(of: test.name)
            if method == "testFeature" || scenarioMethods.contains(method) || isInheritedScenarioMethod(method) { continue }
            suite.addTest(test)
        }
        for entry in registered {
            suite.addTest(makeTestCase(method: RuntimeTestName.selectorName(forMethod: entry.method)))
        }
        return suite
    }

    /// Running a single test (Xcode's diamond, `-only-testing`, `swift test --filter`) skips
    /// `defaultTestSuite` and asks this instead, so register here too (once; cached).
    override open class func instancesRespond(to selector: Selector!) -> Bool {
        _ = registerScenarioMethods()
        return super.instancesRespond(to: selector)
    }

    /// Whatever looks a scenario method up by name before anything listed the class (XCTest
    /// mapping a filtered test name to its selector, `instanceMethodSignatureForSelector:`,
    /// invoking it) reaches the runtime's documented hook for methods added on demand.
    override open class func resolveInstanceMethod(_ selector: Selector!) -> Bool {
        if let selector, resolveScenarioMethod(selector) { return true }
        return super.resolveInstanceMethod(selector)
    }

    /// Pending scenarios are skipped before the method runs. Subclasses that
    /// override `setUpWithError()` must call `super`.
    override open func setUpWithError() throws {
        try super.setUpWithError()
        let method = RuntimeTestName.method(of: name)
        guard let scenario = Self.registeredScenario(named: method) else { return }
        if onMainActor({ Focus.decide(scenario) }) == .skipUnfocused {
            let recorder = ScenarioRecorder(scenario: scenario)
            recorder.markUnfocused()
            attach(recorder)
            throw XCTSkip(ScenarioRunner.unfocusedReason, file: scenario.site.file, line: scenario.site.line)
        }
        guard let reason = scenario.pendingReason else { return }
        let recorder = ScenarioRecorder(scenario: scenario)
        recorder.markPending(reason)
        attach(recorder)
        throw XCTSkip("pending: \(reason)", file: scenario.site.file, line: scenario.site.line)
    }

    override open func record(_ issue: XCTIssue) {
        var issue = issue
        if let recorder {
            issue.compactDescription = recorder.noteFailure(
                issue.compactDescription, file: issue.sourceCodeContext.location?.fileURL.path,
                line: issue.sourceCodeContext.location?.lineNumber ?? 0)
        }
        super.record(issue)
    }
    #else
    override open func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        let text = recorder?.noteFailure(description, file: filePath, line: lineNumber) ?? description
        super.recordFailure(withDescription: text, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #endif
}

// MARK: - Collection

extension FeatureSpec {
    @MainActor private static var collected: [ObjectIdentifier: [ScenarioDefinition]] = [:]

    /// Runs `testFeature()` in collect mode (once per class) and names the scenarios.
    @MainActor
    static func collectScenarios(reservedNames: Set<String> = []) -> [ScenarioDefinition] {
        if let cached = collected[ObjectIdentifier(self)] { return cached }
        let collector = SpecCollector(specName: String(describing: self))
        let previous = SpecCollector.active
        SpecCollector.active = collector
        makeCollectingInstance().testFeature()
        SpecCollector.active = previous
        let scenarios = collector.scenarios
        if let first = scenarios.first { SpecSettings.noteSourceFile(first.site.path) }
        TestNaming.assignNames(to: scenarios, reserved: reservedNames)
        collected[ObjectIdentifier(self)] = scenarios
        return scenarios
    }

    @MainActor
    private static func makeCollectingInstance() -> FeatureSpec {
        makeTestCase(method: "testFeature")
    }

    /// A test case of this class for `method`. `FeatureSpec`'s initializers are inherited, not
    /// `required`, so Swift refuses `self.init(…)` on the dynamic `Self` ("constructing an object of
    /// class type … with a metatype value must use a 'required' initializer"). Apple's
    /// `init(selector:)` is imported from Objective-C, where that rule is waived, so construct
    /// through `XCTestCase.Type`; corelibs' `init(name:testClosure:)` is `required` already.
    /// `LanguageRuleProbeTests` shows on Linux that the `self.init` shape fails and a `required`
    /// base initializer works; the Objective-C waiver itself can only be shown on a Mac.
    static func makeTestCase(method: String) -> FeatureSpec {
        #if canImport(ObjectiveC)
        let type: XCTestCase.Type = self
        return type.init(selector: NSSelectorFromString(method)) as! FeatureSpec
        #else
        return self.init(name: method, testClosure: { _ in })
        #endif
    }

    /// The scenarios that run in this process (see ``ScenarioSelection``).
    @MainActor
    static func selectedScenarios(reservedNames: Set<String> = []) -> [ScenarioDefinition] {
        ScenarioSelection.scenariosToRun(
            collectScenarios(reservedNames: reservedNames), of: self, suite: String(reflecting: self))
    }
}

/// Reports structure declared outside collection: the Linux bootstrap file is
/// missing (XCTest ran `testFeature()` as a test), or a declaration sits inside
/// a running scenario.
enum DeclarationMisuse {
    static func report(_ keyword: String, _ title: String, _ site: CallSite) {
        let name = title.isEmpty ? keyword : "\(keyword) \"\(title)\""
        if RunningScenario.ofCaller != nil {
            FailureRecording.record(
                "\(name) is declared inside a running scenario; declare structure in testFeature() only",
                file: site.file, line: site.line)
            return
        }
        #if canImport(ObjectiveC)
        // Xcode's diamond on `testFeature()`: run the feature's scenarios in this test, once.
        if let spec = ReportObserver.currentTestCase as? FeatureSpec,
            RuntimeTestName.method(of: spec.name) == "testFeature"
        {
            // Listed beside its scenarios (XCTest's own listing finds both): they run themselves.
            if SuitePlan.includes(type(of: spec), anyOf: type(of: spec).registeredScenarioMethods) { return }
            if spec.claimAnchorRun() { spec.runWholeFeatureFromAnchor() }
            return
        }
        #endif
        FailureRecording.record(missingExpansionMessage(name, site), file: site.file, line: site.line)
    }

    static func missingExpansionMessage(_ name: String, _ site: CallSite) -> String {
        #if canImport(ObjectiveC)
        return "SpecKit: \(name) ran inside testFeature(), SpecKit's anchor, instead of as separate tests. "
            + "Run the scenarios themselves (each is its own test) rather than testFeature."
        #else
        let directory = URL(fileURLWithPath: site.path).deletingLastPathComponent().path
        return "SpecKit: none of this spec's scenarios ran: \(name) was reached from the testFeature() anchor "
            + "because SwiftPM cannot see SpecKit's test-list expansion in this test target. "
            + "Fix: add a file such as \(directory)/SpecKitBootstrap.swift containing the single line "
            + "`@_exported import SpecKit`, then rebuild; `swift test list` will show one test per scenario."
        #endif
    }
}
