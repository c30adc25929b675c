/// What a stub answers (moco's `"response": {…}`). Unset parts keep moco's defaults:
/// status 200, the request's HTTP version, a content type chosen by the body.
///
/// ```swift
/// let token = ResponseDefinition.file("login_response.json")
/// let denied = ResponseDefinition.json(["error": "invalid_grant"], status: 401)
/// let slow = ResponseDefinition.text("ok").latency(.milliseconds(800))
/// let refresh = ResponseDefinition.seq([.file("stories.json"), .file("stories_newer.json")])
/// ```
public struct ResponseDefinition: Sendable, Hashable {
    public var body: ResponseBody?
    public var status: Int?
    public var headers: [ResponseHeader]
    public var cookies: [ResponseCookie]
    /// `HTTP/1.0` or `HTTP/1.1` (templates allowed); nil answers with the request's version.
    public var version: TextValue?
    /// Wait this long before answering (a timer in the engine, never a sleeping thread).
    public var latency: Duration?
    /// `Content-Disposition: attachment; filename=…` plus the attachment's body.
    public var attachment: Attachment?
    /// `seq`/`cycle`: per-request alternatives applied after everything above.
    public var sequence: ResponseSequence?
    /// `cors`: `Access-Control-*` headers for requests with an `Origin`.
    public var cors: CORSPolicy?
    /// Forward to a live backend; the other keys then adjust its answer.
    public var proxy: ProxyDefinition? = nil
    /// Store the request for a later `replay` (answers 200 with an empty body).
    public var record: RecordDefinition? = nil
    /// Answer from a recorded request.
    public var replay: ReplayDefinition? = nil
    /// Server-sent events (moco's `sse`); the connection closes after the last one.
    public var sse: ServerSentEvents?
    /// The body in pieces over time (a Rehearsal extension).
    public var dribble: Dribble?
    /// Break the exchange instead of answering (a Rehearsal extension).
    public var fault: ResponseFault?
    /// The websocket endpoint of a `{"websocket": …}` session (see `StubDefinition.websocket`).
    public var websocket: WebSocketEndpoint?

    public init(
        body: ResponseBody? = nil,
        status: Int? = nil,
        headers: [ResponseHeader] = [],
        cookies: [ResponseCookie] = [],
        version: TextValue? = nil,
        latency: Duration? = nil,
        attachment: Attachment? = nil,
        sequence: ResponseSequence? = nil,
        cors: CORSPolicy? = nil,
        sse: ServerSentEvents? = nil,
        dribble: Dribble? = nil,
        fault: ResponseFault? = nil
    ) {
        self.cors = cors
        self.body = body
        self.status = status
        self.headers = headers
        self.cookies = cookies
        self.version = version
        self.latency = latency
        self.attachment = attachment
        self.sequence = sequence
        self.sse = sse
        self.dribble = dribble
        self.fault = fault
    }

    /// A `text/plain; charset=utf-8` body.
    public static func text(_ text: TextValue, status: Int? = nil, headers: [ResponseHeader] = []) -> ResponseDefinition {
        ResponseDefinition(body: .text(text), status: status, headers: headers)
    }

    /// A `text/plain; charset=utf-8` body (`.text("Hello \(name)")`).
    public static func text(_ text: String, status: Int? = nil, headers: [ResponseHeader] = []) -> ResponseDefinition {
        ResponseDefinition(body: .text(.literal(text)), status: status, headers: headers)
    }

    /// An `application/json; charset=utf-8` body, serialised compactly in key order.
    public static func json(_ value: JSONValue, status: Int? = nil, headers: [ResponseHeader] = []) -> ResponseDefinition {
        ResponseDefinition(body: .json(value), status: status, headers: headers)
    }

    /// A file's bytes, read per request; content type from its extension.
    public static func file(_ name: TextValue, charset: String? = nil, status: Int? = nil, headers: [ResponseHeader] = [])
        -> ResponseDefinition
    {
        ResponseDefinition(body: .file(FileSource(name: name, charset: charset)), status: status, headers: headers)
    }

    /// A file's bytes, read per request; content type from its extension.
    public static func file(_ name: String, charset: String? = nil, status: Int? = nil, headers: [ResponseHeader] = [])
        -> ResponseDefinition
    {
        file(.literal(name), charset: charset, status: status, headers: headers)
    }

    /// A status with an empty body.
    public static func status(_ status: Int, headers: [ResponseHeader] = []) -> ResponseDefinition {
        ResponseDefinition(status: status, headers: headers)
    }

    /// The i-th request gets the i-th response; the last one repeats.
    public static func seq(_ responses: [ResponseDefinition]) -> ResponseDefinition {
        ResponseDefinition(sequence: .seq(responses))
    }

