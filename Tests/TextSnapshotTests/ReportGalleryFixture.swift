import Foundation
import SpecKit
import Testing
import TextSnapshot

/// A receipt screen checked in 3 languages (one right-to-left) × 2 devices, twice: once against
/// matching references and once with one combination deliberately changed (a U+202F NARROW
/// NO-BREAK SPACE before "PM", as ICU 72 brought), so the HTML report's gallery has a failing cell.
/// Declared only with `TEXT_SNAPSHOT_GALLERY_FIXTURE=1`, as an XCTest feature and as a Swift
/// Testing feature; `ReportGalleryTests` and `scripts/browser-test.py` run it in a subprocess
/// (references go to `TEXT_SNAPSHOT_GALLERY_DIR`, a scratch folder, never to the repository).
enum ReportGalleryFixture {
    static let enabled = ProcessInfo.processInfo.environment["TEXT_SNAPSHOT_GALLERY_FIXTURE"] == "1"
    static let languages: [Language] = [.en, .ar, .ja]
    static let devices: [Device] = [.phone4inch, .pad]

    static var directory: String {
        ProcessInfo.processInfo.environment["TEXT_SNAPSHOT_GALLERY_DIR"]
            ?? (NSTemporaryDirectory() as NSString).appendingPathComponent(
                "text-snapshot-gallery-\(ProcessInfo.processInfo.processIdentifier)")
    }

    static func receipt(_ context: SnapshotContext, time: String) -> TextNode {
        .stack(
            [
                .titleBar(context.language == .ar ? "الإيصال" : context.language == .ja ? "領収書" : "Receipt"),
                .row(leading: .text("Posted at"), trailing: .text(time)),
                .row(leading: .text("Total"), trailing: .text("€12.50")),
                .button(context.language == .ar ? "موافق" : "OK"),
            ], spacing: 1)
    }

    /// Writes every combination's reference (what the screen said before), then checks the screen
    /// as it is now: `changed` alters the English phone's time only.
    static func check(_ testName: String, changed: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = (directory as NSString).appendingPathComponent(testName)
        for language in languages {
            for device in devices {
                let context = SnapshotContext(language: language, device: device)
                let text = try Snapshotting<TextNode>.screen(context).snapshot(receipt(context, time: "10:13 PM"))
                let path = (folder as NSString).appendingPathComponent("\(testName).\(context.identifier).txt")
                try SnapshotFiles.writeAtomically(SnapshotFiles.normalize(text), to: path)
            }
        }
        assertScreenSnapshots(
            languages: languages, devices: devices, record: .never, snapshotDirectory: folder, file: file,
            testName: testName, line: line
        ) { context in
            let broken = changed && context.language == .en && context.device == .phone4inch
            return receipt(context, time: broken ? "10:13\u{202F}PM" : "10:13 PM")
        }
    }

    static func declare(_ prefix: String) {
        Feature("Receipt gallery", tags: "gallery") {
            Scenario("A receipt in every language", tags: "receipt") {
                Then("every combination matches its reference") { try check(prefix + "Matching", changed: false) }
            }
            Scenario("A receipt after the ICU update", tags: "receipt", "icu") {
                Then("the English phone shows a narrow no-break space") { try check(prefix + "Changed", changed: true) }
            }
            Scenario("Totals add up", tags: "math") {
                Then("two and two make four") { expect(2 + 2).to(equal(4)) }
            }
        }
    }
}

final class ReportGalleryFixtureFeature: FeatureSpec {
    override func testFeature() {
        guard ReportGalleryFixture.enabled else { return }
        ReportGalleryFixture.declare("xctest")
    }
}

@MainActor
struct ReportGalleryFixtureSwiftTesting: SwiftTestingFeature {
    static func feature() {
        guard ReportGalleryFixture.enabled else { return }
        ReportGalleryFixture.declare("swiftTesting")
    }

    @Test(arguments: await ReportGalleryFixtureSwiftTesting.scenarios())
    func scenario(_ scenario: FeatureScenario) async {
        await scenario.run()
    }
}
