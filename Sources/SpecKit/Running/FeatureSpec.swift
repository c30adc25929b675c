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

    func attach(_ recorder: ScenarioRecorder) {
        recorderSlot.withLock { $0 = recorder }
    }

    #if canImport(ObjectiveC)
    // Apple platforms: XCTest builds suites through the Objective-C runtime,
    // so each scenario is added as a method and listed here (as Quick does).

    override open class var defaultTestSuite: XCTestSuite {
        let scenarios = registerScenarioMethods()
        let base = super.defaultTestSuite
        let scenarioNames = Set(scenarios.map(\.testName))
        let suite = XCTestSuite(name: base.name)
        for test in base.tests {
            let method = RuntimeTestName.method(of: test.name)
            if method == "testFeature" || scenarioNames.contains(method) { continue }
            suite.addTest(test)
        }
        for scenario in scenarios {
            suite.addTest(self.init(selector: NSSelectorFromString(scenario.testName)))
        }
        return suite
    }

    /// Running a single test (Xcode's diamond, `-only-testing`) skips
    /// `defaultTestSuite` and asks this instead, so register here too.
    override open class func instancesRespond(to selector: Selector!) -> Bool {
        _ = registerScenarioMethods()
        return super.instancesRespond(to: selector)
    }

    /// A dynamically added method cannot throw, so pending scenarios are skipped
    /// here. Subclasses that override `setUpWithError()` must call `super`.
    override open func setUpWithError() throws {
        try super.setUpWithError()
        let method = RuntimeTestName.method(of: name)
        guard let scenario = onMainActor({ Self.registeredScenario(named: method) }),
            let reason = scenario.pendingReason
        else { return }
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
        TestNaming.assignNames(to: scenarios, reserved: reservedNames)
        collected[ObjectIdentifier(self)] = scenarios
        return scenarios
    }

    @MainActor
    private static func makeCollectingInstance() -> FeatureSpec {
        #if canImport(ObjectiveC)
        return self.init(selector: NSSelectorFromString("testFeature"))
        #else
        return self.init(name: "testFeature", testClosure: { _ in })
        #endif
    }

    /// The scenarios that run in this process (see ``ScenarioSelection``).
    @MainActor
    static func selectedScenarios(reservedNames: Set<String> = []) -> [ScenarioDefinition] {
        ScenarioSelection.select(collectScenarios(reservedNames: reservedNames))
    }
}

/// Reports structure declared outside collection: the Linux bootstrap file is
/// missing (XCTest ran `testFeature()` as a test), or a declaration sits inside
/// a running scenario.
enum DeclarationMisuse {
    static func report(_ keyword: String, _ title: String, _ site: CallSite) {
        let name = title.isEmpty ? keyword : "\(keyword) \"\(title)\""
        if RunningScenario.current.snapshot != nil {
            FailureRecording.record(
                "\(name) is declared inside a running scenario; declare structure in testFeature() only",
                file: site.file, line: site.line)
            return
        }
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
