/// A string in a response that is either written out or rendered per request from a moco
/// template (`${req.queries['name']}`, `${now('yyyy-MM-dd')}`, …).
///
/// ```swift
/// let greeting: TextValue = .template("Hello ${req.queries['name']!'stranger'}")
/// let fixed: TextValue = "Hello"                      // .literal
/// ```
public enum TextValue: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    case literal(String)
    /// A template and its custom variables (`vars`).
    case template(String, vars: TemplateVariables = [:])

    public init(stringLiteral value: String) { self = .literal(value) }

    public var isTemplate: Bool {
        if case .template = self { return true }
        return false
    }

    /// The text as written (the template's source for templates).
    public var source: String {
        switch self {
        case .literal(let text): text
        case .template(let text, _): text
        }
    }

    public var description: String {
        switch self {
        case .literal(let text): quoted(text)
        case .template(let text, _): "template \(quoted(text))"
        }
    }
}

/// A template's custom variables (moco's `vars`): literals or values extracted from the request.
///
/// ```swift
/// let vars: TemplateVariables = ["site": .literal("DN"), "user": .jsonPath("$.user.name")]
/// for entry in vars { print(entry.key, entry.value) }   // site, then user
/// ```
public typealias TemplateVariables = KeyedList<TemplateVariable>

/// One `vars` entry. Extractors that can find several values (headers, queries, XPath) give a
/// list, used as `${name[0]}`; a form field, a cookie and a JSONPath that selects one value give it.
public enum TemplateVariable: Sendable, Hashable, ExpressibleByStringInterpolation {
    case literal(String)
    case jsonPath(String)
    case xpath(String)
    case header(String)
    case query(String)
    case form(String)
    case cookie(String)

    public init(stringLiteral value: String) { self = .literal(value) }
}
