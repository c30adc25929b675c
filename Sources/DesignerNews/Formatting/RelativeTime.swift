import Foundation
import TextScreen

/// "just now", "5 minutes ago", "3 hours ago", "yesterday", "4 days ago", then the date — in the
/// environment's language, against its clock, with days counted in its time zone.
///
/// ```swift
/// let environment = Environment(language: .de, currentDate: { now })
/// RelativeTime.text(for: now.addingTimeInterval(-3 * 3600), in: environment)   // "vor 3 Stunden"
/// ```
/// Numbers go through the strings' own formatter (no ICU digit grouping), and the date of an
/// old story is a localised numeric pattern, so Linux and Darwin print the same text.
public enum RelativeTime {
    /// Days after which a story shows its date instead.
    public static let dayLimit = 30

    public static func text(for date: Date, in environment: Environment) -> String {
        let strings = environment.strings
        let now = environment.now
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 {
            return strings("time.just_now") // also for a clock a little behind the server's
        }
        if seconds < 3600 {
            return strings.plural("time.minutes_ago", count: Int(seconds / 60))
        }
        if seconds < 86_400 {
            return strings.plural("time.hours_ago", count: Int(seconds / 3600))
        }
        let calendar = environment.localCalendar
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date), to: calendar.startOfDay(for: now)).day ?? 1
        if days <= 1 {
            return strings("time.yesterday")
        }
        if days < dayLimit {
            return strings.plural("time.days_ago", count: days)
        }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return strings("time.date", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
