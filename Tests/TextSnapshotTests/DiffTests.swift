import TextSnapshot
import XCTest

final class DiffTests: XCTestCase {
    func testIdenticalBytesHaveNoDifference() {
        XCTAssertNil(TextDiff.compare(reference: "a\nb\n", actual: "a\nb\n"))
    }

    func testNarrowNoBreakSpaceShowsTheHintLine() throws {
        let reference = "┌────┐\n│ Ends Nov 14, 2023 at 10:13 PM │\n└────┘\n"
        let actual = "┌────┐\n│ Ends Nov 14, 2023 at 10:13\u{202F}PM │\n└────┘\n"
        let difference = try XCTUnwrap(TextDiff.compare(reference: reference, actual: actual))
        let lines = difference.diff.components(separatedBy: "\n")
        XCTAssertEqual(lines, [
            "--- reference",
            "+++ actual",
            "@@ -1,3 +1,3 @@",
            " ┌────┐",
            "-│ Ends Nov 14, 2023 at 10:13 PM │",
            "+│ Ends Nov 14, 2023 at 10:13\u{202F}PM │",
            "?" + String(repeating: " ", count: 28) + "^ col 29: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE",
            " └────┘",
        ])
        XCTAssertEqual(difference.summary, "1 line differs (line 2, col 29: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE)")
    }

    func testCanonicallyEquivalentTextIsADifference() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "caf\u{E9}\n", actual: "cafe\u{301}\n"))
        XCTAssertTrue(difference.diff.contains(
            "?   ^ col 4: U+00E9 LATIN SMALL LETTER E WITH ACUTE vs U+0065 LATIN SMALL LETTER E U+0301 COMBINING ACUTE ACCENT; canonically equivalent (NFC vs NFD)"),
            difference.diff)
    }

    func testTrailingWhitespaceIsNamed() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "Continue\n", actual: "Continue  \n"))
        XCTAssertTrue(difference.diff.contains("?        ^ col 9: nothing vs U+0020 SPACE U+0020 SPACE; trailing whitespace"), difference.diff)
    }

    func testMissingFinalNewlineIsNamed() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "a\nb", actual: "a\nb\n"))
        XCTAssertEqual(difference.diff.components(separatedBy: "\n"), [
            "--- reference", "+++ actual", "@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+b",
            "? ^ col 2: no newline at the end of the reference",
        ])
    }

    func testCRLFIsNamed() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "a\r\nb\r\n", actual: "a\nb\n"))
        XCTAssertTrue(difference.diff.contains("? ^ col 2: U+000D CARRIAGE RETURN vs nothing; CRLF line ending in the reference"), difference.diff)
        XCTAssertTrue(difference.summary.contains("CRLF"), difference.summary)
    }

    func testHintColumnCountsDisplayColumns() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "日本語x\n", actual: "日本語y\n"))
        XCTAssertTrue(difference.diff.contains("?      ^ col 7: U+0078 LATIN SMALL LETTER X vs U+0079 LATIN SMALL LETTER Y"), difference.diff)
    }

    func testHunksHaveThreeLinesOfContextAndOneBasedHeaders() throws {
        let reference = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var changed = (1...20).map { "line \($0)" }
        changed[9] = "line ten"            // line 10
        changed.remove(at: 17)             // line 18
        changed.insert("new first", at: 0)
        let difference = try XCTUnwrap(TextDiff.compare(reference: reference, actual: changed.joined(separator: "\n") + "\n"))
        let headers = difference.diff.components(separatedBy: "\n").filter { $0.hasPrefix("@@") }
        XCTAssertEqual(headers, ["@@ -1,3 +1,4 @@", "@@ -7,7 +8,7 @@", "@@ -15,6 +16,5 @@"])
        XCTAssertTrue(difference.diff.contains("@@ -7,7 +8,7 @@\n line 7\n line 8\n line 9\n-line 10\n+line ten\n"), difference.diff)
        XCTAssertEqual(difference.summary.prefix(15), "3 lines differ ")
    }

    func testLongDiffsAreCappedWithACountOfWhatWasCut() throws {
        let reference = (1...300).map { "old \($0)\n" }.joined()
        let actual = (1...300).map { "new \($0)\n" }.joined()
        let difference = try XCTUnwrap(TextDiff.compare(reference: reference, actual: actual, maxLines: 120))
        let lines = difference.diff.components(separatedBy: "\n")
        XCTAssertEqual(lines.count, 2 + 120 + 1)
        // 1 header + 300 × (-, +, ?) = 901 diff lines; 781 are cut.
        XCTAssertEqual(lines.last, "… 781 more diff lines not shown (see the actual file)")
    }

    func testMyersFindsAShortestEditScript() {
        let edits = LineDiff.edits(Array("ABCABBA"), Array("CBABAC"))
        let changes = edits.filter { if case .equal = $0 { return false } else { return true } }
        XCTAssertEqual(changes.count, 5)  // the classic example: D = 5
        XCTAssertEqual(LineDiff.edits(["a", "b", "c"], ["a", "x", "c"]), [.equal(0, 0), .delete(1), .insert(1), .equal(2, 2)])
    }

    func testScalarNamesIncludeControls() {
        XCTAssertEqual(ScalarNames.describe("\u{202F}"), "U+202F NARROW NO-BREAK SPACE")
        XCTAssertEqual(ScalarNames.describe("\t"), "U+0009 CHARACTER TABULATION")
        XCTAssertEqual(ScalarNames.describe("\u{200F}"), "U+200F RIGHT-TO-LEFT MARK")
    }
}
