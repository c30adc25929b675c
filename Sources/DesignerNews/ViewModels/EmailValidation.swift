import Foundation

/// What the login form accepts as an email address: something before one `@`, and a domain of
/// at least two non-empty labels, with no spaces. (The server has the last word.)
///
/// ```swift
/// EmailValidation.isValid("qa@example.com")   // true
/// EmailValidation.isValid("qa@example")       // false
/// ```
public enum EmailValidation {
    public static func isValid(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !email.contains(where: \.isWhitespace) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}
