import Foundation

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
            draft.headers.add(
                name: "Set-Cookie",
                value: SetCookieEncoder.encode(name: cookie.name, value: text, cookie: cookie, now: input?.now ?? Date()))
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
