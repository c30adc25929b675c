import Foundation

// The API wraps every resource in an object named after it; these are the wrappers.

/// `GET /api/v1/stories?page=N`: one page of stories, newest first.
///
/// ```json
/// {"stories": [{…}, {…}], "next_page": 2}
/// ```
public struct StoriesPage: Codable, Sendable, Equatable {
    public var stories: [Story]
    /// The page to ask for next; nil on the last page.
    public var nextPage: Int?

    public init(stories: [Story], nextPage: Int? = nil) {
        self.stories = stories
        self.nextPage = nextPage
    }

    enum CodingKeys: String, CodingKey {
        case stories
        case nextPage = "next_page"
    }
}

/// `GET /api/v1/stories/{id}`: `{"story": {…}}`.
public struct StoryEnvelope: Codable, Sendable, Equatable {
    public var story: Story
    public init(story: Story) { self.story = story }
}

/// `GET /api/v1/stories/{id}/comments`: `{"comments": [{…}]}`.
public struct CommentsEnvelope: Codable, Sendable, Equatable {
    public var comments: [Comment]
    public init(comments: [Comment]) { self.comments = comments }
}

/// `GET /api/v1/me`: `{"user": {…}}`.
public struct UserEnvelope: Codable, Sendable, Equatable {
    public var user: User
    public init(user: User) { self.user = user }
}

/// `POST /api/v1/stories/{id}/upvote`: `{"upvote": {"id": 7001, "story_id": 101, "user_id": 4711}}`.
public struct UpvoteEnvelope: Codable, Sendable, Equatable {
    public var upvote: Upvote
    public init(upvote: Upvote) { self.upvote = upvote }
}

/// A reader's vote on a story.
public struct Upvote: Codable, Sendable, Equatable {
    public var id: Int
    public var storyID: Int
    public var userID: Int?

    public init(id: Int, storyID: Int, userID: Int? = nil) {
        self.id = id
        self.storyID = storyID
        self.userID = userID
    }

    enum CodingKeys: String, CodingKey {
        case id
        case storyID = "story_id"
        case userID = "user_id"
    }
}
