import Foundation
import TextSnapshot
import XCTest

/// Languages and devices are open value types: presets keep their old names and grids, new presets
/// and custom values work everywhere, traits change the layout and add to the name only when set.
final class OpenLanguagesAndDevicesTests: XCTestCase {
    private func render(_ node: TextNode, _ language: Language, _ device: Device) -> [String] {
        ScreenRenderer.renderLines(node, in: SnapshotContext(language: language, device: device))
    }

    // MARK: Compatibility

    func testTheOriginalSixLanguagesAndFiveDevicesKeepTheirSpellingsAndNames() {
        XCTAssertEqual(Language.allLanguages, Language.allCases)
        XCTAssertEqual(Language.allCases.map(\.rawValue), ["en", "de", "es", "fr", "ja", "ar"])
        XCTAssertEqual(Language.allCases.map(\.localeIdentifier), ["en_US", "de_DE", "es_ES", "fr_FR", "ja_JP", "ar"])
        XCTAssertEqual(Device.allCases.map(\.rawValue), ["phone4inch", "phone4_7inch", "phone5_5inch", "phone5_8inch", "pad"])
        XCTAssertEqual(SnapshotContext(language: .ja, device: .phone4inch).identifier, "lang_ja_device_phone4inch")
        XCTAssertEqual(Language(rawValue: "de"), .de)
        XCTAssertEqual(Device(rawValue: "pad"), .pad)
        XCTAssertNil(Device(rawValue: "toaster"))
    }

    // MARK: Presets

    func testCurrentDevicePresetsHaveGridsFromTheirPointSizes() {
        XCTAssertEqual(Device.currentPhones.map(\.rawValue), ["phoneSE", "phone6_1inch", "phone6_7inch"])
        XCTAssertEqual(Device.currentPads.map(\.rawValue), ["pad11inch", "pad13inch", "padSplitView", "padSlideOver"])
        XCTAssertEqual(Device.phoneSE.grid, Device.phone4_7inch.grid)
        XCTAssertEqual(Device.phone6_1inch.grid, GridSize(columns: 49, rows: 53))
        XCTAssertEqual(Device.phone6_1inch.grid(for: .landscape), GridSize(columns: 106, rows: 24))
        XCTAssertEqual(Device.phone6_7inch.grid, GridSize(columns: 53, rows: 58))
        XCTAssertEqual(Device.phone6_7inch.sizeClass(for: .landscape), SizeClasses(horizontal: .regular, vertical: .compact))
        XCTAssertEqual(Device.pad11inch.grid, GridSize(columns: 104, rows: 74))
        XCTAssertEqual(Device.pad13inch.grid(for: .landscape), GridSize(columns: 172, rows: 64))
        XCTAssertEqual(Device.padSplitView.sizeClass(for: .portrait).horizontal, .compact)
        XCTAssertEqual(Device.padSplitView.idiom, .pad)
        XCTAssertEqual(render(.text("x"), .en, .phone6_1inch)[0], "# screen lang=en device=phone6_1inch 49x53 orientation=portrait dir=ltr")
    }

    func testLanguagePresetsCoverTwentyLocalesWithDirectionFromTheLocale() {
        XCTAssertGreaterThanOrEqual(Language.presets.count, 26)
        XCTAssertEqual(Set(Language.presets.map(\.rawValue)).count, Language.presets.count, "unique identifiers")
        XCTAssertEqual(Language.presets.filter { $0.direction == .rightToLeft }.map(\.rawValue), ["ar", "he"])
        XCTAssertEqual(Language(languageString: "pt-BR"), .pt)
        XCTAssertEqual(Language(languageString: "pt_PT"), .ptPT)
        XCTAssertEqual(Language(languageString: "ru-RU"), .ru)
        XCTAssertNil(Language(languageString: "xx"))
        XCTAssertEqual(Language.pt.locale.identifier, "pt_BR")
    }

    // MARK: Custom values

