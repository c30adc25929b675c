import Foundation
import SpecKit
import TextSnapshot
import XCTest

@testable import TextScreen

/// Issue 13's snapshot papercuts, each checked through public API.
final class SnapshotPapercutTests: XCTestCase {
    /// 6 languages × 5 devices recorded for the first time: one message listing 30 files,
    /// not a failure per combination plus a summary (90 lines).
    func testRecordingANewScreenInThirtyCombinationsIsOneFailure() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(languages: Language.allCases, devices: Device.allCases) { _ in TextNode.text("hi") }
        }
        XCTAssertEqual(report.identifiers.count, Language.allCases.count * Device.allCases.count)
        let messages = report.failureMessages
        XCTAssertEqual(messages.count, 1, messages.joined(separator: "\n---\n"))
        let message = try XCTUnwrap(messages.first)
        XCTAssertTrue(message.hasPrefix("Recorded \(report.identifiers.count) reference snapshots ("), message)
        for path in report.writtenPaths { XCTAssertTrue(message.contains("  \(path)\n") || message.hasSuffix(path), path) }
        XCTAssertTrue(message.contains("re-run"), message)
    }

    func testAMismatchNextToRecordingsStillGetsItsOwnFailureAndTheSummary() throws {
        let sandbox = try makeSandbox()
        try sandbox.write(
            "old\n", to: "PapercutTests/testAMismatchNextToRecordingsStillGetsItsOwnFailureAndTheSummary.lang_en_device_pad.txt")
        let report = sandbox.run {
            verifyScreenSnapshots(languages: [.en, .de], devices: [.pad], record: .missing) { _ in TextNode.text("new") }
        }
        let messages = report.failureMessages
        XCTAssertEqual(messages.count, 3, messages.joined(separator: "\n---\n"))
        guard messages.count == 3 else { return }
        XCTAssertTrue(messages[0].hasPrefix("[lang_en_device_pad] "), messages[0])
        XCTAssertTrue(messages[1].hasPrefix("Recorded 1 reference snapshot ("), messages[1])
        XCTAssertTrue(messages[2].hasPrefix("2 of 2 screen snapshot combinations failed"), messages[2])
    }

    func testTheCollisionMessageSaysHowToNameASnapshot() throws {
        let sandbox = try makeSandbox()
        let failure = sandbox.run { () -> SnapshotFailure? in
            _ = verifySnapshot(of: "a", as: .lines, named: "same", testName: "testCollision")
            return verifySnapshot(of: "b", as: .lines, named: "same", testName: "testCollision")
        }
        XCTAssertEqual(failure?.kind, .duplicate)
        XCTAssertTrue(
            failure?.message.contains("with `named:`, e.g. assertSnapshot(of: value, as: .lines, named: \"empty-list\")") == true,
            failure?.message ?? "")
    }

    func testTheUnusedSnapshotHintNamesSwiftTestNotMake() {
        let outcome = OrphanPolicy.apply(orphans: ["/tmp/x/__Snapshots__/A/old.1.txt"], environment: [:], runWasClean: true)
        XCTAssertTrue(outcome.report.contains("TEXT_SNAPSHOT_PRUNE=1 swift test"), outcome.report)
        XCTAssertFalse(outcome.report.contains("make test"), outcome.report)
    }

    func testALanguageWithoutStringsWarnsOnceInsteadOfSilentlyShowingEnglish() {
        let catalog = StringsCatalog(strings: ["en": ["hello": "Hello"], "de": ["hello": "Hallo"]], source: "papercut-catalog")
        // Provoked on purpose: kept in `emitted`, not printed, so the green run prints no warning.
        let japanese = Localizer(catalog: catalog, language: .ja)
        XCTAssertEqual(LocalizationWarnings.quietly { japanese("hello") }, "Hello")
        XCTAssertEqual(LocalizationWarnings.quietly { japanese("hello") }, "Hello")
        XCTAssertEqual(Localizer(catalog: catalog, language: .de)("hello"), "Hallo")
        let warnings = LocalizationWarnings.emitted.filter { $0.contains("papercut-catalog") }
        XCTAssertEqual(
            warnings,
            [
                "TextScreen warning: no ja.lproj strings in papercut-catalog (it has de, en); ja screens show en text. "
                    + "Add ja.lproj/Localizable.strings."
            ])
    }
}

/// Two scenarios each take an unnamed snapshot: by default each is named after its scenario,
/// so they no longer collide on `testFeature().1.txt`.
final class SnapshotNamingSpec: FeatureSpec {
    override func testFeature() {
        Feature("Snapshots are named after their scenario") {
            var sandbox: Sandbox!
            beforeEach { sandbox = try Sandbox() }
            afterEach { sandbox.remove() }

            Scenario("the first screen") {
                Then("its snapshot file carries the scenario's name") {
                    let failure = sandbox.run { verifySnapshot(of: "first", as: .lines) }
                    expect(failure?.kind).to(equal(.recorded))
                    expect(failure?.referencePath).to(endWith("/PapercutTests/the-first-screen.1.txt"))
                }
            }
            Scenario("the second screen") {
                Then("its snapshot does not collide with the first one") {
                    let failure = sandbox.run { verifySnapshot(of: "second", as: .lines) }
                    expect(failure?.kind).to(equal(.recorded))
                    expect(failure?.referencePath).to(endWith("/PapercutTests/the-second-screen.1.txt"))
                }
            }
        }
    }
}
