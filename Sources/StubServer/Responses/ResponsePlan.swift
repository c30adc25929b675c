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
    /// The prepared reply of the file's trusted version, recalled without a cache lookup.
    private let preparedFileMemo = FileCache.Memo<PreparedFileReply>()
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
            file.name.isStatic, !file.rendersContent
        {
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
        FileCache.shared.remember(built, in: preparedFileMemo, from: file, absent: plan.workingDirectoryTarget)
        return HTTPReply(.prepared(built.response), delay: built.delay)
    }

    /// True when the reply is built at compile time.
    var isPrepared: Bool { prepared != nil }

    func reply(_ input: @autoclosure () -> TemplateContext) -> HTTPReply {
        if let prepared { return HTTPReply(.prepared(prepared), delay: preparedDelay) }
        if let (index, plan) = preparedFile {
            if let built = FileCache.shared.recall(preparedFileMemo) { return HTTPReply(.prepared(built.response), delay: built.delay) }
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
