import Foundation
import TextScreen

/// One row of the stories list, ready to show: every string is in the reader's language.
///
/// ```text
/// Designing a calmer notification system
/// 118 points · 42 comments · 2 hours ago
/// by Lena Roth · medium.com                  △
/// ```
public struct StoryRow: Sendable, Equatable, Identifiable {
    public var id: Int
    public var title: String
    /// "118 points · 42 comments · 2 hours ago"
    public var meta: String
    /// "by Lena Roth · medium.com"
    public var byline: String
    /// "Show DN", "Ask DN", "Design", or nil.
    public var badge: String?
    public var voteCount: Int
    /// The reader upvoted it (a vote in flight counts).
    public var isUpvoted: Bool
    public var url: URL

    public init(
        id: Int, title: String, meta: String, byline: String, badge: String?, voteCount: Int, isUpvoted: Bool, url: URL
    ) {
        self.id = id
        self.title = title
        self.meta = meta
        self.byline = byline
        self.badge = badge
        self.voteCount = voteCount
        self.isUpvoted = isUpvoted
        self.url = url
    }

    /// The row for `story` in `environment` (language, clock, time zone).
    public init(story: Story, isUpvoted: Bool, environment: Environment) {
        let strings = environment.strings
        let points = strings.plural("story.points", count: story.voteCount)
        let comments = strings.plural("story.comments", count: story.commentCount)
        let age = RelativeTime.text(for: story.createdAt, in: environment)
        let byline =
            story.hostname.map { strings("story.byline.host", story.userDisplayName, $0) }
            ?? strings("story.byline", story.userDisplayName)
        self.init(
            id: story.id, title: story.title, meta: strings("story.meta", points, comments, age), byline: byline,
            badge: story.badge.map { Self.badgeLabel($0, strings: strings) }, voteCount: story.voteCount,
            isUpvoted: isUpvoted, url: story.url)
    }

    static func badgeLabel(_ badge: Story.Badge, strings: Localizer) -> String {
        let key = "story.badge.\(badge.rawValue)"
        return strings.entry(key) == nil ? badge.rawValue : strings(key)
    }
}
