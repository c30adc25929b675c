import Foundation

/// `application/x-www-form-urlencoded` bodies, as HTML forms and OAuth token requests send them.
///
/// ```swift
/// FormEncoding.encode([("username", "qa@example.com"), ("password", "s3cret & more")])
/// // "username=qa%40example.com&password=s3cret+%26+more"
/// ```
enum FormEncoding {
    /// Fields in the given order; only unreserved characters stay as they are, spaces become `+`.
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~ ")

    static func escape(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text).replacingOccurrences(of: " ", with: "+")
    }
}
