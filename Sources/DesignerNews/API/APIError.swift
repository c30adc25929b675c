import Foundation
import SpecKitAppSupport

/// Why an API call failed.
///
/// ```swift
/// do { _ = try await api.login(email: email, password: password) }
/// catch .http(status: 401, let envelope) { print(envelope?.error ?? "") }   // "invalid_grant"
/// catch { print(error) }
/// ```
public enum APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200–299. `envelope` is the decoded error body,
    /// nil when the body was not the API's error JSON.
    case http(status: Int, envelope: APIErrorEnvelope?)
    /// No HTTP answer arrived: refused, offline, timed out, cancelled. `code` is `URLError`'s code.
    case transport(code: Int, message: String)
    /// A successful answer whose body did not decode; the failure names the coding path
    /// (`could not decode StoriesPage: type mismatch (Int) at stories[2].vote_count: …`).
    case decoding(DecodingFailure)

    /// The HTTP status, for `.http`.
    public var status: Int? {
        if case .http(let status, _) = self { return status }
        return nil
    }

    public var description: String {
        switch self {
        case .http(let status, let envelope):
            var text = "HTTP \(status)"
            if let envelope {
                text += ": \(envelope.error)"
                if let detail = envelope.errorDescription { text += " (\(detail))" }
            }
            return text
        case .transport(let code, let message):
            return "transport error \(code): \(message)"
        case .decoding(let failure):
            return failure.description
        }
    }
}
