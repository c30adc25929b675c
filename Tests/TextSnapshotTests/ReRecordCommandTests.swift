import Foundation
import TextSnapshot
import XCTest

/// The commands printed under a snapshot failure select the XCTest test that is running, whatever
/// `testName:` the snapshot file was given.
final class ReRecordCommandTests: XCTestCase {
    private static let filter =
        "--filter '^TextSnapshotTests\\.ReRecordCommandTests/testEveryCommandNamesTheRunningTestNotTheSnapshotsTestName$'"

    func testEveryCommandNamesTheRunningTestNotTheSnapshotsTestName() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("Anmelden\n", to: "ReRecordCommandTests/loginEmpty.de.txt")

        let mismatch = try XCTUnwrap(
            sandbox.run {
                verifySnapshot(of: "Einloggen", as: .lines, named: "de", record: .never, testName: "loginEmpty")
            })
        XCTAssertEqual(mismatch.kind, .mismatch)
        XCTAssertTrue(mismatch.message.contains("  re-record: TEXT_SNAPSHOT_RECORD=failed swift test \(Self.filter)\n"), mismatch.message)

        let missing = try XCTUnwrap(
            sandbox.run(environment: ["CI": "true"]) {
                verifySnapshot(of: "Einloggen", as: .lines, named: "fr", testName: "loginEmpty")
            })
        XCTAssertEqual(missing.kind, .missingReference)
        XCTAssertTrue(missing.message.hasSuffix("  record it: TEXT_SNAPSHOT_RECORD=missing swift test \(Self.filter)"), missing.message)

        let recorded = try XCTUnwrap(sandbox.run { verifySnapshot(of: "Einloggen", as: .lines, named: "es", testName: "loginEmpty") })
        XCTAssertEqual(recorded.kind, .recorded)
        XCTAssertTrue(recorded.message.hasSuffix("  Review it, then re-run: swift test \(Self.filter)"), recorded.message)

        let all = try XCTUnwrap(
            sandbox.run(record: .all) { verifySnapshot(of: "Einloggen", as: .lines, named: "ja", testName: "loginEmpty") })
        XCTAssertTrue(all.message.hasSuffix("  verify: turn record mode off and re-run: swift test \(Self.filter)"), all.message)
    }

    /// XCTest only tells observers about tests that start after they were added, and a snapshot
    /// assertion is too late for its own test. SpecKit starts watching while the test list is
    /// built, so even a process's first test, whose first assertion is a snapshot, is named.
    func testTheFirstTestOfAProcessIsNamedToo() throws {
        #if os(Linux)
        let output = try ReRecordCommandSpec.run(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
            ["TextSnapshotTests.ReRecordCommandTests/testEveryCommandNamesTheRunningTestNotTheSnapshotsTestName"])
        XCTAssertTrue(output.contains("Executed 1 test, with 0 failures"), output)
        #else
        throw XCTSkip("runs the Linux test binary as a subprocess")
        #endif
    }
}

/// Outside any test (here in `class func setUp()`, between tests) there is no running test to
/// name, so the command falls back to the snapshot's `testName:` in any class.
final class ReRecordCommandOutsideATestTests: XCTestCase {
    nonisolated(unsafe) private static var messageFromClassSetUp: String?
    nonisolated(unsafe) private static var sandbox: Sandbox?

    override class func setUp() {
        super.setUp()
        guard let sandbox = try? Sandbox() else { return }
        self.sandbox = sandbox
        messageFromClassSetUp = sandbox.run(environment: ["CI": "true"]) {
            verifySnapshot(of: "x", as: .lines, named: "a", testName: "loginEmpty")?.message
        }
    }

    override class func tearDown() {
        sandbox?.remove()
        super.tearDown()
    }

    func testTheCommandFallsBackToTheSnapshotsTestName() throws {
        let message = try XCTUnwrap(Self.messageFromClassSetUp)
        XCTAssertTrue(message.hasSuffix("  record it: TEXT_SNAPSHOT_RECORD=missing swift test --filter '/loginEmpty$'"), message)
    }
}

/// Inside a SpecKit scenario the running test is the scenario. Its name has spaces, quotes, an
/// apostrophe, regular-expression characters and tags; the printed command must still select it,
/// and only it, once a shell has read it and `swift test` has used it as a regular expression.
final class ReRecordCommandSpec: FeatureSpec {
    static let testName = #"A "loginEmpty" snapshot's command selects this scenario (really?) [+1] {*} $^| @re-record @snapshot"#
    static let filter =
        #"--filter '^TextSnapshotTests\.ReRecordCommandSpec/A "loginEmpty" snapshot'\''s command selects this scenario \(really\?\) \[\+1\] \{\*\} \$\^\| @re-record @snapshot$'"#

    override func testFeature() {
        Feature("Re-record commands name the running scenario") {
            var sandbox: Sandbox!
            var failure: SnapshotFailure?
            beforeEach { sandbox = try Sandbox() }
            afterEach { sandbox.remove() }

            Scenario(#"A "loginEmpty" snapshot's command selects this scenario (really?) [+1] {*} $^|"#, tags: "re-record", "snapshot") {
                When("a screen snapshotted with testName \"loginEmpty\" differs from its reference") {
                    try sandbox.write("( Anmelden )\n", to: "ReRecordCommandTests/loginEmpty.lang_de.txt")
                    failure = sandbox.run {
                        verifySnapshot(of: "( Einloggen )", as: .lines, named: "lang_de", record: .never, testName: "loginEmpty")
                    }
                }
                Then("the re-record command filters by this scenario's test, escaped and quoted") {
                    expect(failure?.kind).to(equal(.mismatch))
                    expect(failure?.message).to(contain("  re-record: TEXT_SNAPSHOT_RECORD=failed swift test \(Self.filter)\n"))
                }
                And("a shell and swift test's regular expression select exactly this test from the list") {
                    let listed = try Self.listedTests()
                    expect(listed).to(contain("TextSnapshotTests.ReRecordCommandSpec/" + Self.testName))
                    let pattern = try Self.shellWord(String(Self.filter.dropFirst("--filter ".count)))
                    let regex = try NSRegularExpression(pattern: pattern)
                    let selected = listed.filter {
                        regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
                    }
                    expect(selected).to(equal(["TextSnapshotTests.ReRecordCommandSpec/" + Self.testName]))
                }
            }
        }
    }

    /// Every test this binary lists, as `swift test` sees them (`Module.Class/name`).
    static func listedTests() throws -> [String] {
        #if os(Linux)
        let output = try run(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), ["--list-tests"])
        return output.components(separatedBy: "\n").filter { $0.contains("/") }
        #else
        throw XCTSkip("lists the Linux test binary's tests; on Apple platforms xctest is run by Xcode")
        #endif
    }

    /// What a POSIX shell makes of `word`: the one argument it passes on.
    static func shellWord(_ word: String) throws -> String {
        try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s' " + word])
    }

    /// Runs `executable` and returns its standard output and error.
    static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BDD_REPORT_DIR"] = "off"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
