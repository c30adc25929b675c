import Foundation

/// The signed-in reader, from `GET /api/v1/me`.
///
/// ```json
/// {"id": 4711, "display_name": "QA Reader", "first_name": "QA", "last_name": "Reader",
///  "job": "Quality Engineer", "portrait_url": null, "created_at": "2021-03-02T10:00:00Z"}
/// ```
public struct User: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var displayName: String
    public var firstName: String?
    public var lastName: String?
    public var job: String?
    public var portraitURL: URL?
    public var createdAt: Date?

    public init(
        id: Int, displayName: String, firstName: String? = nil, lastName: String? = nil, job: String? = nil,
        portraitURL: URL? = nil, createdAt: Date? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.firstName = firstName
        self.lastName = lastName
        self.job = job
        self.portraitURL = portraitURL
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, job
        case displayName = "display_name"
        case firstName = "first_name"
        case lastName = "last_name"
        case portraitURL = "portrait_url"
        case createdAt = "created_at"
    }
}
