import Foundation
import TextSnapshot
import XCTest

/// Pins, byte for byte, what every locale table formats: the same bytes must come out on Linux and
/// on Apple platforms, because no ICU formatter is involved.
final class SnapshotFormatterTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    private let now = SnapshotContext.fixedNow // 2023-11-14T22:13:20Z

    private func formatter(_ locale: String) -> SnapshotFormatter {
        SnapshotFormatter(localeIdentifier: locale, timeZone: utc)
    }

    /// locale: number, integer 1234, date short | medium | long, time, relative past 3 h, future 1 day, list of 3
    private let expected: [(String, [String])] = [
        (
            "en_US",
            [
                "1,234,567.89", "1,234", "11/14/23", "Nov 14, 2023", "November 14, 2023", "10:13 PM", "3 hours ago", "in 1 day",
                "A, B, and C",
            ]
        ),
        (
            "de_DE",
            ["1.234.567,89", "1.234", "14.11.23", "14.11.2023", "14. November 2023", "22:13", "vor 3 Stunden", "in 1 Tag", "A, B und C"]
        ),
        (
            "es_ES",
            [
                "1.234.567,89", "1234", "14/11/23", "14 nov 2023", "14 de noviembre de 2023", "22:13", "hace 3 horas", "dentro de 1 día",
                "A, B y C",
            ]
        ),
        (
            "fr_FR",
            [
                "1\u{202F}234\u{202F}567,89", "1\u{202F}234", "14/11/2023", "14 nov. 2023", "14 novembre 2023", "22:13", "il y a 3 heures",
                "dans 1 jour", "A, B et C",
            ]
        ),
        ("ja_JP", ["1,234,567.89", "1,234", "2023/11/14", "2023/11/14", "2023年11月14日", "22:13", "3 時間前", "1 日後", "A、B、C"]),
        (
            "ar",
            ["1,234,567.89", "1,234", "14/11/2023", "14/11/2023", "14 نوفمبر 2023", "10:13 م", "قبل 3 ساعات", "خلال يوم واحد", "A وB وC"]
        ),
        (
            "pt_BR",
            [
                "1.234.567,89", "1.234", "14/11/2023", "14 de nov. de 2023", "14 de novembro de 2023", "22:13", "há 3 horas", "em 1 dia",
                "A, B e C",
            ]
        ),
        ("sv_SE", ["1234567.89", "1234", "2023-11-14", "2023-11-14", "14 November 2023", "22:13", "3 hours ago", "in 1 day", "A, B, C"]),
    ]

    func testEveryLocaleTableFormatsTheSameBytesEverywhere() {
        for (locale, values) in expected {
            let format = formatter(locale)
            let actual = [
                format.number(1_234_567.891, fractionDigits: 2), format.integer(1234),
                format.date(now, style: .short), format.date(now, style: .medium), format.date(now, style: .long),
                format.time(now), format.relative(now.addingTimeInterval(-3 * 3600), to: now),
                format.relative(now.addingTimeInterval(86_400 + 60), to: now), format.list(["A", "B", "C"]),
            ]
            XCTAssertEqual(actual, values, locale)
        }
    }

    func testNumbersRoundHalfAwayFromZeroAndKeepTheirSign() {
        let en = formatter("en")
        XCTAssertEqual(en.number(2.5), "3")
        XCTAssertEqual(en.number(-2.5), "-3")
        XCTAssertEqual(en.number(-0.004, fractionDigits: 2), "0.00")
        XCTAssertEqual(en.number(0.125, fractionDigits: 2), "0.13")
        XCTAssertEqual(en.integer(-1_000_000), "-1,000,000")
        XCTAssertEqual(formatter("es").integer(12_345), "12.345", "Spanish groups from five digits")
        XCTAssertEqual(en.number(.nan), "NaN")
        XCTAssertEqual(formatter("de").percent(0.125, fractionDigits: 1), "12,5\u{00A0}%")
        XCTAssertEqual(en.percent(0.5), "50%")
    }

    func testRelativeTimesPickTheLanguagesPluralForm() {
        let ar = formatter("ar")
        XCTAssertEqual(ar.relative(now.addingTimeInterval(-2 * 60), to: now), "قبل دقيقتين")
        XCTAssertEqual(ar.relative(now.addingTimeInterval(-11 * 60), to: now), "قبل 11 دقيقة")
        XCTAssertEqual(formatter("en").relative(now.addingTimeInterval(-30), to: now), "now")
        XCTAssertEqual(formatter("en").relative(now.addingTimeInterval(-60), to: now), "1 minute ago")
        XCTAssertEqual(formatter("fr").relative(now.addingTimeInterval(-3600), to: now), "il y a 1 heure")
    }

    func testListsOfEveryLength() {
        let en = formatter("en")
        XCTAssertEqual(en.list([]), "")
        XCTAssertEqual(en.list(["A"]), "A")
        XCTAssertEqual(en.list(["A", "B"]), "A and B")
        XCTAssertEqual(en.list(["A", "B", "C", "D"]), "A, B, C, and D")
        XCTAssertEqual(formatter("de").list(["A", "B", "C", "D"]), "A, B, C und D")
    }

    func testPatternsAndTheContextsFormatterFollowTheContext() {
        let context = SnapshotContext(language: .de, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        XCTAssertEqual(context.format.time(now), "07:13", "the context's time zone applies")
        XCTAssertEqual(context.format.date(now, pattern: "d. MMMM y 'um' HH:mm:ss"), "15. November 2023 um 07:13:20")
        XCTAssertEqual(SnapshotContext(language: .en).format.dateTime(now), "Nov 14, 2023, 10:13 PM")
        XCTAssertTrue(LocaleFormats.isKnown("pt-BR"))
        XCTAssertFalse(LocaleFormats.isKnown("sv"))
    }
}
