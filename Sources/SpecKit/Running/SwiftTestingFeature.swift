#if canImport(Testing)
import Foundation
import Testing

/// A feature that runs under Swift Testing: each scenario (and each outline row) is one
/// argument of a parameterized `@Test`, named by its title, so the test navigator and the
/// console show every scenario and Xcode can re-run one. No Objective-C runtime involved.
///
/// ```swift
/// import SpecKit
/// import Testing
///
/// @MainActor
/// struct ForecastFeature: SwiftTestingFeature {
///     static func feature() {
///         Feature("Forecast") {
///             Scenario("A sunny day") {
///                 Then("it says sunny") { expect(Forecast.sunny.summary).to(equal("Sunny")) }
///             }
///         }
///     }
///
///     @Test(arguments: await ForecastFeature.scenarios())
///     func scenario(_ scenario: FeatureScenario) async {
///         await scenario.run()
///     }
/// }
/// ```
/// Expectations, `TestObserver`, decoding failures and snapshots record `Issue`s at the
/// spec's file and line. `BDD_TAGS` filters scenarios as it does under XCTest, and
/// `BDD_SCENARIO` (a regular expression matched against scenario names) picks some:
/// `BDD_SCENARIO='sunny' swift test --filter ForecastFeature`. `BDD_SHARD=i/n` runs one shard,
/// split exactly as XCTest specs are.
public protocol SwiftTestingFeature {
    /// Declares the feature, as `testFeature()` does for a `FeatureSpec`. Called once,
    /// while Swift Testing builds its test cases.
    @MainActor static func feature()
}

extension SwiftTestingFeature {
    /// The selected scenarios of this feature, in declaration order: pass them to
    /// `@Test(arguments: await Self.scenarios())`.
    @MainActor
    public static func scenarios() -> [FeatureScenario] {
        let suite = String(reflecting: Self.self)
        return SwiftTestingCatalog.scenarios(of: Self.self, suite: suite) { feature() }
    }
}

/// One scenario or outline row of a ``SwiftTestingFeature``, as a test argument.
/// Its description is the scenario's test name (`Rainy days - Umbrella advice @smoke`).
public struct FeatureScenario: Sendable, CustomStringConvertible, CustomTestStringConvertible,
    CustomTestArgumentEncodable
{
    let definition: ScenarioDefinition
    /// The module-qualified feature type, e.g. `WeatherSpecs.ForecastFeature`.
    public let suite: String

    /// The scenario's title, placeholders filled in.
    public var title: String { definition.title }
    /// The unique name SpecKit gives the scenario (the XCTest test name under XCTest).
    public var name: String { definition.testName }
    /// The scenario's tags, its groups' included.
    public var tags: [String] { definition.tags }

    public var description: String { name }
    public var testDescription: String { name }

    /// Encodes the name, which is stable and unique within the feature, so Xcode can
    /// re-run this one scenario.
    public func encodeTestArgument(to encoder: some Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Runs the scenario: hooks, steps and `afterEach`; failures become `Issue`s.
    @MainActor
    public func run() async {
        await ScenarioRunner.runUnderSwiftTesting(definition, suite: suite)
    }
}

/// Collected scenarios of every Swift Testing feature in this process.
@MainActor
enum SwiftTestingCatalog {
    private static var collected: [ObjectIdentifier: [ScenarioDefinition]] = [:]

    static func scenarios(
        of feature: Any.Type, suite: String, declare: @MainActor () -> Void
    ) -> [FeatureScenario] {
        let key = ObjectIdentifier(feature)
        FailureRecording.installRouting()
        let all: [ScenarioDefinition]
        if let cached = collected[key] {
            all = cached
        } else {
            let collector = SpecCollector(specName: suite.split(separator: ".").last.map { String($0) } ?? suite)
            let previous = SpecCollector.active
            SpecCollector.active = collector
            declare()
            SpecCollector.active = previous
            TestNaming.assignNames(to: collector.scenarios)
            collected[key] = collector.scenarios
            all = collector.scenarios
        }
        // As `FeatureSpec.selectedScenarios` does: tags, `BDD_SCENARIO`, focus, then `BDD_SHARD`.
        let picked = ScenarioSelection.scenariosToRun(all, of: feature, suite: suite)
        return picked.map { FeatureScenario(definition: $0, suite: suite) }
    }
}
#endif
