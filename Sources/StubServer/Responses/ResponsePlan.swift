import Foundation

/// How one stub answers, compiled once. A response with no template, file, sequence or
/// expiring cookie is built and serialised at compile time (`.prepared`); the rest is built per
/// request by applying steps in moco's order (settings responses first, then the session's).
final class ResponsePlan: Sendable {
    private let prepared: PreparedResponse?
    private let preparedDelay: Duration
    /// The one step that reads a literal file when every other step is static.
    private let preparedFile: (index: Int, plan: FilePlan)?
    private let preparedFileSlot = FileCache.makeSlot()
    private let steps: [ResponseStep]
    /// The stub, named `file#index` in error bodies.
    let owner: StubReference
    /// A proxy or a recording the response starts from (see `LiveReplies`).
    let source: ReplySource?
    /// `on.complete`, fired once the response is ready.
    let event: EventPlan?

    /// The `cors` policy applied last (the session's over its settings'), for answering preflights.
    var corsPolicy: CORSPolicy? {
        for step in steps.reversed() {
            if case .cors(let policy) = step { return policy }
        }
        return nil
    }

    init(steps: [ResponseStep], owner: StubReference, source: ReplySource? = nil, event: EventPlan? = nil) {
        self.steps = steps
        self.owner = owner
        self.source = source
        self.event = event
        if source == nil && event == nil && steps.allSatisfy(\.isStatic) {
            var draft = ResponseDraft()
            var failure: ResponseFailure?
            for step in steps {
                do throws(ResponseFailure) {
                    try step.apply(to: &draft, input: nil)
                } catch {
                    failure = error
                }
            }
            if failure == nil {
                prepared = PreparedResponse(draft.response)
                preparedDelay = draft.delay
                preparedFile = nil
                return
            }
        }
        prepared = nil
        preparedDelay = .zero
        // The common `"file": "name.json"` (plus static status and headers): serialise once per
        // version of the file, so an unchanged file costs what a `text` costs plus an open.
        let dynamic = steps.indices.filter { !steps[$0].isStatic }
        if source == nil, event == nil, dynamic.count == 1, case .body(.file(let file)) = steps[dynamic[0]],
           file.name.isStatic, !file.rendersContent {
            preparedFile = (dynamic[0], file)
        } else {
            preparedFile = nil
        }
    }

    /// The reply of a response whose only non-static step is a literal file, as prepared for
    /// the file's current version; nil for a large file, which streams from its descriptor.
    private func preparedFileReply(index: Int, plan: FilePlan) throws(ResponseFailure) -> HTTPReply? {
        guard case .literal(let fileName) = plan.name else { throw ResponseFailure(message: "a file name template") }
        guard let file = try plan.readUnlessStreamed(named: fileName) else { return nil }
        let built = try FileCache.shared.derived(from: file, slot: preparedFileSlot, cost: 256) { bytes throws(ResponseFailure) in
            var draft = ResponseDraft()
            for (position, step) in steps.enumerated() {
                if position == index {
                    draft.setBody(bytes, contentType: ContentTypes.forFile(named: fileName, charset: plan.charset))
                } else {
                    try step.apply(to: &draft, input: nil)
                }
            }
            return PreparedFileReply(response: PreparedResponse(draft.response), delay: draft.delay)
        }
        return HTTPReply(.prepared(built.response), delay: built.delay)
    }

    /// True when the reply is built at compile time.
    var isPrepared: Bool { prepared != nil }

    func reply(_ input: @autoclosure () -> TemplateContext) -> HTTPReply {
        if let prepared { return HTTPReply(.prepared(prepared), delay: preparedDelay) }
        if let (index, plan) = preparedFile {
            do throws(ResponseFailure) {
                if let reply = try preparedFileReply(index: index, plan: plan) { return reply }
            } catch {
                return failure("could not build its response: \(error.message)")
            }
        }
        if source != nil || event != nil { return LiveReplies.reply(plan: self, context: input()) }
        return build(input(), seed: nil)
    }

