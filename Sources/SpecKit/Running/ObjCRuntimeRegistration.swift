#if canImport(ObjectiveC)
import Foundation
import ObjectiveC
import XCTest

// Apple platforms only; written against the documented runtime API (`class_addMethod`,
// `imp_implementationWithBlock`, `class_copyMethodList`) and reviewed, not run, on Linux CI.
// The Linux-compiled probes in SpecKitTests (`LanguageRuleProbeTests`, `ScenarioTimeoutTests`)
// cover the language rules and the shared runner paths this file relies on.

extension FeatureSpec {
    /// Per class: its registered scenarios, filled once. `collecting` guards against XCTest asking
    /// `instancesRespond(to:)` (or the runtime `resolveInstanceMethod(_:)`) while the collecting
    /// instance is being made (no recursion).
    private static let registry = Locked<Registry>(Registry())

    private struct Registry {
        var byClass: [ObjectIdentifier: Registration] = [:]
        var collecting: Set<ObjectIdentifier> = []
    }

    private struct Registration {
        let owner: AnyClass
        let scenarios: [RegisteredScenario]
        let byMethod: [String: ScenarioDefinition]
    }

    /// A selected scenario and the XCTest method (`test_…`, see ``TestSelectorPlan``) that runs it.
    struct RegisteredScenario {
        let scenario: ScenarioDefinition
        let method: String
    }

    /// The selected scenarios of this class, registering one runtime method per scenario the first
    /// time. Later calls (every `instancesRespond(to:)`) return the cached list without filtering again.
    /// Off the main thread before registration, nothing is registered (never `main.sync` from a
    /// thread the main thread may be waiting for) and `nil` is returned.
    @discardableResult
    static func registerScenarioMethods() -> [RegisteredScenario]? {
        let key = ObjectIdentifier(self)
        let state = registry.withLock { registry -> (cached: [RegisteredScenario]?, busy: Bool) in
            (registry.byClass[key]?.scenarios, registry.collecting.contains(key))
        }
        if let cached = state.cached { return cached }
        if state.busy || !Thread.isMainThread { return nil }
        registry.withLock { _ = $0.collecting.insert(key) }
        defer { registry.withLock { _ = $0.collecting.remove(key) } }
        return MainActor.assumeIsolated {
            ReportObserver.installIfNeeded()
            let ownMethods = declaredMethodNames()
            // Reserve the class's own test methods, as the Linux list does, so names match across platforms.
            let reservedTests = Set(ownMethods.filter { $0.hasPrefix("test") && $0 != "testFeature" && !$0.contains(":") })
            // Method names come from every scenario of the class, so a tag or name filter renames nothing.
            let all = collectScenarios(reservedNames: reservedTests)
            let plan = TestSelectorPlan(testNames: all.map(\.testName), reserved: ownMethods)
            var methodOf: [ObjectIdentifier: String] = [:]
            for (scenario, method) in zip(all, plan.methodNames) { methodOf[ObjectIdentifier(scenario)] = method }
            let owner: AnyClass = self
            var registered: [RegisteredScenario] = []
            var byMethod: [String: ScenarioDefinition] = [:]
            for scenario in selectedScenarios(reservedNames: reservedTests) {
                guard let method = methodOf[ObjectIdentifier(scenario)] else { continue }
                byMethod[method] = scenario
                registered.append(RegisteredScenario(scenario: scenario, method: method))
                let block: @convention(block) (FeatureSpec, AutoreleasingUnsafeMutablePointer<NSError?>?) -> Bool = {
                    spec, errorOut in spec.runRegisteredScenario(scenario, of: owner, errorOut: errorOut)
                }
                let selector = NSSelectorFromString(RuntimeTestName.selectorName(forMethod: method))
                // A throwing method (`…AndReturnError:`, as Swift bridges `func test_x() throws`), so a
                // skip reaches XCTest as XCTSkip and Xcode shows "skipped", as the living document does.
                if !class_addMethod(self, selector, imp_implementationWithBlock(block), throwingMethodEncoding) {
                    scenario.problem =
                        scenario.problem ?? "SpecKit could not add the test method \"\(method)\" "
                        + "for \"\(scenario.testName)\": \(String(describing: self)) already has a method of that name; rename the scenario"
                }
            }
            registry.withLock { $0.byClass[key] = Registration(owner: owner, scenarios: registered, byMethod: byMethod) }
            return registered
        }
    }

