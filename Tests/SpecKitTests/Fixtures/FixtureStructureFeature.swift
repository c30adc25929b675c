import Foundation
import XCTest

struct FixtureAroundError: Error {}

/// A shared behaviour: the subject is given by each group that declares it.
final class FixtureEdibleBehavior: Behavior<String> {
    override class var name: String { "something edible" }
    override class func spec(_ subject: @escaping () -> String) {
        it("can be eaten") { Fixtures.trace("edible: \(subject())") }
    }
}

/// aroundEach nesting (sync and async), suite hooks, shared behaviours and step groups.
final class FixtureStructureFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Self.declare()
    }

    /// Traced suite hooks with `SPECKIT_SUITE_FIXTURES` (the same blocks wherever declared: a
    /// block is registered once per call site).
    static func suiteHooks() {
        if let mode = Fixtures.suiteMode {
            beforeSuite {
                Fixtures.trace("beforeSuite")
                if mode == "fail-before" { expect("setup").to(equal("ready")) } // @mark:before-suite
            }
            afterSuite {
                Fixtures.trace("afterSuite")
                if mode == "fail-after" { expect("teardown").to(equal("clean")) } // @mark:after-suite
            }
        }
    }

    /// Shared with its Swift Testing twin in `FixtureSwiftTestingParity.swift`.
    static func declare() {
        Feature("Structure", tags: "fixture") {
            suiteHooks()

            describe("arounds") {
                aroundEach { run in
                    Fixtures.trace("A1-before"); run(); Fixtures.trace("A1-after")
                }
                aroundEach { run in
                    Fixtures.trace("A2-before"); run(); Fixtures.trace("A2-after")
                }
                beforeEach { Fixtures.trace("outer-beforeEach") }
                afterEach { Fixtures.trace("outer-afterEach") }

                context("inner") {
                    aroundEach { run in
                        Fixtures.trace("inner-around-before"); run(); Fixtures.trace("inner-around-after")
                    }
                    beforeEach { Fixtures.trace("inner-beforeEach") }
                    justBeforeEach { Fixtures.trace("inner-justBeforeEach") }
                    afterEach { Fixtures.trace("inner-afterEach") }

                    it("wraps in order") { Fixtures.trace("body") }
                }
            }

            describe("async arounds") {
                aroundEach { run async in
                    Fixtures.trace("async-outer-before")
                    try? await Task.sleep(nanoseconds: 1_000_000)
                    await run()
                    Fixtures.trace("async-outer-after")
                }
                context("nested") {
                    aroundEach { run async in
                        Fixtures.trace("async-inner-before"); await run(); Fixtures.trace("async-inner-after")
                    }
                    afterEach { () async in Fixtures.trace("async-afterEach") }
                    it("awaits around the body") {
                        await When("work finishes later") {
                            try await Task.sleep(nanoseconds: 1_000_000)
                            Fixtures.trace("async-body")
                        }
                    }
                }
            }

            describe("broken arounds") {
                context("never runs") {
                    aroundEach { _ in Fixtures.trace("forgot-run") } // @mark:forgot-run
                    it("has a body that never runs") { Fixtures.trace("SHOULD-NOT-RUN forgotten") }
                }
                context("sync around an async scenario") {
                    aroundEach { run in run() } // @mark:sync-around-async
                    it("cannot be wrapped synchronously") { await When("it awaits") { await Task.yield() } }
                }
            }

            describe("shared behaviours") {
                itBehavesLike(FixtureEdibleBehavior.self) { "an apple" }
                sharedExamples("a fruit") { context in
                    it("has a name") { Fixtures.trace("fruit: \(context()["name"] as? String ?? "?")") }
                }
                itBehavesLike("a fruit", context: { ["name": "a pear"] })
                itBehavesLike("no such examples") // @mark:unknown-shared
            }

            let signedIn = StepGroup("Given", "a signed-in reader") { (email: String) in
                Given("the login screen") { Fixtures.trace("group: login screen") }
                When("they sign in as \(email)") { Fixtures.trace("group: sign in \(email)") }
            }
            let brokenLogin = StepGroup("Given", "a reader whose login fails") { () in
                When("they sign in") { expect("denied").to(equal("ok")) } // @mark:group-failure
                Then("they see the stories") { Fixtures.trace("SHOULD-NOT-RUN inner") }
            }

            Scenario("Reusing a step group") {
                signedIn("ada@example.com")
                Then("the stories show") { Fixtures.trace("after group") }
            }

            Scenario("A failing step inside a group") {
                brokenLogin()
                Then("nothing else runs") { Fixtures.trace("SHOULD-NOT-RUN after group") }
            }

            Scenario("Data tables and doc strings") {
                Given(
                    "these readers",
                    table: [
                        ["name", "email"],
                        ["Ada", "ada@example.com"],
                        ["Linus | T", "linus@example.com"],
                    ]
                ) { table in
                    Fixtures.trace("rows: " + table.hashes.map { "\($0["name"]!)=\($0["email"]!)" }.joined(separator: ", "))
                }
                When("the client posts", docString: "{\n  \"title\": \"Launch\"\n}") { text in
                    Fixtures.trace("doc lines: \(text.split(separator: "\n").count)")
                }
                Then("the table is there", table: DataTable(header: ["total"], rows: [["2"]])) { table in
                    expect(table.column("total")).to(equal(["2"]))
                }
            }

            Scenario("A ragged data table") {
                Given("a table with a short row", table: [["a", "b"], ["1"]]) { _ in // @mark:ragged
                    Fixtures.trace("SHOULD-NOT-RUN ragged")
                }
            }
        }
    }
}
