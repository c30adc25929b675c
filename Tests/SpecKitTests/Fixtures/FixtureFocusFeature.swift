import Foundation
import XCTest

/// Focus: declared only with `SPECKIT_FOCUS_FIXTURES=1`, so the real run (and every other fixture
/// run) is never focused.
final class FixtureFocusFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.focusEnabled else { return }
        Self.declare()
    }

    /// Shared with its Swift Testing twin in `FixtureSwiftTestingParity.swift`.
    static func declare() {
        Feature("Focus", tags: "fixture") {
            fit("a focused it") { Fixtures.trace("ran: focused it") } // @mark:focused-it
            it("an unfocused it") { Fixtures.trace("ran: unfocused it") }
            fdescribe("a focused group") {
                it("runs inside the focused group") { Fixtures.trace("ran: inside focused group") }
            }
            describe("a plain group") {
                Scenario("a plain scenario") { Fixtures.trace("ran: plain scenario") }
                fScenario("a focused scenario") { Fixtures.trace("ran: focused scenario") }
            }
            Given("a step in the wrong place") {} // @mark:focus-problem
        }
    }
}

/// A whole feature focused with `fFeature`.
final class FixtureFocusedFeatureFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.focusEnabled else { return }
        Self.declare()
    }

    /// Shared with its Swift Testing twin in `FixtureSwiftTestingParity.swift`.
    static func declare() {
        fFeature("A focused feature", tags: "fixture") {
            Scenario("runs because its feature is focused") { Fixtures.trace("ran: focused feature") }
        }
    }
}