    /// For `resolveInstanceMethod(_:)`: registers this class's scenario methods and says whether
    /// `selector` is one of them. Never looks the selector up in the runtime (that would ask the
    /// resolver again).
    static func resolveScenarioMethod(_ selector: Selector) -> Bool {
        guard registerScenarioMethods() != nil else { return false }
        let method = RuntimeTestName.method(ofSelector: NSStringFromSelector(selector))
        guard NSStringFromSelector(selector) == RuntimeTestName.selectorName(forMethod: method) else { return false }
        return registeredScenario(named: method) != nil
    }

    /// True when `method` is a scenario method a superclass registered: a subclass inherits it, but
    /// it is not one of the subclass's scenarios (those are registered on the subclass itself).
    static func isInheritedScenarioMethod(_ method: String) -> Bool {
        registry.withLock { registry in
            var ancestor: AnyClass? = class_getSuperclass(self)
            while let current = ancestor {
                if registry.byClass[ObjectIdentifier(current)]?.byMethod[method] != nil { return true }
                ancestor = class_getSuperclass(current)
            }
            return false
        }
    }

    /// The type encoding of a `-(BOOL)nameAndReturnError:(NSError **)` method on this machine, read
    /// from XCTest's own `-setUpWithError:` (the same signature): BOOL is `B` on arm64 but `c` on
    /// x86_64 macOS and the x86_64 simulator, so a hard-coded `"B@:^@"` was wrong on Intel.
    private static let throwingMethodEncoding: String = {
        if let method = class_getInstanceMethod(XCTestCase.self, NSSelectorFromString("setUpWithError:")),
            let encoding = method_getTypeEncoding(method)
        {
            return String(cString: encoding)
        }
        #if arch(x86_64)
        return "c@:^@"
        #else
        return "B@:^@"
        #endif
    }()

    /// The scenario XCTest's method `name` (`test_…`, or any form ``TestSelectorPlan`` accepts) runs.
    static func registeredScenario(named name: String) -> ScenarioDefinition? {
        let method = RuntimeTestName.method(of: name)
        return registry.withLock { $0.byClass[ObjectIdentifier(self)]?.byMethod[method] }
    }

    /// The XCTest method names of this class's registered scenarios (empty before registration).
    static var registeredScenarioMethods: Set<String> {
        registry.withLock { Set($0.byClass[ObjectIdentifier(self)]?.byMethod.keys.map { $0 } ?? []) }
    }

    /// The methods the class itself declares, as XCTest names them (`testX` for `testXAndReturnError:`).
    private static func declaredMethodNames() -> Set<String> {
        var names: Set<String> = []
        var count: UInt32 = 0
        guard let methods = class_copyMethodList(self, &count) else { return names }
        defer { free(methods) }
        for index in 0..<Int(count) {
            names.insert(RuntimeTestName.method(ofSelector: NSStringFromSelector(method_getName(methods[index]))))
        }
        return names
    }

    func runRegisteredScenario(
        _ scenario: ScenarioDefinition, of owner: AnyClass, errorOut: AutoreleasingUnsafeMutablePointer<NSError?>?
    ) -> Bool {
        // A subclass of a spec inherits the spec's scenario methods; XCTest's own listing would run
        // them on the subclass. They are the superclass's scenarios: say so instead of running them twice.
        guard ObjectIdentifier(type(of: self)) == ObjectIdentifier(owner) else {
            errorOut?.pointee =
                XCTSkip("\"\(scenario.testName)\" is a scenario of \(String(describing: owner)); it runs there")
                as NSError
            return false
        }
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
        guard let registered = Self.registerScenarioMethods() else { return }
        let spec = UncheckedSendable(self)
        for (index, scenario) in registered.map(\.scenario).enumerated() {
            let isLast = index == registered.count - 1
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

#endif