    /// Applies the steps to `seed` (or an empty response). A proxied response keeps the
    /// upstream's status (moco applies `status` before `proxy`).
    func build(_ context: TemplateContext, seed: ResponseDraft?, upstreamSetsStatus: Bool = false) -> HTTPReply {
        var draft = seed ?? ResponseDraft()
        do throws(ResponseFailure) {
            for step in steps {
                if upstreamSetsStatus, case .status = step { continue }
                try step.apply(to: &draft, input: context)
            }
            if let live = draft.live { return try live.reply(draft, input: context) }
        } catch {
            return failure("could not build its response: \(error.message)")
        }
        if let file = draft.streamedFile { return file.reply(head: draft.response, delay: draft.delay) }
        if let upstream = draft.upstreamBody {
            return upstream.stream.reply(head: draft.response, contentLength: upstream.length, delay: draft.delay)
        }
        return HTTPReply(.response(draft.response), delay: draft.delay)
    }

    /// A plain-text error reply naming this stub.
    func failure(_ message: String, status: Int = 400) -> HTTPReply {
        var reply = Self.failureReply("stubserver: \(owner) \(message)\n")
        if case .response(var response) = reply.payload {
            response.status = status
            reply.payload = .response(response)
        }
        return reply
    }

    static func failureReply(_ message: String) -> HTTPReply {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: ContentTypes.text)
        return HTTPReply(.response(HTTPResponse(status: 400, headers: headers, body: Array(message.utf8))))
    }
}

/// A prepared response for one version of a file, kept in that file's cache entry.
private struct PreparedFileReply: Sendable {
    var response: PreparedResponse
    var delay: Duration
}

/// Why a response could not be built for a request (a template error, a missing file…).
struct ResponseFailure: Error, Sendable {
    var message: String
}

/// The response being assembled.
struct ResponseDraft {
    var status = 200
    var version: HTTPVersion?
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// The current `Content-Type` was added by a body, not written by the user.
    var contentTypeIsDefault = false
    var delay: Duration = .zero
    /// Streamed, fault or websocket: the draft becomes that kind of reply.
    var live: LivePlan?
    /// A large file sent from its descriptor instead of `body`.
    var streamedFile: StreamedFileBody?
    /// A proxied body handed on as the upstream sends it (its length when the upstream said).
    var upstreamBody: (stream: UpstreamBodyStream, length: Int?)?

    mutating func setBody(_ bytes: [UInt8], contentType: String) {
        body = bytes
        streamedFile = nil
        upstreamBody?.stream.cancel()
        upstreamBody = nil
        if contentTypeIsDefault {
            headers.remove(name: "Content-Type")
            contentTypeIsDefault = false
        }
        if !headers.contains("Content-Type") {
            headers.add(name: "Content-Type", value: contentType)
            contentTypeIsDefault = true
        }
    }

    var response: HTTPResponse {
        HTTPResponse(status: status, version: version, headers: headers, body: body)
    }
}

/// A string in a response: fixed, or a template rendered per request.
enum TextPlan: Sendable {
    case literal(String)
    case template(Template)

    init(_ value: TextValue) throws(TemplateSyntaxError) {
        switch value {
        case .literal(let text): self = .literal(text)
        case .template(let source, let vars):
            let template = try Template(source, variables: vars)
            // A template of constant `vars` only is a literal: it names the same file for
            // every request, so it may fall back to the working directory like other names.
            self = template.constantRendering.map(TextPlan.literal) ?? .template(template)
        }
    }

    var isStatic: Bool { if case .literal = self { true } else { false } }

    func render(_ input: TemplateContext?) throws(ResponseFailure) -> String {
        switch self {
        case .literal(let text): return text
        case .template(let template):
            guard let input else { throw ResponseFailure(message: "a template needs a request") }
            do throws(TemplateRenderError) {
                return try template.render(input)
            } catch {
                throw ResponseFailure(message: "template \(quoted(template.source)): \(error.message)")
            }
        }
    }
}

/// Where a response body comes from.
enum BodyPlan: Sendable {
    case bytes([UInt8], contentType: String)
    case template(Template, contentType: String)
    case file(FilePlan)
    /// A `mount`: the file for the request's path.
    case mount(MountPoint)

    var isStatic: Bool { if case .bytes = self { true } else { false } }

    /// Sets the draft's body; a large file served as it is streams from its descriptor.
    func apply(to draft: inout ResponseDraft, input: TemplateContext?) throws(ResponseFailure) {
        if case .file(let file) = self, let (streamed, contentType) = try file.openStreamed(input) {
            draft.setBody([], contentType: contentType)
            draft.streamedFile = streamed
            return
        }
        let (bytes, contentType) = try produce(input)
        draft.setBody(bytes, contentType: contentType)
    }

