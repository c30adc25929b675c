import Foundation

/// A story on the front page.
///
/// ```json
/// {"id": 101, "title": "Designing a calmer notification system", "url": "https://medium.com/…",
///  "comment_count": 42, "vote_count": 118, "created_at": "2023-11-15T09:12:44Z",
///  "user_display_name": "Lena Roth", "hostname": "medium.com", "comment": null, "badge": null}
/// ```
/// Keys the app does not use (`site_url`, `user_job`, …) are ignored.
public struct Story: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var title: String
    public var url: URL
    /// The submitter's note, if any.
    public var comment: String?
    public var commentCount: Int
    public var voteCount: Int
    public var createdAt: Date
    public var userDisplayName: String
    /// The linked site (`medium.com`); nil for discussions hosted on Designer News.
    public var hostname: String?
    public var badge: Badge?

    public init(
        id: Int, title: String, url: URL, comment: String? = nil, commentCount: Int, voteCount: Int, createdAt: Date,
        userDisplayName: String, hostname: String? = nil, badge: Badge? = nil
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.comment = comment
        self.commentCount = commentCount
        self.voteCount = voteCount
        self.createdAt = createdAt
        self.userDisplayName = userDisplayName
        self.hostname = hostname
        self.badge = badge
    }

    enum CodingKeys: String, CodingKey {
        case id, title, url, comment, hostname, badge
        case commentCount = "comment_count"
        case voteCount = "vote_count"
        case createdAt = "created_at"
        case userDisplayName = "user_display_name"
    }

    /// The label a story is posted under. Open-ended: a badge the app does not know yet still decodes.
    public struct Badge: RawRepresentable, Codable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// "Show DN": something the poster made.
        public static let show = Badge(rawValue: "show")
        /// "Ask DN": a question to the community.
        public static let ask = Badge(rawValue: "ask")
        public static let design = Badge(rawValue: "design")
    }
}
