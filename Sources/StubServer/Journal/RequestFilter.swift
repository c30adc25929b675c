import Foundation

/// Describes requests to look for in a journal, composed from small pieces. (Stubs use
/// `RequestPattern`, the full moco matcher; a journal filter is the light query side.)
///
/// ```swift
/// server.journal.count(matching: .post("/oauth/token"))
/// server.journal.requests(matching: .get("/api/v1/stories").withQuery("client_id", "abc"))
/// server.journal.requests(matching: .any("/api/v1/stories/1").withHeader("Authorization"))
/// ```
public struct RequestFilter: Sendable, CustomStringConvertible {
    /// The method to match (case-insensitively); nil matches any.
    public var method: String?
    /// The path to match exactly after percent-decoding; a path containing `?` is compared with
    /// the whole request target instead. Nil matches any.
    public var path: String?
    private var conditions: [(description: String, test: @Sendable (HTTPRequest) -> Bool)] = []

    public init(method: String? = nil, path: String? = nil) {
        self.method = method
        self.path = path
    }

    public static func get(_ path: String) -> RequestFilter { RequestFilter(method: "GET", path: path) }
    public static func post(_ path: String) -> RequestFilter { RequestFilter(method: "POST", path: path) }
    public static func put(_ path: String) -> RequestFilter { RequestFilter(method: "PUT", path: path) }
    public static func patch(_ path: String) -> RequestFilter { RequestFilter(method: "PATCH", path: path) }
    public static func delete(_ path: String) -> RequestFilter { RequestFilter(method: "DELETE", path: path) }
    public static func head(_ path: String) -> RequestFilter { RequestFilter(method: "HEAD", path: path) }
    public static func options(_ path: String) -> RequestFilter { RequestFilter(method: "OPTIONS", path: path) }
    /// Any method on `path`.
    public static func any(_ path: String) -> RequestFilter { RequestFilter(path: path) }
    /// Every request.
    public static var all: RequestFilter { RequestFilter() }

    /// Also requires a header named `name` (with exactly `value` when given).
    public func withHeader(_ name: String, _ value: String? = nil) -> RequestFilter {
        adding(value.map { "header \(name): \($0)" } ?? "header \(name)") { request in
            if let value { return request.headers.values(for: name).contains(value) }
            return request.headers.contains(name)
        }
    }

    /// Also requires a query parameter (with exactly `value` when given), compared decoded.
    public func withQuery(_ name: String, _ value: String? = nil) -> RequestFilter {
        adding(value.map { "query \(name)=\($0)" } ?? "query \(name)") { request in
            let items = Self.queryItems(of: request)
            if let value { return items.contains { $0.name == name && $0.value == value } }
            return items.contains { $0.name == name }
        }
    }

    /// Also requires the body (as UTF-8 text) to contain `text`.
    public func withBody(containing text: String) -> RequestFilter {
        adding("body contains \"\(text)\"") { request in
            String(decoding: request.body, as: UTF8.self).contains(text)
        }
    }

    /// Also requires a form field in an `application/x-www-form-urlencoded` body.
    public func withFormField(_ name: String, _ value: String? = nil) -> RequestFilter {
        adding(value.map { "form \(name)=\($0)" } ?? "form \(name)") { request in
            let items = Self.formItems(String(decoding: request.body, as: UTF8.self))
            if let value { return items.contains { $0.name == name && $0.value == value } }
            return items.contains { $0.name == name }
        }
    }

    /// Also requires any condition you can write, named for failure messages.
    public func matching(_ description: String, _ test: @escaping @Sendable (HTTPRequest) -> Bool) -> RequestFilter {
        adding(description, test)
    }

    public func matches(_ request: HTTPRequest) -> Bool {
        if let method, !HTTPHeaders.sameName(method, request.method) { return false }
        if let path {
            if path.contains("?") {
                if request.target != path { return false }
            } else if Self.decodedPath(of: request) != path {
                return false
            }
        }
        return conditions.allSatisfy { $0.test(request) }
    }

    /// `POST /oauth/token with form grant_type=password`
    public var description: String {
        var text = "\(method ?? "ANY") \(path ?? "*")"
        if !conditions.isEmpty { text += " with " + conditions.map(\.description).joined(separator: ", ") }
        return text
    }

    private func adding(_ description: String, _ test: @escaping @Sendable (HTTPRequest) -> Bool) -> RequestFilter {
        var copy = self
        copy.conditions.append((description, test))
        return copy
    }

    static func decodedPath(of request: HTTPRequest) -> String {
        let raw = String(request.rawPath)
        return raw.removingPercentEncoding ?? raw
    }

    static func queryItems(of request: HTTPRequest) -> [(name: String, value: String)] {
        guard let query = request.rawQuery else { return [] }
        return formItems(String(query))
    }

    static func formItems(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let plus = part.replacingOccurrences(of: "+", with: " ")
                return plus.removingPercentEncoding ?? plus
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
