import Foundation
import XCTest

struct FixtureSetupError: Error {}

/// Traces hook order: outer before inner, justBeforeEach last, afters inner first.
final class FixtureHooksFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Self.declare()
    }

    /// Shared with its Swift Testing twin in `FixtureSwiftTestingParity.swift`.
    static func declare() {
        Feature("Hooks", tags: "fixture") {
            Background {
                Fixtures.trace("feature-background")
                Given("a fresh basket") { Fixtures.trace("background-step") }
            }
            beforeEach { Fixtures.trace("feature-beforeEach") }
            justBeforeEach { Fixtures.trace("feature-justBeforeEach") }
            afterEach { Fixtures.trace("feature-afterEach") }

            describe("outer") {
                beforeEach { Fixtures.trace("outer-beforeEach") }
                justBeforeEach { Fixtures.trace("outer-justBeforeEach") }
                afterEach { Fixtures.trace("outer-afterEach") }

                context("inner") {
                    beforeEach { Fixtures.trace("inner-beforeEach") }
                    afterEach { Fixtures.trace("inner-afterEach") }

                    it("runs hooks in order") {
                        When("the body runs") { Fixtures.trace("body") }
                    }

                    it("runs afterEach after a failure") {
                        Then("it fails") { expect(1).to(equal(2)) }
                        Fixtures.trace("body-continues")
                    }
                }
            }

            context("broken setup") {
                beforeEach { throw FixtureSetupError() } // @mark:throwing-hook
                afterEach { Fixtures.trace("broken-afterEach") }
                it("never runs its body") { Fixtures.trace("SHOULD-NOT-RUN broken body") }
            }

            context("async hooks") {
                beforeEach { () async in
                    try? await Task.sleep(nanoseconds: 1_000_000)
                    Fixtures.trace("async-beforeEach")
                }
                afterEach { () async in Fixtures.trace("async-afterEach") }
                it("awaits them") {
                    await When("work finishes later") {
                        try await Task.sleep(nanoseconds: 1_000_000)
                        Fixtures.trace("async-body")
                    }
                }
            }
        }
    }
}
