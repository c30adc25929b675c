import TextSnapshot
import XCTest

final class DisplayWidthTests: XCTestCase {
    func testASCIIIsOneColumnPerCharacter() {
        XCTAssertEqual(DisplayWidth.of("Hello"), 5)
        XCTAssertEqual(DisplayWidth.of(""), 0)
    }

    func testEastAsianWideAndFullwidthTakeTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("中文"), 4)
        XCTAssertEqual(DisplayWidth.of("ひらがな"), 8) // kana is not "ideographic" but is Wide
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)
        XCTAssertEqual(DisplayWidth.of("ＡＢ"), 4) // fullwidth forms
        XCTAssertEqual(DisplayWidth.of("ｱｲｳ"), 3) // halfwidth katakana stay narrow
        XCTAssertEqual(DisplayWidth.of("。、「」"), 8)
    }

    func testEmojiPresentationTakesTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2)
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2)
        XCTAssertEqual(DisplayWidth.of("🇯🇵"), 2)
        XCTAssertEqual(DisplayWidth.of("❤️"), 2) // text-default heart with VS16
        XCTAssertEqual(DisplayWidth.of("❤"), 1)
        XCTAssertEqual(DisplayWidth.of("❤\u{FE0E}"), 1)
        XCTAssertEqual(DisplayWidth.of("\u{1FAE9}"), 2) // Unicode 16 emoji, newer than the table
    }

    func testCombiningAndZeroWidthTakeNoColumns() {
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("a\u{200B}b"), 2)
        XCTAssertEqual(DisplayWidth.of("\u{200F}x"), 1)
        XCTAssertEqual(DisplayWidth.of("\u{00AD}"), 0)
        XCTAssertEqual(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}"), 2) // Hangul jamo syllable
        XCTAssertEqual(DisplayWidth.of(Unicode.Scalar(0x301)!), 0)
    }

    func testAmbiguousCharactersTakeOneColumn() {
        XCTAssertEqual(DisplayWidth.of("…—→αЖ"), 5)
        XCTAssertEqual(DisplayWidth.of("مرحبا"), 5)
        XCTAssertEqual(DisplayWidth.of("│─┌"), 3)
    }
}
