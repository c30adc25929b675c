import Foundation
import TextScreen

/// Turns an ``APIError`` into a sentence for the reader, in the environment's language.
/// Readers never see status codes or the server's English `error_description`.
///
/// ```swift
/// ErrorMessages.message(for: .http(status: 500, envelope: nil), strings: strings)
/// // "Designer News is having trouble right now. Please try again later."
/// ```
public enum ErrorMessages {
    /// The generic message for an API failure: server trouble, no connection, or anything else.
    public static func message(for error: APIError, strings: Localizer) -> String {
        switch error {
        case .http(let status, _) where (500...599).contains(status):
            return strings("error.server")
        case .transport:
            return strings("error.offline")
        case .http, .decoding:
            return strings("error.unexpected")
        }
    }

    /// A failed login: wrong credentials get their own message (401, or OAuth's `invalid_grant`).
    public static func loginMessage(for error: APIError, strings: Localizer) -> String {
        if case .http(let status, let envelope) = error, status == 401 || envelope?.error == "invalid_grant" {
            return strings("login.error.invalid_credentials")
        }
        return message(for: error, strings: strings)
    }
}
