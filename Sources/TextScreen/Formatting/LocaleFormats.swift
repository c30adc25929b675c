import Foundation

/// The locale data TextScreen formats with: our own tables, so a snapshot recorded on a Mac (Apple's
/// ICU) and checked on Linux CI (swift-foundation-icu) holds the same bytes. CLDR is the source; where
/// ICU versions disagree (the U+202F before "PM" since ICU 72, Spanish grouping of 4-digit numbers)
/// the table picks one spelling on purpose and keeps it.
///
/// Known locales: `en`, `de`, `es`, `fr`, `ja`, `ar` (Latin digits), `pt`. Any other language
/// formats with ``neutral``: ISO dates, 24-hour times, `.` decimals, no grouping, English words.
public struct LocaleFormats: Sendable {
    public var decimalSeparator: String
    public var groupingSeparator: String
    /// Whether 4-digit numbers are grouped (CLDR's minimum grouping digits: Spanish writes `1000`).
    public var groupsFourDigits: Bool
    public var monthNames: [String]
    public var monthAbbreviations: [String]
    /// Date patterns in `y yy M MM MMM MMMM d dd` and `'quoted'` literals.
    public var shortDate: String
    public var mediumDate: String
    public var longDate: String
    /// Time pattern in `H HH h hh mm a`.
    public var time: String
    public var amPM: (am: String, pm: String)
    /// How date and time are joined (`{date}, {time}`).
    public var dateTime: String
    /// `A, B and C`: pairs join with `pair`, longer lists with `middle` and then `end`.
    public var listPair: String
    public var listMiddle: String
    public var listEnd: String
    /// Relative-time words by unit (`minute`, `hour`, `day`) and plural category, with `%d` for the count.
    public var pastUnits: [String: [PluralCategory: String]]
    public var futureUnits: [String: [PluralCategory: String]]
    public var now: String
    /// The language code the plural rules are taken from.
    public var pluralLanguage: String

    /// The table for a locale identifier or language code (`de_DE`, `pt-BR`, `ja`).
    public static func forLocale(_ identifier: String) -> LocaleFormats {
        let code = LocaleSubtags.language(of: identifier)
        return tables[code] ?? neutral
    }

    /// Whether `identifier`'s language has its own table (otherwise ``neutral`` is used).
    public static func isKnown(_ identifier: String) -> Bool {
        let code = LocaleSubtags.language(of: identifier)
        return tables[code] != nil
    }

    static let englishMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    static func units(_ minute: [PluralCategory: String], _ hour: [PluralCategory: String], _ day: [PluralCategory: String]) -> [String:
        [PluralCategory: String]]
    {
        ["minute": minute, "hour": hour, "day": day]
    }

    /// ISO dates, 24-hour time, English words: stable for any language without a table.
    public static let neutral = LocaleFormats(
        decimalSeparator: ".", groupingSeparator: "", groupsFourDigits: false,
        monthNames: englishMonths, monthAbbreviations: englishMonths.map { String($0.prefix(3)) },
        shortDate: "y-MM-dd", mediumDate: "y-MM-dd", longDate: "d MMMM y", time: "HH:mm", amPM: ("AM", "PM"),
        dateTime: "{date} {time}", listPair: "{0}, {1}", listMiddle: "{0}, {1}", listEnd: "{0}, {1}",
        pastUnits: units(
            [.one: "%d minute ago", .other: "%d minutes ago"], [.one: "%d hour ago", .other: "%d hours ago"],
            [.one: "%d day ago", .other: "%d days ago"]),
        futureUnits: units(
            [.one: "in %d minute", .other: "in %d minutes"], [.one: "in %d hour", .other: "in %d hours"],
            [.one: "in %d day", .other: "in %d days"]),
        now: "now", pluralLanguage: "en")