    func produce(_ input: TemplateContext?) throws(ResponseFailure) -> (bytes: [UInt8], contentType: String) {
        switch self {
        case .bytes(let bytes, let contentType):
            return (bytes, contentType)
        case .template(let template, let contentType):
            return (Array(try TextPlan.template(template).render(input).utf8), contentType)
        case .file(let file):
            return try file.produce(input)
        case .mount(let mount):
            guard let input else { throw ResponseFailure(message: "a mount needs a request") }
            return try mount.read(input.view.path)
        }
    }
}

/// A response `file`: opened per request (so edits show up), confined to its root, its bytes
/// and parsed template kept in `FileCache` while the file is unchanged.
struct FilePlan: Sendable {
    var name: TextPlan
    var charset: String?
    var rendersContent: Bool
    var vars: TemplateVariables
    var root: String
    /// Only literal names fall back to the working directory (moco's rule); names built from
    /// the request never do.
    var fallback: String?
    /// Where this plan's parsed template lives in the cache entry of its file.
    let templateSlot = FileCache.makeSlot()
    /// A literal name checked and split once, under the root and the working directory (nil when
    /// the name is built per request, or when the check failed: then it fails per request,
    /// with its message).
    private let literalTargets: (ConfinedFiles.Target, ConfinedFiles.Target?)?

    init(name: TextPlan, charset: String?, rendersContent: Bool, vars: TemplateVariables, root: String, fallback: String?) {
        self.name = name
        self.charset = charset
        self.rendersContent = rendersContent
        self.vars = vars
        self.root = root
        self.fallback = fallback
        if case .literal(let text) = name, let primary = try? ConfinedFiles.Target(text, root: root) {
            let second = fallback.flatMap { $0 == root ? nil : try? ConfinedFiles.Target(text, root: $0) }
            literalTargets = (primary, second)
        } else {
            literalTargets = nil
        }
    }

    /// The file's current bytes, fresh and confined.
    func read(named fileName: String) throws(ResponseFailure) -> FileCache.File {
        let result: Result<FileCache.File, ConfinedFiles.Failure>
        if let (primary, workingDirectory) = literalTargets, primary.name == fileName {
            // moco's rule: a file in the working directory wins (see `ConfinedFiles.locate`).
            if let workingDirectory, case .success(let file) = FileCache.shared.read(workingDirectory) {
                result = .success(file)
            } else {
                result = FileCache.shared.read(primary)
            }
        } else {
            result = FileCache.shared.read(fileName, root: root, fallback: name.isStatic ? fallback : nil)
        }
        switch result {
        case .success(let file): return file
        case .failure(let failure): throw ResponseFailure(message: failure.message)
        }
    }

    /// The file's bytes, or nil without reading them when it is large enough to stream
    /// (`StreamedFileBody.threshold`).
    func readUnlessStreamed(named fileName: String) throws(ResponseFailure) -> FileCache.File? {
        let limit = StreamedFileBody.threshold
        if let (primary, workingDirectory) = literalTargets, primary.name == fileName {
            if let workingDirectory, case .success(let file) = FileCache.shared.read(workingDirectory, below: limit) {
                return file
            }
            switch FileCache.shared.read(primary, below: limit) {
            case .success(let file): return file
            case .failure(let failure): throw ResponseFailure(message: failure.message)
            }
        }
        let file = try read(named: fileName)
        return file.bytes.count >= limit ? nil : file
    }

    /// The file opened for streaming when it is served as it is and large; nil to read it whole.
    func openStreamed(_ input: TemplateContext?) throws(ResponseFailure) -> (StreamedFileBody, contentType: String)? {
        guard !rendersContent else { return nil }
        let fileName = try name.render(input)
        // Opened as every served file is (confined, non-blocking, regular files only): a
        // path-then-open here once let a FIFO block the event loop.
        var opened = ConfinedFiles.open(fileName, root: root, realRoot: nil)
        if case .failure(let failure) = opened, failure.isNotFound, name.isStatic, let fallback, fallback != root {
            let second = ConfinedFiles.open(fileName, root: fallback, realRoot: nil)
            if case .success = second { opened = second }
        }
        guard case .success(let file) = opened, let streamed = StreamedFileBody.take(file) else { return nil }
        return (streamed, ContentTypes.forFile(named: fileName, charset: charset))
    }

