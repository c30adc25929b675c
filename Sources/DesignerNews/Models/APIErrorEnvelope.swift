import Foundation

/// The body the API sends with a 4xx or 5xx status (OAuth's error format).
///
/// ```json
/// {"error": "invalid_grant", "error_description": "The provided authorization grant is invalid…"}
/// ```
public struct APIErrorEnvelope: Codable, Sendable, Equatable, Error {
    /// A machine-readable code: `invalid_grant`, `not_found`, `server_error`…
    public var error: String
    /// A sentence for developers (not shown to readers: the app localises by `error`).
    public var errorDescription: String?

    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
