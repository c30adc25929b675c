import DesignerNews
import Foundation
import TextSnapshot

/// How old a story is, said the way people say it, in the reader's language and time zone.
final class RelativeTimeSpec: FeatureSpec {
    override func testFeature() {
        Feature("Saying how old a story is", description: "As a reader I want \"3 hours ago\", not a timestamp") {
            @MainActor func age(_ created: String, language: Language = .en, zone: String = "UTC") -> String {
                let environment = QAEnvironment.make(language: language, timeZone: TimeZone(identifier: zone)!)
                return RelativeTime.text(for: DesignerNewsJSON.parseDate(created)!, in: environment)
            }

            ScenarioOutline(
                "Posted at <posted> reads <text> at noon",
                examples: [
                    (posted: "2023-11-15T11:59:30Z", text: "just now"),
                    (posted: "2023-11-15T12:00:30Z", text: "just now"),
                    (posted: "2023-11-15T11:59:00Z", text: "1 minute ago"),
                    (posted: "2023-11-15T11:01:00Z", text: "59 minutes ago"),
                    (posted: "2023-11-15T11:00:00Z", text: "1 hour ago"),
                    (posted: "2023-11-14T12:00:01Z", text: "23 hours ago"),
                    (posted: "2023-11-14T12:00:00Z", text: "yesterday"),
                    (posted: "2023-11-10T08:00:00Z", text: "5 days ago"),
                    (posted: "2023-10-17T08:00:00Z", text: "29 days ago"),
                    (posted: "2023-10-01T08:00:00Z", text: "10/1/2023"),
                ]
            ) { row in
                Given("the reader's clock says 2023-11-15 12:00 UTC") {}
                Then("a story posted at \(row.posted) reads \"\(row.text)\"") {
                    expect(age(row.posted)).to(equal(row.text))
                }
            }

            ScenarioOutline(
                "Plural forms in <language>",
                examples: [
                    (language: Language.de, texts: ["vor 1 Stunde", "vor 2 Stunden", "vor 11 Stunden"]),
                    (language: .fr, texts: ["il y a 1 heure", "il y a 2 heures", "il y a 11 heures"]),
                    (language: .es, texts: ["hace 1 hora", "hace 2 horas", "hace 11 horas"]),
                    (language: .ja, texts: ["1時間前", "2時間前", "11時間前"]),
                    (language: .ar, texts: ["منذ ساعة واحدة", "منذ ساعتين", "منذ 11 ساعة"]),
                ]
            ) { row in
                Then("1, 2 and 11 hours ago read \(row.texts.joined(separator: " / "))") {
                    let texts = ["2023-11-15T11:00:00Z", "2023-11-15T10:00:00Z", "2023-11-15T01:00:00Z"].map {
                        age($0, language: row.language)
                    }
                    expect(texts).to(equal(row.texts))
                }
            }

            Scenario("Days are counted in the reader's time zone") {
                Then("a story from 2023-11-13 18:11 UTC is two days old in UTC but yesterday in Tokyo") {
                    expect(age("2023-11-13T18:11:00Z", zone: "UTC")).to(equal("2 days ago"))
                    expect(age("2023-11-13T18:11:00Z", zone: "Asia/Tokyo")).to(equal("yesterday"))
                }
                And("a story from 2023-11-14 06:00 UTC is yesterday in UTC but two days old in Los Angeles") {
                    expect(age("2023-11-14T06:00:00Z", zone: "UTC")).to(equal("yesterday"))
                    expect(age("2023-11-14T06:00:00Z", zone: "America/Los_Angeles")).to(equal("2 days ago"))
                }
            }

            Scenario("Old stories show their date in the reader's format") {
                Then("2023-10-01 reads as each language writes dates") {
                    let dates = Language.allCases.map { age("2023-10-01T08:00:00Z", language: $0) }
                    expect(dates).to(equal(["10/1/2023", "1.10.2023", "1/10/2023", "01/10/2023", "2023年10月1日", "1/10/2023"]))
                }
            }
        }
    }
}