    /// Round-robin over the responses.
    public static func cycle(_ responses: [ResponseDefinition]) -> ResponseDefinition {
        ResponseDefinition(sequence: .cycle(responses))
    }

    /// Forwards to `proxy`'s upstream.
    public static func proxy(_ proxy: ProxyDefinition) -> ResponseDefinition {
        var response = ResponseDefinition()
        response.proxy = proxy
        return response
    }

    /// A copy that waits `duration` before answering.
    public func latency(_ duration: Duration) -> ResponseDefinition {
        var copy = self
        copy.latency = duration
        return copy
    }

    /// A copy that sends its body in pieces over time.
    public func dribble(_ dribble: Dribble) -> ResponseDefinition {
        var copy = self
        copy.dribble = dribble
        return copy
    }

    /// Breaks the exchange instead of answering (`.fault(.connectionReset)`).
    public static func fault(_ fault: ResponseFault) -> ResponseDefinition {
        ResponseDefinition(fault: fault)
    }

    /// Server-sent events, then the connection closes.
    public static func sse(_ events: [SSEEvent], delay: Duration? = nil) -> ResponseDefinition {
        ResponseDefinition(sse: ServerSentEvents(events: events, delay: delay))
    }

    /// A copy with one more header.
    public func header(_ name: String, _ value: TextValue) -> ResponseDefinition {
        var copy = self
        copy.headers.append(ResponseHeader(name: name, value: value))
        return copy
    }

    /// A copy with one more cookie.
    public func cookie(_ cookie: ResponseCookie) -> ResponseDefinition {
        var copy = self
        copy.cookies.append(cookie)
        return copy
    }
}

/// The body of a response: at most one per response.
public enum ResponseBody: Sendable, Hashable {
    case text(TextValue)
    case json(JSONValue)
    case file(FileSource)
}

/// `"file"` in a response.
///
/// ```swift
/// FileSource(name: "stories.json")                                   // bytes as they are
/// FileSource(name: .template("stories/${req.path.id}.json"))         // name from the request
/// FileSource(name: "greeting.txt", rendersContent: true)             // content is a template
/// ```
public struct FileSource: Sendable, Hashable {
    /// Relative to the stub's file root; must stay inside it (symlinks resolved).
    public var name: TextValue
    /// Appended to the content type (`text/plain; charset=gbk`) and used to decode templates.
    public var charset: String?
    /// Render the file's content as a template (moco's `"file": {"template": "…"}`).
    public var rendersContent: Bool
    /// Variables for the content template.
    public var vars: TemplateVariables

    public init(name: TextValue, charset: String? = nil, rendersContent: Bool = false, vars: TemplateVariables = [:]) {
        self.name = name
        self.charset = charset
        self.rendersContent = rendersContent
        self.vars = vars
    }
}

/// One response header; the value may be a template.
public struct ResponseHeader: Sendable, Hashable {
    public var name: String
    public var value: TextValue
    public init(name: String, value: TextValue) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, _ value: TextValue) {
        self.init(name: name, value: value)
    }
}

/// One `Set-Cookie`, with moco's attributes.
///
/// ```swift
/// ResponseCookie(name: "session", value: "abc", path: "/", httpOnly: true, maxAge: .seconds(3600), sameSite: .lax)
/// ```
public struct ResponseCookie: Sendable, Hashable {
    public enum SameSite: String, Sendable, Hashable {
        case strict = "Strict"
        case lax = "Lax"
        case none = "None"
    }

    public var name: String
    public var value: TextValue
    public var path: String?
    public var domain: String?
    public var secure: Bool
    public var httpOnly: Bool
    /// Sent as `Max-Age` (seconds) and `Expires` (computed per response).
    public var maxAge: Duration?
    public var sameSite: SameSite?

    public init(
        name: String, value: TextValue, path: String? = nil, domain: String? = nil, secure: Bool = false,
        httpOnly: Bool = false, maxAge: Duration? = nil, sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.secure = secure
        self.httpOnly = httpOnly
        self.maxAge = maxAge
        self.sameSite = sameSite
    }
}

/// `"attachment": {"filename": "report.csv", "file": "report.csv"}`.
public struct Attachment: Sendable, Hashable {
    public var filename: String
    public var body: ResponseBody
    public init(filename: String, body: ResponseBody) {
        self.filename = filename
        self.body = body
    }
}

/// moco's `seq` (the last response repeats) and `cycle` (round-robin).
public enum ResponseSequence: Sendable, Hashable {
    case seq([ResponseDefinition])
    case cycle([ResponseDefinition])

    public var responses: [ResponseDefinition] {
        switch self {
        case .seq(let responses), .cycle(let responses): responses
        }
    }
}
