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
        XCTAssertEqual(
            lines,
            [
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
        XCTAssertTrue(
            difference.diff.contains(
                "?   ^ col 4: U+00E9 LATIN SMALL LETTER E WITH ACUTE vs U+0065 LATIN SMALL LETTER E U+0301 COMBINING ACUTE ACCENT; canonically equivalent (NFC vs NFD)"
            ),
            difference.diff)
    }

    func testTrailingWhitespaceIsNamed() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "Continue\n", actual: "Continue  \n"))
        XCTAssertTrue(
            difference.diff.contains("?        ^ col 9: nothing vs U+0020 SPACE U+0020 SPACE; trailing whitespace"), difference.diff)
    }

    func testMissingFinalNewlineIsNamed() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "a\nb", actual: "a\nb\n"))
        XCTAssertEqual(
            difference.diff.components(separatedBy: "\n"),
            [
                "--- reference", "+++ actual", "@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+b",
                "? ^ col 2: no newline at the end of the reference",
            ])
    }

    func testCRLFIsNamed() throws {
        let difference = try XCTUnwrap(TextDiff.compare(reference: "a\r\nb\r\n", actual: "a\nb\n"))
        XCTAssertTrue(
            difference.diff.contains("? ^ col 2: U+000D CARRIAGE RETURN vs nothing; CRLF line ending in the reference"), difference.diff)
        XCTAssertTrue(difference.summary.contains("CRLF"), difference.summary)
    }

    func testHintColumnCountsDisplayColumns() throws {
        // A plainly visible change is quoted; each ideograph is a word of its own.
        let difference = try XCTUnwrap(TextDiff.compare(reference: "日本語x\n", actual: "日本語y\n"))
        XCTAssertTrue(difference.diff.contains("?      ^ col 7: \"x\" → \"y\""), difference.diff)
    }

    // MARK: Visible changes are quoted, invisible ones named

    func testAChangedLabelIsQuotedWordByWordWithTheCaretAtTheFirstDifference() throws {
        // The centred button moves one column left: the first difference is a space, but what
        // changed for a reader is the word.
        let reference = "│ Passwort                             │\n│             ( Anmelden )             │\n"
        let actual = "│ Passwort                             │\n│            ( Einloggen )             │\n"
        let difference = try XCTUnwrap(TextDiff.compare(reference: reference, actual: actual))
        XCTAssertEqual(
            difference.diff.components(separatedBy: "\n").suffix(3),
            [
                "-│             ( Anmelden )             │",
                "+│            ( Einloggen )             │",
                "?" + String(repeating: " ", count: 13) + "^ col 14: \"Anmelden\" → \"Einloggen\"",
            ])
        XCTAssertEqual(difference.summary, "1 line differs (line 2, col 14: \"Anmelden\" → \"Einloggen\")")
    }

    func testVisibleChangesQuoteWholeWords() {
        XCTAssertEqual(DiffHint(old: "( Anmelden )", new: "( Einloggen )").explanation, #"col 3: "Anmelden" → "Einloggen""#)
        XCTAssertEqual(DiffHint(old: "42 points · 5 comments", new: "43 points · 5 comments").explanation, #"col 2: "42" → "43""#)
        XCTAssertEqual(
            DiffHint(old: "Log in to vote", new: "Sign in to upvote").explanation, #"col 1: "Log in to vote" → "Sign in to upvote""#)
        XCTAssertEqual(DiffHint(old: "Top stories", new: "Top stories ⟳").explanation, #"col 12: nothing → "⟳""#)
        XCTAssertEqual(DiffHint(old: "Ask DN: Swift?", new: "Ask DN Swift?").explanation, #"col 7: ":" → nothing"#)
        XCTAssertEqual(DiffHint(old: "Say \"hi\"", new: "Say \"ho\"").explanation, #"col 7: "hi" → "ho""#)
        XCTAssertEqual(DiffHint(old: "トップ記事", new: "トップニュース").explanation, #"col 7: "記事" → "ニュース""#)
        XCTAssertEqual(DiffHint(old: "café", new: "cafe").explanation, #"col 4: "café" → "cafe""#)
        XCTAssertEqual(DiffHint(old: "منذ يومين", new: "منذ يوم").explanation, #"col 8: "يومين" → "يوم""#)
    }

    func testLongVisibleChangesAreClipped() {
        let old = "The quick brown fox jumps over the lazy dog again and again"
        let new = "A slow red fox crawls under the busy cat again and again"
        XCTAssertEqual(
            DiffHint(old: old, new: new).explanation,
            #"col 1: "The quick brown fox jumps over…" → "A slow red fox crawls under the…""#)
        XCTAssertEqual(DiffHint.quoteLimit, 32)
    }

    func testInvisibleAndLookAlikeChangesAreNamed() {
        // Whitespace other than a space, format characters, combining marks, controls.
        XCTAssertEqual(DiffHint(old: "10:13 PM", new: "10:13\u{202F}PM").explanation, "col 6: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE")
        XCTAssertEqual(DiffHint(old: "a\tb", new: "a b").explanation, "col 2: U+0009 CHARACTER TABULATION vs U+0020 SPACE")
        XCTAssertEqual(
            DiffHint(old: "👩‍💻 Ada", new: "👩💻 Ada").explanation,
            "col 1: U+200D ZERO WIDTH JOINER vs nothing")
        XCTAssertEqual(
            DiffHint(old: "Hello", new: "Hel\u{200B}lo").explanation, "col 4: nothing vs U+200B ZERO WIDTH SPACE")
        XCTAssertEqual(
            DiffHint(old: "\u{200F}مرحبا", new: "مرحبا").explanation, "col 1: U+200F RIGHT-TO-LEFT MARK vs nothing")
        XCTAssertEqual(
            DiffHint(old: "nai\u{308}ve", new: "naive").explanation, "col 3: U+0308 COMBINING DIAERESIS vs nothing")
        // Look-alikes: Cyrillic а for Latin a, a typographic apostrophe, an en dash.
        XCTAssertEqual(
            DiffHint(old: "Log in as admin", new: "Log in as \u{430}dmin").explanation,
            "col 11: U+0061 LATIN SMALL LETTER A vs U+0430 CYRILLIC SMALL LETTER A")
        XCTAssertEqual(
            DiffHint(old: "Don't", new: "Don\u{2019}t").explanation, "col 4: U+0027 APOSTROPHE vs U+2019 RIGHT SINGLE QUOTATION MARK")
        XCTAssertEqual(DiffHint(old: "1-2", new: "1\u{2013}2").explanation, "col 2: U+002D HYPHEN-MINUS vs U+2013 EN DASH")
        XCTAssertEqual(
            DiffHint(old: "ＡＢ", new: "AB").explanation,
            "col 1: U+FF21 FULLWIDTH LATIN CAPITAL LETTER A U+FF22 FULLWIDTH LATIN CAPITAL LETTER B vs U+0041 LATIN CAPITAL LETTER A U+0042 LATIN CAPITAL LETTER B"
        )
        // A whole word in another script is an ordinary, visible change.
        XCTAssertEqual(DiffHint(old: "Войти", new: "Вход").explanation, #"col 2: "Войти" → "Вход""#)
    }

    func testSpacingOnlyChangesSayWhereTheSpacesDiffer() {
        XCTAssertEqual(DiffHint(old: "a b", new: "a  b").explanation, "col 3: nothing vs U+0020 SPACE")
        XCTAssertEqual(
            DiffHint(old: "Continue", new: "Continue  ").explanation, "col 9: nothing vs U+0020 SPACE U+0020 SPACE; trailing whitespace")
        // Text that moved: the names of the shifted scalars would be noise.
        XCTAssertEqual(
            DiffHint(old: "│   ( OK )  │", new: "│  ( OK )   │").explanation, #"col 4: only spaces differ: 3 vs 2 before "( OK )""#)
        XCTAssertEqual(
            DiffHint(old: "│ Title   42 │", new: "│ Title  42  │").explanation, #"col 10: only spaces differ: 3 vs 2 before "42""#)
    }

    func testAVisibleChangeOnTheLastLineStillSaysTheNewlineIsMissing() {
        XCTAssertEqual(
            DiffHint(old: "Anmelden", oldHasNewline: true, new: "Einloggen", newHasNewline: false).explanation,
            #"col 1: "Anmelden" → "Einloggen"; no newline at the end of the actual text"#)
    }

    func testHunksHaveThreeLinesOfContextAndOneBasedHeaders() throws {
        let reference = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var changed = (1...20).map { "line \($0)" }
        changed[9] = "line ten" // line 10
        changed.remove(at: 17) // line 18
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
        XCTAssertEqual(changes.count, 5) // the classic example: D = 5
        XCTAssertEqual(LineDiff.edits(["a", "b", "c"], ["a", "x", "c"]), [.equal(0, 0), .delete(1), .insert(1), .equal(2, 2)])
    }

    func testScalarNamesIncludeControls() {
        XCTAssertEqual(ScalarNames.describe("\u{202F}"), "U+202F NARROW NO-BREAK SPACE")
        XCTAssertEqual(ScalarNames.describe("\t"), "U+0009 CHARACTER TABULATION")
        XCTAssertEqual(ScalarNames.describe("\u{200F}"), "U+200F RIGHT-TO-LEFT MARK")
    }
}
