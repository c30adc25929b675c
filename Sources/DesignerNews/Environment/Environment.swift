import Foundation
import TextScreen

/// Everything the app reads from the outside world, in one value: the API, the reader's
/// language, the clock, time zone and calendar, and where the token is stored. View models read
/// it from ``AppEnvironment/current`` and never touch `Date()`, `Locale.current` or
/// `TimeZone.current` themselves, so specs control all of it.
///
/// ```swift
/// let environment = Environment(
///     api: DesignerNewsAPIClient(configuration: .init(baseURL: server.baseURL)),
///     language: .de,
///     currentDate: { Date(timeIntervalSince1970: 1_700_049_600) },
///     timeZone: TimeZone(identifier: "Europe/Berlin")!)
/// AppEnvironment.withEnvironment(environment) { … }
/// ```
public struct Environment: Sendable {
    public var api: any DesignerNewsAPI
    /// The language of every string the app shows.
    public var language: Language
    /// Formats numbers and dates; defaults to the language's locale (`de_DE` for `.de`).
    public var locale: Locale
    /// The reader's time zone: decides what "yesterday" means.
    public var timeZone: TimeZone
    /// The calendar days are counted in (its time zone is always ``timeZone``).
    public var calendar: Calendar
    /// The clock: what "now" is.
    public var currentDate: @Sendable () -> Date
    /// Where the access token is kept.
    public var keyValueStore: any KeyValueStore

    public init(
        api: any DesignerNewsAPI = DesignerNewsAPIClient(configuration: .production),
        language: Language = .en,
        locale: Locale? = nil,
        currentDate: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        calendar: Calendar = Calendar(identifier: .gregorian),
        keyValueStore: any KeyValueStore = InMemoryKeyValueStore()
    ) {
        self.api = api
        self.language = language
        self.locale = locale ?? language.locale
        self.currentDate = currentDate
        self.timeZone = timeZone
        self.calendar = calendar
        self.keyValueStore = keyValueStore
    }

    /// "Now", from ``currentDate``.
    public var now: Date { currentDate() }

    /// The app's strings in ``language``.
    public var strings: Localizer { DesignerNewsStrings.localizer(for: language) }

    /// ``calendar`` set to ``timeZone`` and ``locale``.
    public var localCalendar: Calendar {
        var calendar = calendar
        calendar.timeZone = timeZone
        calendar.locale = locale
        return calendar
    }

    /// The stored access token, if the reader has logged in.
    public var storedAccessToken: String? {
        keyValueStore.string(forKey: AppEnvironment.accessTokenKey)
    }
}
