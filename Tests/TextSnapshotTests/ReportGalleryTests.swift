import Foundation
import XCTest

/// TextSnapshot tells SpecKit's report what each scenario compared: `ReportGalleryFixture` runs in
/// a subprocess of this test binary under XCTest and under Swift Testing, and its report holds
/// every combination of both screens, the changed one as a failing gallery cell.
final class ReportGalleryTests: XCTestCase {
    private struct Run {
        var status: Int32
        var output: String
        var scenarios: [[String: Any]]
        var html: String
    }

    private func run(_ arguments: [String]) throws -> Run {
        #if os(Linux)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("report-gallery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("BDD_") && !$0.key.hasPrefix("TEXT_SNAPSHOT_") }
        environment["BDD_REPORT_DIR"] = scratch.appendingPathComponent("report").path
        environment["TEXT_SNAPSHOT_GALLERY_FIXTURE"] = "1"
        environment["TEXT_SNAPSHOT_GALLERY_DIR"] = scratch.appendingPathComponent("snapshots").path
        environment["TEXT_SNAPSHOT_ARTIFACTS"] = scratch.appendingPathComponent("artifacts").path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = scratch.appendingPathComponent("report")
        let lines = (try? String(contentsOf: report.appendingPathComponent("scenarios.jsonl"), encoding: .utf8)) ?? ""
        let scenarios = lines.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let html = (try? String(contentsOf: report.appendingPathComponent("report.html"), encoding: .utf8)) ?? ""
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self), scenarios: scenarios, html: html)
        #else
        throw XCTSkip("runs the Linux test binary as a subprocess")
        #endif
    }

    private func check(_ run: Run, prefix: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(run.status, 0, "the changed receipt fails the run", file: file, line: line)
        let byTitle = Dictionary(run.scenarios.map { (($0["title"] as? String) ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byTitle.count, 3, run.output, file: file, line: line)
        let matching = byTitle["A receipt in every language"]?["snapshots"] as? [[String: Any]] ?? []
        let changed = byTitle["A receipt after the ICU update"]?["snapshots"] as? [[String: Any]] ?? []
        XCTAssertNil(byTitle["Totals add up"]?["snapshots"], "a scenario without snapshots has none", file: file, line: line)
        XCTAssertEqual(matching.map { $0["outcome"] as? String }, Array(repeating: "matched", count: 6), run.output, file: file, line: line)
        XCTAssertEqual(matching.first?["name"] as? String, prefix + "Matching", file: file, line: line)
        XCTAssertEqual(
            changed.compactMap { $0["identifier"] as? String },
            [
                "lang_en_device_phone4inch", "lang_en_device_pad", "lang_ar_device_phone4inch", "lang_ar_device_pad",
                "lang_ja_device_phone4inch", "lang_ja_device_pad",
            ], file: file, line: line)
        let failing = changed.filter { $0["outcome"] as? String != "matched" }
        XCTAssertEqual(failing.count, 1, "\(changed)", file: file, line: line)
        XCTAssertEqual(failing.first?["outcome"] as? String, "mismatched", file: file, line: line)
        XCTAssertTrue((failing.first?["actual"] as? String ?? "").contains("10:13\u{202F}PM"), file: file, line: line)
        XCTAssertTrue((failing.first?["reference"] as? String ?? "").contains("10:13 PM"), file: file, line: line)
        XCTAssertTrue((failing.first?["summary"] as? String ?? "").contains("U+202F NARROW NO-BREAK SPACE"), file: file, line: line)
        let arabic = changed.first { $0["identifier"] as? String == "lang_ar_device_pad" }?["screen"] as? [String: Any]
        XCTAssertEqual(arabic?["rightToLeft"] as? Bool, true, file: file, line: line)
        XCTAssertEqual(arabic?["columns"] as? Int, 96, file: file, line: line)
        // The page: two screens, twelve cells, one failing, the hint visible in it.
        XCTAssertEqual(run.html.components(separatedBy: "<td class=\"cell").count - 1, 12, file: file, line: line)
        XCTAssertEqual(run.html.components(separatedBy: "<td class=\"cell fail\"").count - 1, 1, file: file, line: line)
        XCTAssertTrue(run.html.contains("title=\"U+202F NARROW NO-BREAK SPACE\">␣</span>"), file: file, line: line)
        XCTAssertTrue(run.html.contains(">lang_en_device_phone4inch</a>"), "the scenario links to its failing cell", file: file, line: line)
    }

    func testXCTestScenariosHandTheirSnapshotsToTheHTMLReport() throws {
        check(try run(["TextSnapshotTests.ReportGalleryFixtureFeature"]), prefix: "xctest")
    }

    func testSwiftTestingScenariosHandTheirSnapshotsToTheHTMLReport() throws {
        check(try run(["--testing-library", "swift-testing", "--filter", "ReportGalleryFixtureSwiftTesting"]), prefix: "swiftTesting")
    }
}
