import Foundation
// One JSON string escaper for the package: RehearsalJSON's `JSONWriter`.
import RehearsalJSON

/// Which requests to look for in a server's journal, written as moco's request matcher — the
/// same JSON object as a session's `"request"` — so an embedded `StubServer`, the admin API
/// (`POST /__admin/requests/count`) and `StubServerClient` all read one language.
///
/// ```swift
/// server.journal.count(matching: .post("/oauth/token"))
/// server.journal.requests(matching: .get("/api/v1/stories").withQuery("client_id", "abc"))
/// try await client.countRequests(matching: .any("/api/v1/stories/1").withHeader("Authorization"))
/// RequestFilter(mocoJSON: #"{"uri": {"match": "/users/\\d+"}}"#)   // anything moco can say
/// ```
public struct RequestFilter: Sendable, Hashable, CustomStringConvertible {
    /// The method to match (case-insensitively); nil matches any.
    public var method: String?
    /// The path to match exactly after percent-decoding; a path with `?` also requires each of
    /// its query parameters. Nil matches any.
    public var path: String?
    private var conditions: [Condition] = []

    /// One more member of the matcher object: `headers`/`queries`/`forms`/`cookies` entries are
    /// grouped under their key; any other key stands on its own (`text`, `json`, `uri`, …).
    private struct Condition: Sendable, Hashable {
        var key: String
        var name: String?
        /// The value as compact JSON.
        var json: String
        var description: String
    }

    public init(method: String? = nil, path: String? = nil) {
        self.method = method
        self.path = path
    }

    /// A filter from a moco request matcher object as JSON text (checked when it is used; a
    /// malformed one fails the query with the JSON path of the problem).
    public init(mocoJSON: String, description: String? = nil) {
        conditions = [Condition(key: "", name: nil, json: mocoJSON, description: description ?? mocoJSON)]
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
        adding("headers", name, value, value.map { "header \(name): \($0)" } ?? "header \(name)")
    }

    /// Also requires a query parameter (with exactly `value` when given), compared decoded.
    public func withQuery(_ name: String, _ value: String? = nil) -> RequestFilter {
        adding("queries", name, value, value.map { "query \(name)=\($0)" } ?? "query \(name)")
    }

    /// Also requires a form field in an `application/x-www-form-urlencoded` (or multipart) body.
    public func withFormField(_ name: String, _ value: String? = nil) -> RequestFilter {
        adding("forms", name, value, value.map { "form \(name)=\($0)" } ?? "form \(name)")
    }

    /// Also requires a cookie (with exactly `value` when given).
    public func withCookie(_ name: String, _ value: String? = nil) -> RequestFilter {
        adding("cookies", name, value, value.map { "cookie \(name)=\($0)" } ?? "cookie \(name)")
    }

    /// Also requires the body (as UTF-8 text) to contain `text`.
    public func withBody(containing text: String) -> RequestFilter {
        var copy = self
        copy.conditions.append(
            Condition(
                key: "text", name: nil, json: #"{"contain":\#(JSONText.quoted(text))}"#,
                description: "body containing \(JSONText.quoted(text))"))
        return copy
    }

    /// Also requires a JSON body structurally equal to `json` (JSON text; key order and spacing
    /// do not matter).
    public func withJSONBody(_ json: String) -> RequestFilter {
        var copy = self
        copy.conditions.append(Condition(key: "json", name: nil, json: json, description: "JSON body \(json)"))
        return copy
    }

    private func adding(_ key: String, _ name: String, _ value: String?, _ description: String) -> RequestFilter {
        var copy = self
        let json = value.map(JSONText.quoted) ?? #"{"exist":"true"}"#
        copy.conditions.append(Condition(key: key, name: name, json: json, description: description))
        return copy
    }

    /// The filter as a moco request matcher object (compact JSON), e.g.
    /// `{"method":"POST","uri":"/oauth/token","forms":{"username":"qa@example.com"}}`.
    /// A filter made from `mocoJSON` with more pieces added merges the pieces into that object.
    public var mocoJSON: String {
        var members: [(key: String, json: String)] = []
        var raw: String?
        if let method { members.append(("method", JSONText.quoted(method))) }
        var grouped: [String: [(String, String)]] = [:]
        var groupOrder: [String] = []
        if let path {
            if let mark = path.firstIndex(of: "?") {
                members.append(("uri", JSONText.quoted(String(path[..<mark]))))
                for pair in path[path.index(after: mark)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    func decode(_ part: Substring) -> String {
                        let plus = part.replacingOccurrences(of: "+", with: " ")
                        return plus.removingPercentEncoding ?? plus
                    }
                    if grouped["queries"] == nil { groupOrder.append("queries") }
                    grouped["queries", default: []].append((decode(parts[0]), JSONText.quoted(parts.count > 1 ? decode(parts[1]) : "")))
                }
            } else {
                members.append(("uri", JSONText.quoted(path)))
            }
        }
        for condition in conditions {
            if condition.key.isEmpty {
                raw = condition.json
            } else if let name = condition.name {
                if grouped[condition.key] == nil { groupOrder.append(condition.key) }
                grouped[condition.key, default: []].append((name, condition.json))
            } else {
                members.append((condition.key, condition.json))
            }
        }
        for key in groupOrder {
            let inner = grouped[key]!.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",")
            members.append((key, "{\(inner)}"))
        }
        let own = members.map { "\(JSONText.quoted($0.key)):\($0.json)" }.joined(separator: ",")
        guard let raw else { return "{\(own)}" }
        if own.isEmpty { return raw }
        // Merge into the raw object: drop its closing brace and append ours.
        var trimmed = Substring(raw)
        while let last = trimmed.last, last.isWhitespace { trimmed = trimmed.dropLast() }
        guard trimmed.last == "}" else { return raw }
        trimmed = trimmed.dropLast()
        var body = trimmed
        while let last = body.last, last.isWhitespace { body = body.dropLast() }
        return body.last == "{" ? "\(body)\(own)}" : "\(body),\(own)}"
    }

    /// `POST /oauth/token with form username="qa@example.com"`
    public var description: String {
        var text = "\(method ?? "ANY") \(path ?? "*")"
        if !conditions.isEmpty { text += " with " + conditions.map(\.description).joined(separator: ", ") }
        return text
    }
}

/// Just enough JSON writing for filters and reports, without Foundation's serializer.
public enum JSONText {
    /// `"text"` with JSON escapes.
    public static func quoted(_ text: String) -> String {
        var out = ""
        JSONWriter.writeString(text, into: &out)
        return out
    }
}
