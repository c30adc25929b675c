/// What a request must look like for a stub to answer it (moco's `"request": {…}`).
/// Every condition that is set must hold (AND).
///
/// ```swift
/// let login = RequestPattern(
///     method: "POST", uri: "/oauth/token",
///     forms: ["grant_type": "password", "username": "qa@example.com", "password": "secret"]
/// )
/// let story = RequestPattern.get(.path("/api/v1/stories/{id}"))
/// ```
public struct RequestPattern: Sendable, Hashable {
    /// The percent-decoded path, without the query string.
    public var uri: TextMatcher?
    /// Compared case-insensitively.
    public var method: TextMatcher?
    /// `HTTP/1.0`, `HTTP/1.1`.
    public var version: TextMatcher?
    /// Names case-insensitive; a repeated header matches if any of its values matches.
    public var headers: KeyedMatchers
    /// Decoded query parameters; `?flag` has the value `""`; any value of a repeated key may match.
    public var queries: KeyedMatchers
    public var cookies: KeyedMatchers
    /// `application/x-www-form-urlencoded` or `multipart/form-data` fields (file parts ignored).
    public var forms: KeyedMatchers
    /// The body as UTF-8 text (operators `json` and `xml` compare structurally).
    public var text: TextMatcher?
    /// The body equals a file's content.
    public var file: FileMatcher?
    /// The body is JSON structurally equal to this value.
    public var json: JSONValue?
    /// JSONPath expressions over a JSON body; a list result matches if any element matches.
    public var jsonPaths: KeyedMatchers
    /// The body has the same shape as this JSON or XML (keys and kinds, any values).
    public var structure: StructurePattern?
    /// XPath 1.0 expressions over an XML body; any selected node may match.
    public var xpaths: KeyedMatchers

    public init(
        method: TextMatcher? = nil,
        uri: TextMatcher? = nil,
        version: TextMatcher? = nil,
        headers: KeyedMatchers = [:],
        queries: KeyedMatchers = [:],
        cookies: KeyedMatchers = [:],
        forms: KeyedMatchers = [:],
        text: TextMatcher? = nil,
        file: FileMatcher? = nil,
        json: JSONValue? = nil,
        jsonPaths: KeyedMatchers = [:],
        structure: StructurePattern? = nil,
        xpaths: KeyedMatchers = [:]
    ) {
        self.method = method
        self.uri = uri
        self.version = version
        self.headers = headers
        self.queries = queries
        self.cookies = cookies
        self.forms = forms
        self.text = text
        self.file = file
        self.json = json
        self.jsonPaths = jsonPaths
        self.structure = structure
        self.xpaths = xpaths
    }

    /// `GET uri` with optional query conditions.
    public static func get(_ uri: TextMatcher, queries: KeyedMatchers = [:], headers: KeyedMatchers = [:]) -> RequestPattern {
        RequestPattern(method: "GET", uri: uri, headers: headers, queries: queries)
    }

    /// `POST uri` with optional form or JSON body conditions.
    public static func post(_ uri: TextMatcher, forms: KeyedMatchers = [:], json: JSONValue? = nil, headers: KeyedMatchers = [:])
        -> RequestPattern
    {
        RequestPattern(method: "POST", uri: uri, headers: headers, forms: forms, json: json)
    }

    /// True when no condition is set (such a pattern matches every request).
    public var isEmpty: Bool {
        uri == nil && method == nil && version == nil && headers.isEmpty && queries.isEmpty && cookies.isEmpty
            && forms.isEmpty && text == nil && file == nil && json == nil && jsonPaths.isEmpty && structure == nil
            && xpaths.isEmpty
    }
}

/// `"file": "body.txt"` in a request: the body must equal the file's content (read when the
/// configuration loads; the loader watches the file so edits reload).
public struct FileMatcher: Sendable, Hashable {
    public enum Comparison: Sendable, Hashable {
        /// Byte-for-byte (after decoding both with `charset`).
        case exact
        /// Both parsed as JSON and compared structurally.
        case json
        /// Both parsed as XML and compared as documents.
        case xml
    }

    /// Relative to the stub's file root (see `StubScope`).
    public var path: String
    public var charset: String?
    public var comparison: Comparison

    public init(path: String, charset: String? = nil, comparison: Comparison = .exact) {
        self.path = path
        self.charset = charset
        self.comparison = comparison
    }
}

/// moco's `struct`: the body has the same shape as the example, whatever the values.
public enum StructurePattern: Sendable, Hashable {
    /// Every expected key exists with the same JSON kind; extra keys are fine; every array
    /// element has the shape of the example's first element; `null` in the example matches anything.
    case json(JSONValue)
    /// Same element names, child structure and attribute names; any text.
    case xml(String)
}
