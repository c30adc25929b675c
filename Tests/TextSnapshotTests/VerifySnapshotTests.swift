import Foundation
import TextSnapshot
import XCTest

final class VerifySnapshotTests: XCTestCase {
    func testMissingReferenceIsRecordedLocallyAndFails() throws {
        let sandbox = try makeSandbox()
        let failure = sandbox.run { verifySnapshot(of: "hello", as: .lines, named: "greeting") }
        XCTAssertEqual(failure?.kind, .recorded)
        XCTAssertEqual(sandbox.snapshotFiles(), ["VerifySnapshotTests/testMissingReferenceIsRecordedLocallyAndFails.greeting.txt"])
        XCTAssertEqual(
            failure?.writtenPaths, [sandbox.root + "/VerifySnapshotTests/testMissingReferenceIsRecordedLocallyAndFails.greeting.txt"])
        XCTAssertTrue(failure?.message.contains("wrote: " + (failure?.writtenPaths.first ?? "")) == true, failure?.message ?? "")
        XCTAssertEqual(try sandbox.read("VerifySnapshotTests/testMissingReferenceIsRecordedLocallyAndFails.greeting.txt"), "hello\n")
        // Second run: the reference exists and matches.
        sandbox.nextRun()
        XCTAssertNil(sandbox.run { verifySnapshot(of: "hello", as: .lines, named: "greeting") })
    }

    func testAnUnreachableSourceTreeFailsClearlyUnlessARootIsSet() throws {
        let failure = withSnapshotSettings({ $0.environment = [:] }) {
            verifySnapshot(
                of: "hello", as: .lines, named: "greeting",
                file: StaticString(stringLiteral: "/nonexistent-source-tree/Tests/LoginTests.swift"))
        }
        XCTAssertEqual(failure?.kind, .configuration)
        XCTAssertTrue(
            failure?.message.hasPrefix(
                "The source tree is not reachable from this test process: /nonexistent-source-tree/Tests does not exist here") == true,
            failure?.message ?? "")
        XCTAssertTrue(failure?.message.contains("TEST_RUNNER_TEXT_SNAPSHOT_DIR") == true, failure?.message ?? "")
        let sandbox = try makeSandbox()
        let withRoot = sandbox.run {
            verifySnapshot(
                of: "hello", as: .lines, named: "greeting",
                file: StaticString(stringLiteral: "/nonexistent-source-tree/Tests/LoginTests.swift"))
        }
        XCTAssertEqual(withRoot?.kind, .recorded, "a configured root makes the source folder irrelevant")
    }

    func testOnCIAMissingReferenceFailsAndWritesNothing() throws {
        let sandbox = try makeSandbox()
        let failure = sandbox.run(environment: ["CI": "true"]) { verifySnapshot(of: "hello", as: .lines, named: "greeting") }
        XCTAssertEqual(failure?.kind, .missingReference)
        XCTAssertEqual(failure?.writtenPaths, [])
        XCTAssertEqual(sandbox.snapshotFiles(), [])
        XCTAssertTrue(
            failure?.message.hasPrefix(
                "No reference snapshot \"greeting\"; nothing was written because record mode is .never (default on CI).") == true,
            failure?.message ?? "")
        // The command selects the running test (SpecKit, in this binary, watches test starts from the beginning).
        XCTAssertTrue(
            failure?.message.contains(
                #"record it: TEXT_SNAPSHOT_RECORD=missing swift test --filter '^TextSnapshotTests\.VerifySnapshotTests/testOnCIAMissingReferenceFailsAndWritesNothing$'"#
            )
                == true, failure?.message ?? "")
        // The candidate is kept as an artifact for inspection, outside the snapshot folders.
        XCTAssertEqual(sandbox.artifactFiles(), ["VerifySnapshotTests/testOnCIAMissingReferenceFailsAndWritesNothing.greeting.txt"])
    }

