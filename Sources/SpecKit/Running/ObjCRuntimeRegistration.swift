#if canImport(ObjectiveC)
import Foundation
import ObjectiveC
import XCTest

// Apple platforms only; written against the documented runtime API (`class_addMethod`,
// `imp_implementationWithBlock`, `class_copyMethodList`) and reviewed, not run, on Linux CI.
// The Linux-compiled probes in SpecKitTests (`LanguageRuleProbeTests`, `ScenarioTimeoutTests`)
// cover the language rules and the shared runner paths this file relies on.

extension FeatureSpec {
    /// Per class: scenario by test name, filled once. `collecting` guards against XCTest asking
    /// `instancesRespond(to:)` while the collecting instance is being made (no recursion).
    private static let registry = Locked<Registry>(Registry())

    private struct Registry {
        var byClass: [ObjectIdentifier: (scenarios: [ScenarioDefinition], byName: [String: ScenarioDefinition])] = [:]
        var collecting: Set<ObjectIdentifier> = []
    }

    /// The selected scenarios of this class, registering one runtime method per scenario the first
    /// time. Later calls (every `instancesRespond(to:)`) return the cached list without filtering again.
    /// Off the main thread before registration, nothing is registered (never `main.sync` from a
    /// thread the main thread may be waiting for) and `nil` is returned.
    @discardableResult
    static func registerScenarioMethods() -> [ScenarioDefinition]? {
        let key = ObjectIdentifier(self)
        let state = registry.withLock { registry -> (cached: [ScenarioDefinition]?, busy: Bool) in
            (registry.byClass[key]?.scenarios, registry.collecting.contains(key))
        }
        if let cached = state.cached { return cached }
        if state.busy || !Thread.isMainThread { return nil }
        registry.withLock { _ = $0.collecting.insert(key) }
        defer { registry.withLock { _ = $0.collecting.remove(key) } }
        return MainActor.assumeIsolated {
            ReportObserver.installIfNeeded()
            // Reserve the class's own test methods, as the Linux list does, so names match across platforms.
            let scenarios = selectedScenarios(reservedNames: declaredTestMethodNames())
            var byName: [String: ScenarioDefinition] = [:]
            for scenario in scenarios {
                byName[scenario.testName] = scenario
                let block: @convention(block) (FeatureSpec, AutoreleasingUnsafeMutablePointer<NSError?>?) -> Bool = {
                    spec, errorOut in spec.runRegisteredScenario(scenario, errorOut: errorOut)
                }
                let selector = NSSelectorFromString(RuntimeTestName.selectorName(for: scenario.testName))
                // A throwing method (`…AndReturnError:`, as Swift bridges `func test() throws`), so a
                // skip reaches XCTest as XCTSkip and Xcode shows "skipped", as the living document does.
                if !class_addMethod(self, selector, imp_implementationWithBlock(block), throwingMethodEncoding) {
                    scenario.problem = scenario.problem ?? "SpecKit could not add the test method \"\(scenario.testName)\": "
                        + "\(String(describing: self)) already has a method of that name; rename the scenario"
                }
            }
            registry.withLock { $0.byClass[key] = (scenarios, byName) }
            return scenarios
        }
    }

    /// The type encoding of a `-(BOOL)nameAndReturnError:(NSError **)` method on this machine, read
    /// from XCTest's own `-setUpWithError:` (the same signature): BOOL is `B` on arm64 but `c` on
    /// x86_64 macOS and the x86_64 simulator, so a hard-coded `"B@:^@"` was wrong on Intel.
    private static let throwingMethodEncoding: String = {
        if let method = class_getInstanceMethod(XCTestCase.self, NSSelectorFromString("setUpWithError:")),
           let encoding = method_getTypeEncoding(method) {
            return String(cString: encoding)
        }
        #if arch(x86_64)
        return "c@:^@"
        #else
        return "B@:^@"
        #endif
    }()

    static func registeredScenario(named name: String) -> ScenarioDefinition? {
        registry.withLock { $0.byClass[ObjectIdentifier(self)]?.byName[name] }
    }

    /// `test…` methods the class itself declares (without `testFeature`), like the Linux list.
    private static func declaredTestMethodNames() -> Set<String> {
        var names: Set<String> = []
        var count: UInt32 = 0
        guard let methods = class_copyMethodList(self, &count) else { return names }
        defer { free(methods) }
        for index in 0..<Int(count) {
            let name = NSStringFromSelector(method_getName(methods[index]))
            let plain = RuntimeTestName.method(ofSelector: name)
            if plain.hasPrefix("test"), plain != "testFeature", !plain.contains(":") { names.insert(plain) }
        }
        return names
    }

    func runRegisteredScenario(_ scenario: ScenarioDefinition, errorOut: AutoreleasingUnsafeMutablePointer<NSError?>?) -> Bool {
        let spec = UncheckedSendable(self)
        do {
            try onMainActor { try ScenarioRunner.run(scenario, in: spec.value) }
            return true
        } catch {
            // Only `XCTSkip` escapes the runner; handing it back as the method's error is how XCTest
            // learns of a skip from a throwing test method.
            errorOut?.pointee = error as NSError
            return false
        }
    }

    /// Xcode's navigator shows only `testFeature()`; its diamond runs that method alone. Then run the
    /// whole feature in this one test instead of failing with the anchor message.
    func runWholeFeatureFromAnchor() {
        guard let scenarios = Self.registerScenarioMethods() else { return }
        let spec = UncheckedSendable(self)
        for (index, scenario) in scenarios.enumerated() {
            let isLast = index == scenarios.count - 1
            do {
                try onMainActor { try ScenarioRunner.run(scenario, in: spec.value, mayEndSuite: isLast) }
            } catch {
                // A pending or skipped scenario: the next one still runs.
            }
        }
    }
}

/// Runs the class-level `setUp()` / `tearDown()` around a feature's tests, as XCTest's own
/// per-class suite does (a bare `XCTestSuite` skips them).
final class FeatureTestSuite: XCTestSuite {
    private var specClass: XCTestCase.Type = XCTestCase.self

    convenience init(name: String, specClass: XCTestCase.Type) {
        self.init(name: name)
        self.specClass = specClass
    }

    override func setUp() {
        super.setUp()
        specClass.setUp()
    }

    override func tearDown() {
        specClass.tearDown()
        super.tearDown()
    }
}

/// Apple XCTest names tests `-[Module.Class method name]`.
enum RuntimeTestName {
    static func method(of testName: String) -> String {
        guard testName.hasPrefix("-["), testName.hasSuffix("]"), let space = testName.firstIndex(of: " ") else {
            return testName
        }
        return method(ofSelector: String(testName[testName.index(after: space)..<testName.index(before: testName.endIndex)]))
    }

    /// `name` for `nameAndReturnError:` (a throwing test method), else the selector itself.
    static func method(ofSelector selector: String) -> String {
        selector.hasSuffix("AndReturnError:") ? String(selector.dropLast("AndReturnError:".count)) : selector
    }

    static func selectorName(for testName: String) -> String {
        testName + "AndReturnError:"
    }
}
#endif
