import Foundation
import XCTest

@testable import SpecKit
@testable import SpecReporting

/// `report.html`: escaping, the Content-Security-Policy hashes, scenarios and steps, and the
/// snapshot gallery, rendered from report values as the merge renders them.
final class HTMLReportTests: XCTestCase {
    private let context = ReportContext(runID: "run-1", generatedAt: Date(timeIntervalSince1970: 0), tagFilter: "")

    private func report(
        _ title: String, status: ScenarioReport.Status = .passed, tags: [String] = ["login"], ordinal: Int = 0,
        steps: [StepResult] = [], failures: [FailureRecord] = [], reason: String? = nil, snapshots: [SnapshotRecord]? = nil
    ) -> ScenarioReport {
        ScenarioReport(
            runID: "run-1", specClass: "Specs.LoginFeature",
            feature: .init(kind: "Feature", title: "Login", narrative: "As a reader", tags: ["login"]),
            featureIndex: 0, path: [], keyword: "Scenario", title: title, testName: TestNaming.sanitize(title),
            tags: tags, example: nil, ordinal: ordinal, status: status, reason: reason, duration: 0.012,
            steps: steps, failures: failures, file: "/repo/Specs/LoginFeature.swift", line: 10 + ordinal,
            finishedAt: Date(timeIntervalSince1970: 0), snapshots: snapshots)
    }

    private func step(_ keyword: String, _ text: String, _ status: StepResult.Status, failure: String? = nil) -> StepResult {
        StepResult(
            keyword: keyword, text: text, status: status, duration: 0.002, file: "/repo/Specs/LoginFeature.swift",
            line: 12, failure: failure, background: false)
    }

    private func screen(
        _ language: String, _ device: String, columns: Int = 12, outcome: SnapshotRecord.Outcome = .matched,
        actual: String = "┌──────────┐\n│  hello   │\n└──────────┘\n", reference: String? = nil
    ) -> SnapshotRecord {
        SnapshotRecord(
            name: "loginEmpty", identifier: "lang_\(language)_device_\(device)",
            path: "/repo/Specs/__Snapshots__/LoginScreenSnapshots/loginEmpty.lang_\(language)_device_\(device).txt",
            outcome: outcome, actual: actual, reference: reference,
            summary: outcome == .matched ? nil : "Snapshot \"lang_\(language)_device_\(device)\" does not match reference: 1 line differs",
            screen: .init(
                language: language, rightToLeft: language == "ar", device: device, orientation: "portrait",
                columns: columns, rows: 3),
            line: 20)
    }