    func testRecordAllInCodeIsRefusedOnCIAndFailsEvenWhenMatching() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("hello\n", to: "VerifySnapshotTests/testRecordAllInCodeIsRefusedOnCIAndFailsEvenWhenMatching.1.txt")
        let failure = sandbox.run(environment: ["CI": "true"]) { verifySnapshot(of: "hello", as: .lines, record: .all) }
        XCTAssertEqual(failure?.kind, .recordRefusedOnCI)
        XCTAssertEqual(failure?.writtenPaths, [])
        XCTAssertTrue(
            failure?.summary.hasPrefix("record mode .all was requested by record: argument but CI is set") == true, failure?.message ?? "")
        let allowed = sandbox.run(environment: ["CI": "true", "TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI": "1"]) {
            verifySnapshot(of: "hello", as: .lines, named: "allowed", record: .all)
        }
        XCTAssertEqual(allowed?.kind, .recorded)
    }

    func testRecordAllRunFailsAndListsWhatItWrote() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("old\n", to: "VerifySnapshotTests/testRecordAllRunFailsAndListsWhatItWrote.a.txt")
        let failures = sandbox.run(record: .all) {
            [verifySnapshot(of: "new", as: .lines, named: "a"), verifySnapshot(of: "b", as: .lines, named: "b")]
        }
        XCTAssertEqual(failures.map { $0?.kind }, [.recorded, .recorded])
        XCTAssertEqual(
            failures.map { $0?.writtenPaths.first.map { ($0 as NSString).lastPathComponent } },
            [
                "testRecordAllRunFailsAndListsWhatItWrote.a.txt", "testRecordAllRunFailsAndListsWhatItWrote.b.txt",
            ])
        XCTAssertTrue(
            failures[0]?.summary.contains("Record mode .all (withSnapshotRecording): wrote snapshot \"a\" (1 line differs") == true,
            failures[0]?.message ?? "")
        XCTAssertTrue(failures[1]?.summary.contains("(new)") == true, failures[1]?.message ?? "")
        XCTAssertEqual(try sandbox.read("VerifySnapshotTests/testRecordAllRunFailsAndListsWhatItWrote.a.txt"), "new\n")
    }

    func testMismatchFailsWithSummaryPathsCommandAndDiffAndSavesTheActualText() throws {
        let sandbox = try makeSandbox()
        let name = "VerifySnapshotTests/testMismatchFailsWithSummaryPathsCommandAndDiffAndSavesTheActualText.time.txt"
        try sandbox.write("Ends at 10:13 PM\n", to: name)
        let failure = try XCTUnwrap(sandbox.run { verifySnapshot(of: "Ends at 10:13\u{202F}PM", as: .lines, named: "time") })
        XCTAssertEqual(failure.kind, .mismatch)
        let lines = failure.message.components(separatedBy: "\n")
        XCTAssertEqual(
            lines[0],
            "Snapshot \"time\" does not match reference: 1 line differs (line 1, col 14: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE)")
        XCTAssertEqual(lines[1], "  reference: \(sandbox.root)/\(name)")
        XCTAssertEqual(lines[2], "  actual:    \(sandbox.artifacts)/\(name)")
        XCTAssertEqual(
            lines[4],
            #"  re-record: TEXT_SNAPSHOT_RECORD=failed swift test --filter '^TextSnapshotTests\.VerifySnapshotTests/testMismatchFailsWithSummaryPathsCommandAndDiffAndSavesTheActualText$'"#
        )
        XCTAssertTrue(lines.contains("?             ^ col 14: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE"), failure.message)
        XCTAssertEqual(failure.writtenPaths, [])
        XCTAssertEqual(try String(contentsOfFile: try XCTUnwrap(failure.artifactPath), encoding: .utf8), "Ends at 10:13\u{202F}PM\n")
        XCTAssertEqual(try sandbox.read(name), "Ends at 10:13 PM\n", "a mismatch never touches the reference")
    }

    func testComparisonIsByteExactNotStringEquality() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("caf\u{E9}\n", to: "VerifySnapshotTests/testComparisonIsByteExactNotStringEquality.1.txt")
        XCTAssertEqual("caf\u{E9}", "cafe\u{301}", "Swift's String == hides the difference")
        let failure = sandbox.run { verifySnapshot(of: "cafe\u{301}", as: .lines, record: .never) }
        XCTAssertEqual(failure?.kind, .mismatch)
        XCTAssertTrue(failure?.message.contains("canonically equivalent (NFC vs NFD)") == true, failure?.message ?? "")
    }

    func testFailedModeRerecordsAMismatch() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("one\n", to: "VerifySnapshotTests/testFailedModeRerecordsAMismatch.1.txt")
        let failure = sandbox.run(environment: ["TEXT_SNAPSHOT_RECORD": "failed"]) { verifySnapshot(of: "two", as: .lines) }
        XCTAssertEqual(failure?.kind, .recorded)
        XCTAssertEqual(failure?.writtenPaths.count, 1)
        XCTAssertNotNil(failure?.difference)
        XCTAssertEqual(try sandbox.read("VerifySnapshotTests/testFailedModeRerecordsAMismatch.1.txt"), "two\n")
    }

    func testFilesAreUTF8WithLFAndExactlyOneTrailingNewline() throws {
        let sandbox = try makeSandbox()
        _ = sandbox.run { verifySnapshot(of: "a\r\nb\r\n\n\n", as: .lines, named: "crlf") }
        let data = try Data(
            contentsOf: URL(
                fileURLWithPath: sandbox.root + "/VerifySnapshotTests/testFilesAreUTF8WithLFAndExactlyOneTrailingNewline.crlf.txt"))
        XCTAssertEqual(Array(data), Array("a\nb\n".utf8))
        XCTAssertEqual(SnapshotFiles.normalize(""), "\n")
        XCTAssertEqual(SnapshotFiles.normalize("x\ry"), "x\ny\n")
        // No temporary files are left next to the reference.
        XCTAssertEqual(sandbox.snapshotFiles(), ["VerifySnapshotTests/testFilesAreUTF8WithLFAndExactlyOneTrailingNewline.crlf.txt"])
    }

    func testUnnamedSnapshotsAreNumberedPerTest() throws {
        let sandbox = try makeSandbox()
        _ = sandbox.run {
            (verifySnapshot(of: "a", as: .lines), verifySnapshot(of: 1, as: .description), verifySnapshot(of: ["k": 1], as: .json))
        }
        XCTAssertEqual(
            sandbox.snapshotFiles(),
            [
                "VerifySnapshotTests/testUnnamedSnapshotsAreNumberedPerTest.1.txt",
                "VerifySnapshotTests/testUnnamedSnapshotsAreNumberedPerTest.2.txt",
                "VerifySnapshotTests/testUnnamedSnapshotsAreNumberedPerTest.3.json",
            ])
    }

    func testDefaultLocationIsBesideTheTestFileAndTheEnvironmentCanMoveIt() throws {
        let sandbox = try makeSandbox()
        let fakeTestFile: StaticString = "/work/project/Tests/AppTests/LoginTests.swift"
        // TEXT_SNAPSHOT_DIR replaces <folder of the test file>/__Snapshots__.
        let failure = withSnapshotSettings({
            $0.environment = ["TEXT_SNAPSHOT_DIR": sandbox.root]; $0.ledger = sandbox.ledger
        }) {
            verifySnapshot(of: "x", as: .lines, named: "lang de", file: fakeTestFile, testName: "testLogin()")
        }
        XCTAssertEqual(failure?.referencePath, sandbox.root + "/LoginTests/testLogin.lang-de.txt")
        XCTAssertEqual(
            SnapshotFiles.root(for: "/work/project/Tests/AppTests/LoginTests.swift", settings: SnapshotSettings(environment: [:])),
            "/work/project/Tests/AppTests/__Snapshots__")
        // snapshotDirectory: names the folder itself.
        let custom = sandbox.directory.appendingPathComponent("custom").path
        let second = withSnapshotSettings({
            $0.environment = [:]; $0.ledger = sandbox.ledger
        }) {
            verifySnapshot(of: "x", as: .lines, named: "n", snapshotDirectory: custom, testName: "testThing()")
        }
        XCTAssertEqual(second?.writtenPaths, [custom + "/testThing.n.txt"])
    }

    func testSanitizerKeepsLettersDigitsAndUnderscores() {
        XCTAssertEqual(SnapshotFiles.sanitize("testView()"), "testView")
        XCTAssertEqual(SnapshotFiles.sanitize("lang_de_device_phone4_7inch"), "lang_de_device_phone4_7inch")
        XCTAssertEqual(SnapshotFiles.sanitize("lang_ja device=pad (landscape)"), "lang_ja-device-pad-landscape")
        XCTAssertEqual(SnapshotFiles.sanitize("testLogin_日本語()"), "testLogin_日本語")
        XCTAssertEqual(SnapshotFiles.sanitize("test.with.dots"), "test-with-dots")
    }

    func testTwoAssertionsSharingAFileAreReported() throws {
        let sandbox = try makeSandbox()
        let failures = sandbox.run {
            [verifySnapshot(of: "a", as: .lines, named: "same", line: 10), verifySnapshot(of: "a", as: .lines, named: "same", line: 20)]
        }
        XCTAssertEqual(failures[0]?.kind, .recorded)
        XCTAssertEqual(failures[1]?.kind, .duplicate)
        XCTAssertTrue(
            failures[1]?.message.contains("is also used by testTwoAssertionsSharingAFileAreReported() at") == true,
            failures[1]?.message ?? "")
    }

    func testStrategyErrorsAreReportedNotThrown() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "no data" } }
        let sandbox = try makeSandbox()
        let strategy = Snapshotting<Int>(pathExtension: "txt") { _ in throw Broken() }
        let failure = sandbox.run { verifySnapshot(of: 1, as: strategy, named: "x") }
        XCTAssertEqual(failure?.kind, .snapshotError)
        XCTAssertEqual(failure?.message, "Could not make snapshot \"x\": no data")
        XCTAssertEqual(sandbox.snapshotFiles(), [])
    }

    func testAssertSnapshotPassesOnAMatchingReference() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("▿ 2 elements\n  - 1\n  - 2\n", to: "VerifySnapshotTests/testAssertSnapshotPassesOnAMatchingReference.1.txt")
        sandbox.run(environment: ["CI": "true"]) { assertSnapshot(of: [1, 2], as: .dump) }
    }
}
