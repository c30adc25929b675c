import TextSnapshot
import XCTest

final class ScreenRendererTests: XCTestCase {
    func render(_ node: TextNode, _ language: Language, _ device: Device, _ orientation: Orientation = .portrait) -> [String] {
        ScreenRenderer.renderLines(node, in: SnapshotContext(language: language, device: device, orientation: orientation))
    }

    func testHeaderStatesLanguageDeviceGridOrientationAndDirection() {
        XCTAssertEqual(render(.text("x"), .ja, .phone4inch)[0], "# screen lang=ja device=phone4inch 40x35 orientation=portrait dir=ltr")
        XCTAssertEqual(render(.text("x"), .ar, .pad, .landscape)[0], "# screen lang=ar device=pad 128x48 orientation=landscape dir=rtl")
    }

    func testShortContentFillsTheScreenHeightInsideAFrame() {
        let lines = render(.text("Hello"), .en, .phone4inch)
        XCTAssertEqual(lines.count, 1 + 35)
        XCTAssertEqual(lines[1], "┌" + String(repeating: "─", count: 38) + "┐")
        XCTAssertEqual(lines[2], "│ Hello" + String(repeating: " ", count: 31) + " │")
        XCTAssertEqual(lines.last, "└" + String(repeating: "─", count: 38) + "┘")
        XCTAssertFalse(lines.contains { $0.contains("fold") })
    }

    func testContentTallerThanTheScreenContinuesBelowAFold() {
        let node = TextNode.stack((1...40).map { .text("row \($0)") })
        let lines = render(node, .en, .phone4inch)
        // 33 visible content rows, the fold marker, 7 more rows, the bottom border.
        XCTAssertEqual(lines.count, 1 + 1 + 33 + 1 + 7 + 1)
        XCTAssertEqual(lines[35], "├" + String(repeating: "┄", count: 16) + " fold " + String(repeating: "┄", count: 16) + "┤")
        XCTAssertTrue(lines[34].hasPrefix("│ row 33"))
        XCTAssertTrue(lines[36].hasPrefix("│ row 34"))
    }

    func testEveryGridLineIsExactlyTheDeviceWidthOnEveryDeviceAndOrientation() {
        let node = TextNode.stack(
            [
                .titleBar("ストーリー", leading: "‹", trailing: "編集"),
                .text("このプロジェクトを支援して実現を手伝いましょう。👨‍👩‍👧", style: .title),
                .row(leading: .text("ポイント"), trailing: .text("42")),
                .list([.text("café"), .text("cafe\u{301}")]),
                .button("ログイン"),
            ], spacing: 1)
        for language in Language.allCases {
            for device in Device.allCases {
                for orientation in Orientation.allCases {
                    let lines = render(node, language, device, orientation)
                    let grid = device.grid(for: orientation)
                    XCTAssertGreaterThanOrEqual(lines.count - 1, grid.rows)
                    for line in lines.dropFirst() {
                        XCTAssertEqual(DisplayWidth.of(line), grid.columns, "\(language) \(device) \(orientation): \(line)")
                    }
                }
            }
        }
    }

    let japanese = "このプロジェクトを支援して実現を手伝いましょう。「支援する」ボタンを押してください。"
    let arabic = "ادعم هذا المشروع للمساعدة في تحقيقه اليوم"

    func testJapaneseWrapsBetweenIdeographsOnPhone4inch() {
        let lines = render(.text(japanese), .ja, .phone4inch)
        // 36 content columns hold 18 wide characters per line.
        XCTAssertEqual(lines[2], "│ このプロジェクトを支援して実現を手伝 │")
        XCTAssertEqual(lines[3], "│ いましょう。「支援する」ボタンを押し │")
        XCTAssertEqual(lines[4], "│ てください。" + String(repeating: " ", count: 24) + " │")
    }

    func testJapaneseFitsOnOneLineOnPad() {
        let lines = render(.text(japanese), .ja, .pad)
        XCTAssertEqual(lines[2], "│ " + japanese + String(repeating: " ", count: 92 - DisplayWidth.of(japanese)) + " │")
        XCTAssertTrue(lines[3].hasPrefix("│    "))
    }

    func testArabicIsRightAlignedAndWrapsAtSpacesOnPhone4inch() {
        let lines = render(.stack([.text(arabic), .row(leading: .text("النقاط"), trailing: .text("42"))]), .ar, .phone4inch)
        XCTAssertEqual(lines[0].hasSuffix("dir=rtl"), true)
        // 35 + 1 + 5 columns do not fit in 36: the last word wraps, and both lines hug the right edge.
        XCTAssertEqual(lines[2], "│  ادعم هذا المشروع للمساعدة في تحقيقه │")
        XCTAssertEqual(lines[3], "│ " + String(repeating: " ", count: 31) + "اليوم │")
        // The row's leading label sits on the right, the trailing value on the left.
        XCTAssertEqual(lines[4], "│ 42" + String(repeating: " ", count: 36 - 2 - 6) + "النقاط │")
    }

    func testArabicIsRightAlignedOnPad() {
        let lines = render(.text(arabic), .ar, .pad)
        XCTAssertEqual(lines[2], "│ " + String(repeating: " ", count: 92 - DisplayWidth.of(arabic)) + arabic + " │")
    }

    func testDeviceTableMatchesKickstarterSizesAndGrids() {
        XCTAssertEqual(Device.allCases.map { "\($0.points)" }, ["320×568", "375×667", "414×736", "375×812", "768×1024"])
        XCTAssertEqual(Device.allCases.map { "\($0.grid)" }, ["40x35", "46x41", "51x46", "46x50", "96x64"])
        XCTAssertEqual(Device.allCases.map { "\($0.grid(for: .landscape))" }, ["71x20", "83x23", "92x25", "101x23", "128x48"])
        XCTAssertEqual(Device.phone5_5inch.sizeClass(for: .landscape), SizeClasses(horizontal: .regular, vertical: .compact))
        XCTAssertEqual(Device.pad.sizeClass(for: .portrait), SizeClasses(horizontal: .regular, vertical: .regular))
        XCTAssertEqual(Device.phone4inch.sizeClass(for: .portrait), SizeClasses(horizontal: .compact, vertical: .regular))
        XCTAssertEqual(Device.phone4inch.points(for: .landscape), PointSize(width: 568, height: 320))
    }

    func testLanguagesAndDirections() {
        XCTAssertEqual(Language.allCases.map(\.rawValue), ["en", "de", "es", "fr", "ja", "ar"])
        XCTAssertEqual(Language.allCases.filter { $0.direction == .rightToLeft }, [.ar])
        XCTAssertEqual(Language(languageString: "de-DE"), .de)
        XCTAssertNil(Language(languageString: "xx"))
    }
}