    func testACustomLanguageTakesItsDirectionAndPluralsFromItsCode() throws {
        let persian = Language("fa", displayName: "Persian")
        XCTAssertEqual(persian.direction, .rightToLeft)
        XCTAssertEqual(persian.localeIdentifier, "fa")
        XCTAssertEqual(persian.pluralCategory(for: 0), .one)
        let swiss = Language("de-CH", locale: "de_CH", displayName: "Swiss German")
        XCTAssertEqual(swiss.direction, .leftToRight)
        XCTAssertEqual(swiss.pluralCategory(for: 1), .one)
        let forcedRTL = Language("en-XA", direction: .rightToLeft, displayName: "pseudo RTL")
        let lines = render(.text("Hi", alignment: .leading), forcedRTL, .phone4inch)
        XCTAssertEqual(lines[0], "# screen lang=en-XA device=phone4inch 40x35 orientation=portrait dir=rtl")
        XCTAssertTrue(lines[2].hasSuffix("Hi │"), lines[2])

        let catalog = StringsCatalog(strings: [
            "fa": ["items.one": "%d مورد", "items.other": "%d موارد"], "en": ["items.other": "%d items"],
        ])
        let strings = Localizer(catalog: catalog, language: persian)
        XCTAssertEqual(strings.plural("items", count: 1), "1 مورد")
        XCTAssertEqual(strings.plural("items", count: 5), "5 موارد")
        let data = try JSONEncoder().encode(persian)
        XCTAssertEqual(try JSONDecoder().decode(Language.self, from: data), persian)
    }

    func testACustomDeviceNamesItsSnapshotsAndLaysOutOnItsGrid() throws {
        let tiny = Device(name: "tiny", points: PointSize(width: 184, height: 224))
        XCTAssertEqual(tiny.grid, GridSize(columns: 23, rows: 14))
        XCTAssertEqual(tiny.grid(for: .landscape), GridSize(columns: 28, rows: 11))
        XCTAssertEqual(tiny.sizeClass(for: .portrait), SizeClasses(horizontal: .compact, vertical: .regular))
        let lines = render(.text("a fairly long sentence that wraps"), .en, tiny)
        XCTAssertEqual(lines[0], "# screen lang=en device=tiny 23x14 orientation=portrait dir=ltr")
        XCTAssertEqual(lines[2], "│ a fairly long       │")
        XCTAssertEqual(lines.count, 1 + 14)
        XCTAssertEqual(SnapshotContext(language: .pt, device: tiny).identifier, "lang_pt_device_tiny")
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let report = sandbox.run(record: .missing) {
            verifyScreenSnapshots(languages: [.pt, .ru], devices: [tiny, .phone6_1inch]) { context in
                TextNode.text("\(context.language.displayName) \(context.grid)")
            }
        }
        XCTAssertEqual(sandbox.snapshotFiles().count, 4)
        XCTAssertEqual(
            report.identifiers,
            [
                "lang_pt_device_tiny", "lang_pt_device_phone6_1inch", "lang_ru_device_tiny", "lang_ru_device_phone6_1inch",
            ])
    }

    // MARK: Traits

    func testTraitsAddToTheNameAndHeaderOnlyWhenNotStandard() {
        let big = Device.phone6_1inch.with(dynamicType: .accessibility3)
        let dark = Device.phone6_1inch.with(appearance: .dark)
        XCTAssertEqual(SnapshotContext(language: .en, device: big).identifier, "lang_en_device_phone6_1inch_type_accessibility3")
        XCTAssertEqual(SnapshotContext(language: .en, device: dark).identifier, "lang_en_device_phone6_1inch_dark")
        XCTAssertEqual(
            SnapshotContext(language: .en, device: big.with(appearance: .dark), orientation: .landscape).identifier,
            "lang_en_device_phone6_1inch_landscape_type_accessibility3_dark")
        XCTAssertEqual(
            render(.text("x"), .en, dark)[0],
            "# screen lang=en device=phone6_1inch 49x53 orientation=portrait dir=ltr appearance=dark")
        XCTAssertEqual(SnapshotContext(device: dark).appearance, .dark)
        XCTAssertEqual(SnapshotContext(device: .phone6_1inch.with(dynamicType: .large)).identifier, "lang_en_device_phone6_1inch")
    }

    func testLargerTextWrapsTruncatesAndFoldsSooner() {
        let sentence = "Swift Concurrency in practice: what we learned"
        let standard = render(.text(sentence), .en, .phone6_1inch)
        let big = render(.text(sentence), .en, .phone6_1inch.with(dynamicType: .accessibility3))
        XCTAssertEqual(big[0], "# screen lang=en device=phone6_1inch 49x53 orientation=portrait dir=ltr type=accessibility3")
        XCTAssertEqual(
            Array(standard[2...3]),
            [
                "│ Swift Concurrency in practice: what we        │",
                "│ learned                                       │",
            ])
        // 45 columns of text at 40/17 scale leave 19: the title wraps over three lines.
        XCTAssertEqual(
            Array(big[2...4]),
            [
                "│ Swift Concurrency                             │",
                "│ in practice: what                             │",
                "│ we learned                                    │",
            ])
        XCTAssertTrue(big.dropFirst().allSatisfy { DisplayWidth.of($0) == 49 }, "the frame keeps the device width")

        let truncated = render(.text(sentence, lineLimit: 1), .en, .phone6_1inch.with(dynamicType: .accessibility5))
        // accessibility5 (53/17): 14 columns of text, so one line truncates early.
        XCTAssertEqual(truncated[2], "│ Swift Concurr…                                │")

        let rows = TextNode.stack((1...30).map { .text("row \($0)") })
        let folded = render(rows, .en, .phone6_1inch.with(dynamicType: .accessibility3))
        let fold = folded.firstIndex { $0.contains(" fold ") }
        XCTAssertEqual(fold, 2 + 21, "51 visible rows at 40/17 scale leave 21 above the fold")

        let smaller = render(.text(sentence), .en, .phone4inch.with(dynamicType: .xSmall))
        XCTAssertEqual(smaller[2].count, 40)
    }