    func produce(_ input: TemplateContext?) throws(ResponseFailure) -> (bytes: [UInt8], contentType: String) {
        let fileName = try name.render(input)
        let file = try read(named: fileName)
        let contentType = ContentTypes.forFile(named: fileName, charset: charset)
        guard rendersContent else { return (file.bytes, contentType) }
        let template: Template
        do throws(TemplateSyntaxError) {
            template = try FileCache.shared.derived(from: file, slot: templateSlot, cost: file.bytes.count * 2) { bytes throws(TemplateSyntaxError) in
                try Template(TextDecoding.decode(bytes, charset: charset), variables: vars)
            }
        } catch {
            throw ResponseFailure(message: "the template in \(quoted(fileName)): \(error.description)")
        }
        return (Array(try TextPlan.template(template).render(input).utf8), contentType)
    }
}

/// Per-stub `seq`/`cycle` position, shared by every event-loop thread.
final class SequenceCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var served = 0
    let count: Int
    let cycles: Bool

    init(count: Int, cycles: Bool) {
        self.count = count
        self.cycles = cycles
    }

    /// The index of the response for the next request.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let index = cycles ? served % count : min(served, count - 1)
        if cycles || served < count { served &+= 1 }
        return index
    }
}

/// One compiled step of a response, applied in moco's key order.
enum ResponseStep: Sendable {
    case body(BodyPlan)
    case status(Int)
    case header(String, TextPlan)
    case cookie(ResponseCookie, TextPlan)
    case latency(Duration)
    case version(TextPlan)
    case attachment(filename: String, BodyPlan)
    case sequence(SequenceCounter, [[ResponseStep]])
    /// `cors`: depends on the request's `Origin` and method.
    case cors(CORSPolicy)
    case live(LivePlan)

    var isStatic: Bool {
        switch self {
        case .body(let body): body.isStatic
        case .status, .latency: true
        case .header(_, let value), .version(let value): value.isStatic
        case .cookie(let cookie, let value): value.isStatic && cookie.maxAge == nil
        case .attachment(_, let body): body.isStatic
        case .sequence, .cors, .live: false
        }
    }

    func apply(to draft: inout ResponseDraft, input: TemplateContext?) throws(ResponseFailure) {
        switch self {
        case .body(let body):
            try body.apply(to: &draft, input: input)
        case .status(let status):
            draft.status = status
        case .header(let name, let value):
            let text = try value.render(input)
            if let problem = HeaderValueCheck.problem(in: text) {
                throw ResponseFailure(message: "the header \(name) would contain \(problem)")
            }
            draft.headers.replaceOrAdd(name: name, value: text)
            if HTTPHeaders.sameName(name, "Content-Type") { draft.contentTypeIsDefault = false }
        case .cookie(let cookie, let value):
            let text = try value.render(input)
            if let problem = SetCookieEncoder.problem(value: text) { throw ResponseFailure(message: problem) }
            draft.headers.add(name: "Set-Cookie", value: SetCookieEncoder.encode(name: cookie.name, value: text, cookie: cookie, now: input?.now ?? Date()))
        case .latency(let duration):
            draft.delay += duration
        case .version(let value):
            let text = try value.render(input)
            guard let version = HTTPVersion(text), version == .http1_0 || version == .http1_1 else {
                throw ResponseFailure(message: "the response version must be HTTP/1.0 or HTTP/1.1, got \(quoted(text))")
            }
            draft.version = version
        case .attachment(let filename, let body):
            draft.headers.replaceOrAdd(name: "Content-Disposition", value: "attachment; filename=\(filename)")
            try body.apply(to: &draft, input: input)
        case .sequence(let counter, let alternatives):
            for step in alternatives[counter.next()] { try step.apply(to: &draft, input: input) }
        case .cors(let policy):
            guard let input else { return }
            CORSHeaders.apply(policy, method: input.view.method, headers: input.view.request.headers, to: &draft.headers)
        case .live(let plan):
            draft.live = plan
        }
    }
}

/// Decodes file content for templates with the file's declared charset.
enum TextDecoding {
    static func decode(_ bytes: [UInt8], charset: String?) -> String {
        switch charset?.lowercased() {
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        case "utf-16", "utf-16be", "utf-16le":
            let encoding: String.Encoding = charset?.lowercased() == "utf-16le" ? .utf16LittleEndian : (charset?.lowercased() == "utf-16be" ? .utf16BigEndian : .utf16)
            return String(data: Data(bytes), encoding: encoding) ?? String(decoding: bytes, as: UTF8.self)
        default:
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