    static let tables: [String: LocaleFormats] = [
        "en": LocaleFormats(
            decimalSeparator: ".", groupingSeparator: ",", groupsFourDigits: true,
            monthNames: englishMonths, monthAbbreviations: englishMonths.map { String($0.prefix(3)) },
            shortDate: "M/d/yy", mediumDate: "MMM d, y", longDate: "MMMM d, y", time: "h:mm a", amPM: ("AM", "PM"),
            dateTime: "{date}, {time}", listPair: "{0} and {1}", listMiddle: "{0}, {1}", listEnd: "{0}, and {1}",
            pastUnits: neutral.pastUnits, futureUnits: neutral.futureUnits, now: "now", pluralLanguage: "en"),
        "de": LocaleFormats(
            decimalSeparator: ",", groupingSeparator: ".", groupsFourDigits: true,
            monthNames: [
                "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                "November", "Dezember",
            ],
            monthAbbreviations: ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
            shortDate: "dd.MM.yy", mediumDate: "dd.MM.y", longDate: "d. MMMM y", time: "HH:mm", amPM: ("AM", "PM"),
            dateTime: "{date}, {time}", listPair: "{0} und {1}", listMiddle: "{0}, {1}", listEnd: "{0} und {1}",
            pastUnits: units(
                [.one: "vor %d Minute", .other: "vor %d Minuten"], [.one: "vor %d Stunde", .other: "vor %d Stunden"],
                [.one: "vor %d Tag", .other: "vor %d Tagen"]),
            futureUnits: units(
                [.one: "in %d Minute", .other: "in %d Minuten"], [.one: "in %d Stunde", .other: "in %d Stunden"],
                [.one: "in %d Tag", .other: "in %d Tagen"]),
            now: "jetzt", pluralLanguage: "de"),
        "es": LocaleFormats(
            decimalSeparator: ",", groupingSeparator: ".", groupsFourDigits: false,
            monthNames: [
                "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
                "noviembre", "diciembre",
            ],
            monthAbbreviations: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"],
            shortDate: "d/M/yy", mediumDate: "d MMM y", longDate: "d 'de' MMMM 'de' y", time: "H:mm", amPM: ("a. m.", "p. m."),
            dateTime: "{date}, {time}", listPair: "{0} y {1}", listMiddle: "{0}, {1}", listEnd: "{0} y {1}",
            pastUnits: units(
                [.one: "hace %d minuto", .other: "hace %d minutos"], [.one: "hace %d hora", .other: "hace %d horas"],
                [.one: "hace %d día", .other: "hace %d días"]),
            futureUnits: units(
                [.one: "dentro de %d minuto", .other: "dentro de %d minutos"],
                [.one: "dentro de %d hora", .other: "dentro de %d horas"],
                [.one: "dentro de %d día", .other: "dentro de %d días"]),
            now: "ahora", pluralLanguage: "es"),
        "fr": LocaleFormats(
            decimalSeparator: ",", groupingSeparator: "\u{202F}", groupsFourDigits: true,
            monthNames: [
                "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
                "novembre", "décembre",
            ],
            monthAbbreviations: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
            shortDate: "dd/MM/y", mediumDate: "d MMM y", longDate: "d MMMM y", time: "HH:mm", amPM: ("AM", "PM"),
            dateTime: "{date} {time}", listPair: "{0} et {1}", listMiddle: "{0}, {1}", listEnd: "{0} et {1}",
            pastUnits: units(
                [.one: "il y a %d minute", .other: "il y a %d minutes"], [.one: "il y a %d heure", .other: "il y a %d heures"],
                [.one: "il y a %d jour", .other: "il y a %d jours"]),
            futureUnits: units(
                [.one: "dans %d minute", .other: "dans %d minutes"], [.one: "dans %d heure", .other: "dans %d heures"],
                [.one: "dans %d jour", .other: "dans %d jours"]),
            now: "maintenant", pluralLanguage: "fr"),
        "ja": LocaleFormats(
            decimalSeparator: ".", groupingSeparator: ",", groupsFourDigits: true,
            monthNames: (1...12).map { "\($0)月" }, monthAbbreviations: (1...12).map { "\($0)月" },
            shortDate: "y/MM/dd", mediumDate: "y/MM/dd", longDate: "y年M月d日", time: "H:mm", amPM: ("午前", "午後"),
            dateTime: "{date} {time}", listPair: "{0}、{1}", listMiddle: "{0}、{1}", listEnd: "{0}、{1}",
            pastUnits: units([.other: "%d 分前"], [.other: "%d 時間前"], [.other: "%d 日前"]),
            futureUnits: units([.other: "%d 分後"], [.other: "%d 時間後"], [.other: "%d 日後"]),
            now: "今", pluralLanguage: "ja"),
        "ar": LocaleFormats(
            decimalSeparator: ".", groupingSeparator: ",", groupsFourDigits: true,
            monthNames: ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"],
            monthAbbreviations: [
                "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر",
            ],
            shortDate: "d/M/y", mediumDate: "dd/MM/y", longDate: "d MMMM y", time: "h:mm a", amPM: ("ص", "م"),
            dateTime: "{date}، {time}", listPair: "{0} و{1}", listMiddle: "{0} و{1}", listEnd: "{0} و{1}",
            pastUnits: units(
                [
                    .zero: "قبل %d دقيقة", .one: "قبل دقيقة واحدة", .two: "قبل دقيقتين", .few: "قبل %d دقائق",
                    .many: "قبل %d دقيقة", .other: "قبل %d دقيقة",
                ],
                [
                    .zero: "قبل %d ساعة", .one: "قبل ساعة واحدة", .two: "قبل ساعتين", .few: "قبل %d ساعات",
                    .many: "قبل %d ساعة", .other: "قبل %d ساعة",
                ],
                [
                    .zero: "قبل %d يوم", .one: "قبل يوم واحد", .two: "قبل يومين", .few: "قبل %d أيام",
                    .many: "قبل %d يومًا", .other: "قبل %d يوم",
                ]),
            futureUnits: units(
                [
                    .zero: "خلال %d دقيقة", .one: "خلال دقيقة واحدة", .two: "خلال دقيقتين", .few: "خلال %d دقائق",
                    .many: "خلال %d دقيقة", .other: "خلال %d دقيقة",
                ],
                [
                    .zero: "خلال %d ساعة", .one: "خلال ساعة واحدة", .two: "خلال ساعتين", .few: "خلال %d ساعات",
                    .many: "خلال %d ساعة", .other: "خلال %d ساعة",
                ],
                [
                    .zero: "خلال %d يوم", .one: "خلال يوم واحد", .two: "خلال يومين", .few: "خلال %d أيام",
                    .many: "خلال %d يومًا", .other: "خلال %d يوم",
                ]),
            now: "الآن", pluralLanguage: "ar"),
        "pt": LocaleFormats(
            decimalSeparator: ",", groupingSeparator: ".", groupsFourDigits: true,
            monthNames: [
                "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
                "novembro", "dezembro",
            ],
            monthAbbreviations: ["jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."],
            shortDate: "dd/MM/y", mediumDate: "d 'de' MMM 'de' y", longDate: "d 'de' MMMM 'de' y", time: "HH:mm", amPM: ("AM", "PM"),
            dateTime: "{date} {time}", listPair: "{0} e {1}", listMiddle: "{0}, {1}", listEnd: "{0} e {1}",
            pastUnits: units(
                [.one: "há %d minuto", .other: "há %d minutos"], [.one: "há %d hora", .other: "há %d horas"],
                [.one: "há %d dia", .other: "há %d dias"]),
            futureUnits: units(
                [.one: "em %d minuto", .other: "em %d minutos"], [.one: "em %d hora", .other: "em %d horas"],
                [.one: "em %d dia", .other: "em %d dias"]),
            now: "agora", pluralLanguage: "pt"),
    ]
}