    func testRightToLeftLargeTextStaysOnTheRight() {
        let lines = render(.text("مرحبا"), .ar, .phone6_1inch.with(dynamicType: .accessibility1))
        XCTAssertTrue(lines[2].hasSuffix("مرحبا │"), lines[2])
    }

    // MARK: Plural rules

    func testCLDRPluralRulesForTwentyLanguages() {
        func forms(_ code: String, _ counts: [Int]) -> [PluralCategory] {
            counts.map { PluralCategory.category(for: $0, languageCode: code) }
        }
        XCTAssertEqual(
            forms("ar", [0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111]),
            [.zero, .one, .two, .few, .few, .many, .many, .other, .other, .few, .many])
        XCTAssertEqual(PluralRules(languageCode: "ar").categories, [.zero, .one, .two, .few, .many, .other])
        XCTAssertEqual(forms("pt", [0, 1, 2, 1_000_000]), [.one, .one, .other, .many])
        XCTAssertEqual(forms("pt-PT", [0, 1, 2]), [.other, .one, .other])
        XCTAssertEqual(forms("ru", [1, 2, 5, 11, 21, 22, 25, 112]), [.one, .few, .many, .many, .one, .few, .many, .many])
        XCTAssertEqual(forms("uk", [1, 3, 7, 14]), [.one, .few, .many, .many])
        XCTAssertEqual(forms("pl", [1, 2, 5, 12, 21, 22, 25]), [.one, .few, .many, .many, .many, .few, .many])
        XCTAssertEqual(forms("cs", [1, 2, 4, 5]), [.one, .few, .few, .other])
        XCTAssertEqual(forms("sk", [1, 3, 10]), [.one, .few, .other])
        XCTAssertEqual(forms("hr", [1, 2, 5, 11, 21]), [.one, .few, .other, .other, .one])
        XCTAssertEqual(forms("ro", [1, 0, 19, 20, 101]), [.one, .few, .few, .other, .few])
        XCTAssertEqual(forms("lt", [1, 2, 10, 11, 21]), [.one, .few, .other, .other, .one])
        XCTAssertEqual(forms("lv", [0, 1, 2, 11, 21]), [.zero, .one, .other, .zero, .one])
        XCTAssertEqual(forms("he", [1, 2, 3, 20]), [.one, .two, .other, .other])
        XCTAssertEqual(forms("sl", [1, 2, 3, 5, 101]), [.one, .two, .few, .other, .one])
        XCTAssertEqual(forms("cy", [0, 1, 2, 3, 6, 7]), [.zero, .one, .two, .few, .many, .other])
        XCTAssertEqual(forms("hi", [0, 1, 2]), [.one, .one, .other])
        XCTAssertEqual(forms("fr", [0, 1, 2, 2_000_000]), [.one, .one, .other, .many])
        XCTAssertEqual(forms("it", [0, 1, 2, 1_000_000]), [.other, .one, .other, .many])
        for code in ["zh", "ja", "ko", "th", "vi", "id"] {
            XCTAssertEqual(forms(code, [0, 1, 2, 5]), [.other, .other, .other, .other], code)
        }
        for code in ["en", "de", "nl", "sv", "da", "nb", "fi", "el", "hu", "tr"] {
            XCTAssertEqual(forms(code, [0, 1, 2]), [.other, .one, .other], code)
            XCTAssertTrue(PluralRules.isKnown(code), code)
        }
        XCTAssertEqual(Language.zhHans.pluralRules.categories, [.other])
        XCTAssertFalse(PluralRules.isKnown("xx"))
        XCTAssertEqual(forms("xx", [1, 2]), [.one, .other], "unknown languages use the English rule")
    }
}
