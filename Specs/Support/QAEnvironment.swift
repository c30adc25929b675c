import DesignerNews
import Foundation
import TextSnapshot

/// The environment every spec runs the app in: a fixed clock, UTC, English, an empty token store.
enum QAEnvironment {
    /// "Now" for the app in every spec: 2023-11-15 12:00 UTC, the day the stub stories were posted
    /// (so the front page reads "2 hours ago", "yesterday", …).
    static let now = DesignerNewsJSON.parseDate("2023-11-15T12:00:00Z")!

    /// For specs that never call the API: pointed at the discard port of this machine.
    static let unusedAPI = DesignerNewsAPIClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!))

    static func make(
        api: any DesignerNewsAPI = unusedAPI, language: Language = .en, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        keyValueStore: any KeyValueStore = InMemoryKeyValueStore()
    ) -> Environment {
        Environment(
            api: api, language: language, currentDate: { now }, timeZone: timeZone,
            calendar: Calendar(identifier: .gregorian), keyValueStore: keyValueStore)
    }
}
