import Foundation

/// What `POST /oauth/token` returns for a successful password grant.
///
/// ```json
/// {"access_token": "b4f1…", "token_type": "bearer", "scope": "user", "created_at": 1700045200}
/// ```
/// `created_at` is in seconds since 1970 (OAuth's habit), unlike the API's ISO-8601 dates.
public struct AccessToken: Codable, Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    public var scope: String?
    public var createdAt: Date?

    public init(accessToken: String, tokenType: String = "bearer", scope: String? = nil, createdAt: Date? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.scope = scope
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case scope
        case createdAt = "created_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        createdAt = try container.decodeIfPresent(Double.self, forKey: .createdAt).map(Date.init(timeIntervalSince1970:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(createdAt.map { Int($0.timeIntervalSince1970) }, forKey: .createdAt)
    }
}
