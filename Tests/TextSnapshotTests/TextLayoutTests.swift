import TextSnapshot
import XCTest

final class TextLayoutTests: XCTestCase {
    func lines(_ node: TextNode, _ width: Int, _ direction: LayoutDirection = .leftToRight) -> [String] {
        TextLayout.lines(for: node, width: width, direction: direction)
    }

    func testTextAlignsLeadingCentreAndTrailing() {
        XCTAssertEqual(lines(.text("Hi"), 6), ["Hi    "])
        XCTAssertEqual(lines(.text("Hi", alignment: .center), 7), ["  Hi   "])
        XCTAssertEqual(lines(.text("Hi", alignment: .trailing), 6), ["    Hi"])
    }

    func testRightToLeftMirrorsAlignment() {
        XCTAssertEqual(lines(.text("مرحبا"), 8, .rightToLeft), ["   مرحبا"])
        XCTAssertEqual(lines(.text("مرحبا", alignment: .trailing), 8, .rightToLeft), ["مرحبا   "])
    }

    func testLineLimitTruncatesTheLastLineWithAnEllipsis() {
        XCTAssertEqual(lines(.text("one two three four five", lineLimit: 2), 9), ["one two  ", "three fo…"])
        XCTAssertEqual(lines(.text("one two", lineLimit: 0), 4), ["one ", "two "]) // 0 = unlimited, like UILabel
        XCTAssertEqual(lines(.text("one\ntwo", lineLimit: 1), 9), ["one…     "]) // more paragraphs follow
        XCTAssertEqual(lines(.text("一二三四五六七八", lineLimit: 2), 6), ["一二三", "四五… "])
    }

    func testStylesDrawUnderlinesAndErrorMarks() {
        XCTAssertEqual(lines(.text("Log in", style: .title), 8), ["Log in  ", "══════  "])
        XCTAssertEqual(lines(.text("News", style: .headline), 6), ["News  ", "────  "])
        XCTAssertEqual(lines(.text("Invalid email address", style: .error), 12), ["! Invalid   ", "  email     ", "  address   "])
        XCTAssertEqual(lines(.text("خطأ", style: .error), 8, .rightToLeft), ["   خطأ !"])
    }

    func testButtonsAreCentredAndShowTheirState() {
        XCTAssertEqual(lines(.button("Log in"), 14), ["  [ Log in ]  "])
        XCTAssertEqual(lines(.button("Log in", isEnabled: false), 14), ["  ( Log in )  "])
        XCTAssertEqual(lines(.button("A very long button title"), 12), ["[ A very… ]" + " "])
    }

    func testRowsPutTrailingOnTheOtherSideAndSwapRightToLeft() {
        XCTAssertEqual(lines(.row(leading: .text("Points"), trailing: .text("42")), 12), ["Points    42"])
        XCTAssertEqual(lines(.row(leading: .text("نقاط"), trailing: .text("42")), 12, .rightToLeft), ["42      نقاط"])
    }

    func testRowsWrapTheLeadingSideWhenSpaceIsShort() {
        let result = lines(.row(leading: .text("A long story title here"), trailing: .text("12 pts")), 16)
        XCTAssertEqual(
            result,
            ["A long    12 pts", "story           ", "title     ", "here      "].map {
                $0.padding(toLength: 16, withPad: " ", startingAt: 0)
            })
    }

    func testStackSpacingListDividerSpacerAndImage() {
        let node: TextNode = .stack(
            [
                .list([.text("one"), .text("two")]),
                .divider,
                .spacer(1),
                .image(alt: "logo", rows: 3),
            ], spacing: 1)
        XCTAssertEqual(
            lines(node, 10),
            [
                "• one     ",
                "• two     ",
                "          ",
                "──────────",
                "          ",
                "          ",
                "          ",
                "┌────────┐",
                "│  logo  │",
                "└────────┘",
            ])
        XCTAssertEqual(lines(.list([.text("واحد")]), 8, .rightToLeft), ["  واحد •"])
    }

    func testTitleBarCentresTheTitleAndSwapsItemsRightToLeft() {
        XCTAssertEqual(
            lines(.titleBar("News", leading: "‹ Back", trailing: "Edit"), 24),
            ["‹ Back    News      Edit", "────────────────────────"])
        XCTAssertEqual(
            lines(.titleBar("أخبار", leading: "رجوع", trailing: nil), 20, .rightToLeft)[0],
            "        أخبار   رجوع")
    }

    func testFieldsShowValuePlaceholderOrDots() {
        XCTAssertEqual(
            lines(.field(label: "Email", text: "", placeholder: "you@example.com"), 24),
            ["Email                   ", "[ <you@example.com>    ]"])
        XCTAssertEqual(
            lines(.field(label: "Password", text: "secret", isSecure: true), 14),
            ["Password      ", "[ ••••••     ]"])
    }

    func testActivityIndicatorIsCentred() {
        XCTAssertEqual(lines(.activity("Loading…"), 14), ["  ◌ Loading…  "])
    }

    /// Property: whatever the text and width, every line is exactly the width asked for.
    func testEveryLineIsExactlyTheRequestedWidthForRandomText() {
        var generator = SeededRandomNumberGenerator(seed: 2023).generator
        let alphabet: [String] = [
            "a", "Z", " ", " ", "-", "é", "e\u{301}", "中", "語", "ア", "。", "」", "「", "😀", "👍🏽", "👨‍👩‍👧",
            "🇯🇵", "❤️", "\u{200B}", "\u{200F}", "م", "ر", "\u{0301}", "\t", "\n", "…", "—", "ｱ", "한", "\u{202F}", "１",
        ]
        for iteration in 0..<600 {
            let length = Int.random(in: 0...60, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            let width = Int.random(in: 0...30, using: &generator)
            let direction: LayoutDirection = iteration.isMultiple(of: 2) ? .leftToRight : .rightToLeft
            let nodes: [TextNode] = [
                .text(text), .text(text, style: .error, alignment: .center, lineLimit: 2), .button(text),
                .row(leading: .text(text), trailing: .text(String(text.prefix(5)))), .list([.text(text)], bullet: "•"),
                .field(label: text, text: text), .titleBar(text, leading: "‹", trailing: "…"), .image(alt: text, rows: 3),
                .activity(text), .text(text, style: .title, alignment: .trailing),
            ]
            for node in nodes {
                for line in lines(node, width, direction) {
                    XCTAssertEqual(DisplayWidth.of(line), width, "width \(width) \(node): \(line.debugDescription)")
                }
            }
        }
    }
}
