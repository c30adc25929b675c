import Foundation
import XCTest

/// The papercuts a new user hit (issue 13), each seen from outside: a subprocess of this binary.
final class PapercutRunTests: XCTestCase {
    func testFailuresInHooksSayWhichHookTheyCameFrom() throws {
        let result = try FixtureProcess.run(["SpecKitTests.FixturePapercutsFeature"])
        let file = FixtureProcess.path(of: "FixturePapercutsFeature.swift")
        let background = try FixtureProcess.line(of: "background-expect", in: "FixturePapercutsFeature.swift")
        let after = try FixtureProcess.line(of: "after-expect", in: "FixturePapercutsFeature.swift")
        XCTAssertTrue(
            result.output.contains(
                "\(file):\(background): error: FixturePapercutsFeature.a failing Background - the background's failure is labelled @papercut : [Background] expected to equal <2>, got <1>"
            ), result.output)
        XCTAssertTrue(
            result.output.contains(
                "\(file):\(after): error: FixturePapercutsFeature.a failing afterEach - the afterEach failure is labelled @papercut : [afterEach] expected to equal <\"right\">, got <\"left\">"
            ), result.output)
        XCTAssertFalse(result.output.contains("SHOULD-NOT-RUN"), result.output)
        XCTAssertTrue(result.livingDoc.contains("[Background] expected to equal <2>, got <1>"), result.livingDoc)
    }

    func testAnOutlineWithABrokenPlaceholderHonoursTagFiltering() throws {
        let listed = try FixtureProcess.run(["--list-tests"], environment: ["BDD_TAGS": "no-such-tag"])
        XCTAssertFalse(listed.output.contains("<missing> placeholder"), listed.output)
        // A misplaced step has no tags of its own: it is still listed, so it cannot hide.
        XCTAssertTrue(listed.output.contains("Given a step in the wrong place (misplaced step)"), listed.output)
        let tagged = try FixtureProcess.run(["--list-tests"], environment: ["BDD_TAGS": "fixture"])
        XCTAssertTrue(tagged.output.contains("FixtureNamingFeature/<missing> placeholder @fixture"), tagged.output)
    }
}
