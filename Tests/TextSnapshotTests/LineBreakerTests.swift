import TextSnapshot
import XCTest

final class LineBreakerTests: XCTestCase {
    func testWrapsAtSpacesAndDropsThemAtTheBreak() {
        XCTAssertEqual(
            LineBreaker.wrap("Back this project to help it come to life", width: 16),
            ["Back this", "project to help", "it come to life"])
    }

    func testHardBreaksAWordLongerThanTheLine() {
        XCTAssertEqual(LineBreaker.wrap("Finanzierungszeitraumende", width: 10), ["Finanzieru", "ngszeitrau", "mende"])
    }

    func testBreaksAfterHyphens() {
        XCTAssertEqual(LineBreaker.wrap("state-of-the-art", width: 10), ["state-of-", "the-art"])
    }

    func testNeverBreaksAtNoBreakSpaces() {
        XCTAssertEqual(LineBreaker.wrap("Total 1\u{202F}234,50\u{00A0}€ due", width: 12), ["Total", "1\u{202F}234,50\u{00A0}€", "due"])
    }

    func testCJKBreaksBetweenIdeographsAndKeepsClosingPunctuationOffLineStarts() {
        let lines = LineBreaker.wrap("このプロジェクトを支援して実現を手伝いましょう。「支援する」ボタンを押してください。", width: 20)
        for line in lines {
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), 20, line)
            if let first = line.first { XCTAssertFalse("、。）」』ーッっャゃ".contains(first), "line starts with closing punctuation: \(line)") }
            if let last = line.last { XCTAssertFalse("「（『".contains(last), "line ends with opening punctuation: \(line)") }
        }
        XCTAssertEqual(lines.joined(), "このプロジェクトを支援して実現を手伝いましょう。「支援する」ボタンを押してください。")
        XCTAssertEqual(lines[0], "このプロジェクトを支")
    }

    func testClosingPunctuationPullsThePreviousCharacterAlong() {
        // 12 columns hold "あいうえおす"; "。" may not start the next line, so "す" moves down with it.
        XCTAssertEqual(LineBreaker.wrap("あいうえおす。", width: 12), ["あいうえお", "す。"])
        XCTAssertEqual(LineBreaker.wrap("あいうえおす。", width: 14), ["あいうえおす。"])
    }

    func testWideClusterThatDoesNotFitMovesToTheNextLine() {
        XCTAssertEqual(LineBreaker.wrap("日本語", width: 5), ["日本", "語"])
    }

    func testGraphemeClustersAreNeverSplit() {
        let lines = LineBreaker.wrap("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", width: 4)
        XCTAssertEqual(lines, ["👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧"])
        XCTAssertEqual(LineBreaker.wrap("cafe\u{301}cafe\u{301}", width: 4), ["cafe\u{301}", "cafe\u{301}"])
    }

    func testNewlinesEndParagraphsAndControlsAreShownEscaped() {
        XCTAssertEqual(LineBreaker.wrap("a\r\nb\rc\nd", width: 10), ["a", "b", "c", "d"])
        XCTAssertEqual(LineBreaker.wrap("tab\there", width: 20), ["tab\\u{9}here"])
    }

    func testTruncationAddsAnEllipsisAndNeverSplitsWideClusters() {
        XCTAssertEqual(LineBreaker.truncate("Unterstütze dieses Projekt", width: 12), "Unterstütze…")
        XCTAssertEqual(LineBreaker.truncate("short", width: 12), "short")
        XCTAssertEqual(LineBreaker.truncate("このプロジェクト", width: 8), "このプ…") // 7 columns; 8 would split ロ
        XCTAssertEqual(LineBreaker.truncate("abc", width: 0), "")
    }

    func testArabicWrapsAtSpaces() {
        let lines = LineBreaker.wrap("ادعم هذا المشروع للمساعدة في تحقيقه", width: 20)
        XCTAssertEqual(lines, ["ادعم هذا المشروع", "للمساعدة في تحقيقه"])
    }
}
