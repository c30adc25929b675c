import Foundation

/// A comment on a story; replies name their parent.
///
/// ```json
/// {"id": 9001, "body": "Quiet hours saved our support team.", "created_at": "2023-11-15T09:40:02Z",
///  "user_display_name": "Tom Okafor", "vote_count": 12, "parent_comment_id": null}
/// ```
public struct Comment: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var body: String
    public var createdAt: Date
    public var userDisplayName: String
    public var voteCount: Int
    /// The comment this one replies to; nil at the top level.
    public var parentCommentID: Int?

    public init(id: Int, body: String, createdAt: Date, userDisplayName: String, voteCount: Int, parentCommentID: Int? = nil) {
        self.id = id
        self.body = body
        self.createdAt = createdAt
        self.userDisplayName = userDisplayName
        self.voteCount = voteCount
        self.parentCommentID = parentCommentID
    }

    enum CodingKeys: String, CodingKey {
        case id, body
        case createdAt = "created_at"
        case userDisplayName = "user_display_name"
        case voteCount = "vote_count"
        case parentCommentID = "parent_comment_id"
    }
}
