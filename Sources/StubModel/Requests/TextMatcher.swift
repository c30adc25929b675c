/// How one piece of a request (the uri, a header value, the body…) must look: moco's
/// "text container". A plain string means equality; the other cases are moco's operators.
///
/// ```swift
/// let byId: TextMatcher = .path("/api/v1/stories/{id}")
/// let anyToken: TextMatcher = .exist(true)
/// let exact: TextMatcher = "application/json"     // .equal
/// ```
public enum TextMatcher: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// Exact, case-sensitive equality (the method compares case-insensitively).
    case equal(String)
    /// The whole value matches this regular expression (ICU syntax, close to Java's).
    case match(String)
    case startsWith(String)
    case endsWith(String)
    case contain(String)
    /// `true`: the value is present (for the body: non-empty); `false`: absent (empty body).
    case exist(Bool)
    /// Ant-style path template for `uri`: `{name}` captures one segment, `*` any characters
    /// within a segment, `**` any number of segments, `?` one character.
    case path(String)
    /// Body only: parsed as JSON and compared structurally (key order and spacing ignored).
    case json(JSONValue)
    /// Body only: parsed as XML and compared as documents (whitespace-only text and comments ignored).
    case xml(String)

    public init(stringLiteral value: String) { self = .equal(value) }

    /// The operator's name as written in JSON (`match`, `startsWith`, …), or `equal`.
    public var operatorName: String {
        switch self {
        case .equal: "equal"
        case .match: "match"
        case .startsWith: "startsWith"
        case .endsWith: "endsWith"
        case .contain: "contain"
        case .exist: "exist"
        case .path: "path"
        case .json: "json"
        case .xml: "xml"
        }
    }

    /// Reads like the expectation in a near-miss report: `equal to "/a"`, `matching "\d+"`.
    public var description: String {
        switch self {
        case .equal(let text): quoted(text)
        case .match(let pattern): "matching \(quoted(pattern))"
        case .startsWith(let text): "starting with \(quoted(text))"
        case .endsWith(let text): "ending with \(quoted(text))"
        case .contain(let text): "containing \(quoted(text))"
        case .exist(let flag): flag ? "present" : "absent"
        case .path(let pattern): "a path like \(quoted(pattern))"
        case .json(let value): "JSON equal to \(clip(value.compactText))"
        case .xml(let text): "XML equal to \(clip(text))"
        }
    }
}

package func quoted(_ text: String) -> String {
    var out = ""
    JSONWriter.writeString(clip(text), into: &out)
    return out
}

/// Cuts long values in messages so reports stay bounded.
package func clip(_ text: String, to limit: Int = 200) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes)"
}

/// Named matchers (headers, queries, cookies, forms, json_paths, xpaths) in the order written;
/// every one must match.
///
/// ```swift
/// let forms: KeyedMatchers = ["grant_type": "password", "username": .contain("@")]
/// for entry in forms { print(entry.key, entry.value) }   // grant_type equal to "password", …
/// ```
public typealias KeyedMatchers = KeyedList<TextMatcher>