    /// The text of every element whose opening tag matches `pattern` (a regex over the tag), in order.
    private func elements(_ pattern: String, in html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: "<(\(pattern))[^>]*>", options: [])
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range, in: html)!]) }
    }

    func testMarkupInATitleTagStepTableDocStringOrFailureRendersAsText() {
        var hostile = step("When", "a <b>bold</b> step", .failed, failure: "expected <\"</pre><script>alert(3)</script>\">")
        hostile.table = [["<th>", "x"], ["<td onclick=alert(4)>", "&amp;"]]
        hostile.docString = "</pre><img src=x onerror=alert(5)>"
        let html = HTMLReportRenderer.render(
            [
                report(
                    "<script>alert(1)</script>", status: .failed, tags: ["\"><script>alert(2)</script>"], steps: [hostile],
                    failures: [.init(message: hostile.failure!, file: "/repo/Specs/LoginFeature.swift", line: 14)])
            ], context: context)
        XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 1, "only the page's own script element:\n\(html)")
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html)
        XCTAssertTrue(html.contains("data-tags=\"&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;\""), html)
        XCTAssertTrue(html.contains("a &lt;b&gt;bold&lt;/b&gt; step"), html)
        XCTAssertTrue(html.contains("&lt;/pre&gt;&lt;img src=x onerror=alert(5)&gt;"), html)
        XCTAssertTrue(html.contains("<td>&lt;td onclick=alert(4)&gt;</td><td>&amp;amp;</td>"), html)
        XCTAssertFalse(html.contains("<img"), html)
        XCTAssertFalse(html.contains("<b>bold"), html)
    }

    func testThePolicyAllowsExactlyTheInlineStyleAndScriptByTheirHashes() throws {
        let html = HTMLReportRenderer.render([report("A", snapshots: [screen("en", "phone4inch", columns: 40)])], context: context)
        let policy = try XCTUnwrap(elements("meta http-equiv=\"Content-Security-Policy\"", in: html).first)
        let style = try XCTUnwrap(html.components(separatedBy: "<style>").dropFirst().first?.components(separatedBy: "</style>").first)
        let script = try XCTUnwrap(html.components(separatedBy: "<script>").dropFirst().first?.components(separatedBy: "</script>").first)
        XCTAssertTrue(policy.contains("default-src 'none'"), policy)
        XCTAssertTrue(policy.contains("style-src \(SHA256.cspSource(style));"), policy)
        XCTAssertTrue(policy.contains("script-src \(SHA256.cspSource(script));"), policy)
        XCTAssertTrue(style.contains(".w40 { min-width: 40ch; }"), "the grid width is a class of the hashed stylesheet")
        // The policy forbids inline attributes; the page uses none.
        XCTAssertNil(html.range(of: #"\s(style|on[a-z]+)\s*="#, options: .regularExpression), html)
        XCTAssertNil(html.range(of: #"(src|href)="(https?:)?//"#, options: .regularExpression), "no external asset")
    }

    func testSHA256MatchesPublishedVectors() {
        XCTAssertEqual(SHA256.hex(SHA256.digest([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(SHA256.digest(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.cspSource("abc"), "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
    }

    func testScenariosCarryTheirStatusTagsStepsAndTheFailureAtItsStep() {
        var table = step("Given", "these readers", .passed)
        table.table = [["name", "email"], ["Ada", "ada@example.com"]]
        var doc = step("And", "this body", .passed)
        doc.docString = "{\"title\": \"Launch\"}"
        let failure = "[Then the button is enabled] expected to equal <true>, got <false>"
        let html = HTMLReportRenderer.render(
            [
                report("Valid", tags: ["login", "smoke"], ordinal: 0, steps: [table, doc]),
                report(
                    "Short password", status: .failed, ordinal: 1,
                    steps: [step("Then", "the button is enabled", .failed, failure: failure), step("And", "nothing is sent", .skipped)],
                    failures: [.init(message: failure, file: "/repo/Specs/LoginFeature.swift", line: 14)]),
                report("Sharing", status: .pending, ordinal: 2, reason: "waiting for the API"),
            ], context: context)
        XCTAssertEqual(
            elements("details class=\"scenario\"", in: html).map { $0.contains("data-status=\"failed\"") }, [false, true, false])
        XCTAssertTrue(html.contains("data-status=\"passed\" data-tags=\"login smoke\""), html)
        XCTAssertTrue(html.contains("data-status=\"pending\" data-tags=\"login\""), html)
        XCTAssertTrue(html.contains("<label><input type=\"checkbox\" data-status=\"failed\" checked> failed (1)</label>"), html)
        XCTAssertTrue(html.contains("data-tag=\"smoke\" aria-pressed=\"false\">@smoke (1)</button>"), html)
        XCTAssertTrue(
            html.contains("<thead><tr><th>name</th><th>email</th></tr></thead><tbody><tr><td>Ada</td><td>ada@example.com</td></tr>"), html)
        XCTAssertTrue(html.contains("<pre class=\"doc-string\">{&quot;title&quot;: &quot;Launch&quot;}</pre>"), html)
        // The failure sits in its step's list item, with where it happened.
        let failedStep =
            html.components(separatedBy: "<li class=\"step failed\">").dropFirst().first?.components(separatedBy: "</li>").first ?? ""
        XCTAssertTrue(failedStep.contains("<pre class=\"failure\">\(HTMLText.escape(failure))</pre>"), failedStep)
        XCTAssertTrue(failedStep.contains("at /repo/Specs/LoginFeature.swift:14"), failedStep)
        XCTAssertTrue(
            html.contains("<li class=\"step skipped\"><span class=\"mark\">–</span><span class=\"keyword\">And</span> nothing is sent"),
            html)
        XCTAssertTrue(html.contains("<p class=\"reason\">pending: waiting for the API</p>"), html)
        XCTAssertTrue(html.contains("<span class=\"duration\">12 ms</span>"), html)
    }

    func testTheGalleryIsALanguageByDeviceGridWithTheFailingCellSideBySide() throws {
        let reference = "┌──────────┐\n│ 10:13 PM │\n└──────────┘\n"
        let actual = "┌──────────┐\n│ 10:13\u{A0}PM │\n└──────────┘\n"
        let snapshots = [
            screen("en", "phone4inch"), screen("en", "pad", columns: 20),
            screen("ar", "phone4inch", outcome: .mismatched, actual: actual, reference: reference), screen("ar", "pad", columns: 20),
        ]
        let html = HTMLReportRenderer.render([report("An empty form", snapshots: snapshots)], context: context)
        let gallery = try XCTUnwrap(html.components(separatedBy: "<section class=\"gallery\" id=\"gallery\">").dropFirst().first)
        XCTAssertTrue(gallery.contains("<thead><tr><th></th><th>phone4inch<br>12×3</th><th>pad<br>20×3</th></tr></thead>"), gallery)
        XCTAssertEqual(elements("tr", in: gallery).count, 3, "a header row and one row per language")
        XCTAssertEqual(elements("td class=\"cell", in: gallery).count, 4)
        let failing = elements("td class=\"cell fail\"", in: gallery)
        XCTAssertEqual(failing.count, 1, gallery)
        XCTAssertTrue(failing[0].contains("lang=\"ar\" dir=\"rtl\""), failing[0])
        XCTAssertTrue(gallery.contains("<pre class=\"text-screen w12\" dir=\"ltr\">"), "real widths: a class per grid width")
        // Side by side: the reference's line and the actual one, the no-break space made visible.
        XCTAssertTrue(gallery.contains("<div class=\"side-title\">expected (reference)</div>"), gallery)
        XCTAssertTrue(gallery.contains("<span class=\"ln changed\">│ 10:13 PM │</span>"), gallery)
        XCTAssertTrue(
            gallery.contains(
                "<span class=\"ln changed\">│ 10:13<span class=\"inv\" title=\"U+00A0 NO-BREAK SPACE\">␣</span>PM │</span>"), gallery)
        // The scenario links to its screen and to the failing cell, which carries that id.
        let cellID = try XCTUnwrap(failing[0].range(of: #"id="snapshot-\d+""#, options: .regularExpression).map { String(failing[0][$0]) })
        let anchor = cellID.dropFirst(4).dropLast()
        XCTAssertTrue(html.contains("<a class=\"bad\" href=\"#\(anchor)\">lang_ar_device_phone4inch</a>"), html)
        XCTAssertTrue(html.contains("<a href=\"#screen-1\">LoginScreenSnapshots/loginEmpty</a> (4, "), html)
        XCTAssertTrue(gallery.contains("asserted by <a href=\"#scenario-1\">An empty form</a>"), gallery)
    }

    func testInvisibleCharactersAndTrailingSpacesAreShownInADiff() {
        XCTAssertEqual(
            HTMLText.revealingInvisibles("a\u{200B}b\tc  "),
            "a<span class=\"inv\" title=\"U+200B ZERO WIDTH SPACE\">⁞</span>b"
                + "<span class=\"inv\" title=\"U+0009 CHARACTER TABULATION\">→</span>c"
                + "<span class=\"trail\" title=\"2 trailing spaces\">··</span>")
        XCTAssertEqual(HTMLText.revealingInvisibles("<x>"), "&lt;x&gt;")
    }

    func testSideBySideDiffPairsChangedLinesAndLeavesGapsOppositeInsertions() {
        let diff = SideBySideDiff(reference: "a\nb\nc\n", actual: "a\nB\nc\nd\n")
        XCTAssertEqual(
            diff.rows,
            [
                .init(kind: .same, left: "a", right: "a"), .init(kind: .changed, left: "b", right: "B"),
                .init(kind: .same, left: "c", right: "c"), .init(kind: .added, left: nil, right: "d"),
            ])
        // Canonically equivalent lines are still different bytes.
        let nfd = SideBySideDiff(reference: "caf\u{E9}\n", actual: "cafe\u{301}\n")
        XCTAssertEqual(nfd.rows.map(\.kind), [.changed])
    }

    func testSnapshotRecordsRoundTripThroughTheFragmentLine() throws {
        let original = report(
            "A",
            snapshots: [
                screen("ar", "pad", outcome: .mismatched, actual: "x\u{A0}\"\n", reference: "x \"\n"),
                SnapshotRecord(
                    name: "order", identifier: "1", path: "/p/order.1.json", outcome: .recorded, actual: "{}\n",
                    reference: nil, summary: nil, screen: nil, line: 3),
            ])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let decoded = try decoder.decode(ScenarioReport.self, from: FragmentEncoder.line(for: original))
        XCTAssertEqual(decoded, original)
        let none = try decoder.decode(ScenarioReport.self, from: FragmentEncoder.line(for: report("B")))
        XCTAssertNil(none.snapshots)
    }

    func testTheMergeWritesTheHTMLReportNextToTheLivingDocument() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("html-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ReportStore(directory: directory, runID: "run-1")
        try store.write(report("An empty form", snapshots: [screen("en", "phone4inch")]))
        try store.merge(partial: false, announce: false)
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("An empty form"), html)
        XCTAssertTrue(html.contains("id=\"gallery\""), html)
    }
}

extension HTMLReportTests {
    func testALongSnapshotTextIsCutAtALineEndWithANote() {
        let line = String(repeating: "x", count: 99) + "\n"
        let text = String(repeating: line, count: 1_000) // 100,000 bytes
        let clipped = ScenarioSnapshots.clip(text, path: "/p/big.1.txt")
        XCTAssertLessThanOrEqual(clipped.utf8.count, ScenarioSnapshots.maximumTextBytes + 200)
        XCTAssertTrue(clipped.hasPrefix(String(repeating: line, count: 655)), "whole lines are kept")
        XCTAssertTrue(
            clipped.hasSuffix("… (cut at 64 KB of 100000 bytes; the whole text is in /p/big.1.txt)\n"), String(clipped.suffix(120)))
        XCTAssertEqual(ScenarioSnapshots.clip("short\n", path: "/p"), "short\n")
    }
}
