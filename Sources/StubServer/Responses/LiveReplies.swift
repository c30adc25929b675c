import Foundation
import Locking

/// Where a response comes from when it is not built from the stub alone: a live upstream
/// (`proxy`) or a recording (`record` / `replay`).
enum ReplySource: Sendable {
    case proxy(ProxyPlan)
    case record(RecordPlan)
    case replay(ReplayPlan)
}

/// A compiled `proxy`.
struct ProxyPlan: Sendable {
    enum Target: Sendable {
        case url(TextPlan)
        /// `prefix` is `from` with the settings context in front.
        case batch(prefix: String, to: String)
    }

    enum Mode: Sendable {
        case plain
        case failover(SavedExchangeFile, statuses: Set<Int>)
        case playback(SavedExchangeFile)
    }

    var target: Target
    var mode: Mode
    var client: UpstreamClient

    /// The upstream request for `request`: same method, headers and body; the query string is
    /// carried over. The client drops `Host`, `Content-Length` and hop-by-hop fields itself.
    func upstreamRequest(for request: HTTPRequest, context: TemplateContext) throws(ResponseFailure) -> UpstreamRequest {
        var url: String
        switch target {
        case .url(let plan):
            url = try plan.render(context)
            if let query = request.rawQuery, !query.isEmpty {
                url += (url.contains("?") ? "&" : "?") + query
            }
        case .batch(let prefix, let to):
            let path = request.rawPath
            guard prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/") else {
                throw ResponseFailure(message: "\(quoted(String(path))) is not under the proxy's \"from\" \(quoted(prefix))")
            }
            var base = to
            while base.hasSuffix("/") { base.removeLast() }
            url = base + path.dropFirst(prefix.count)
            if let query = request.rawQuery { url += "?" + query }
        }
        do throws(UpstreamError) {
            return try UpstreamRequest(method: request.method, url: url, headers: request.headers, body: request.body)
        } catch {
            throw ResponseFailure(message: error.description)
        }
    }
}

/// A compiled `record`.
struct RecordPlan: Sendable {
    var group: String
    var identifier: TextPlan
    var tape: TapeFile?
    var store: RecordingStore
}

/// A compiled `replay`.
struct ReplayPlan: Sendable {
    enum Modifier: Sendable {
        case template(TextPlan)
        case steps([ResponseStep])
    }

    var group: String
    var identifier: TextPlan
    var tape: TapeFile?
    var store: RecordingStore
    var modifier: Modifier
}

/// A compiled `on.complete` event.
struct EventPlan: Sendable {
    var method: EventDefinition.Method
    var url: TextPlan
    var body: TextPlan?
    var contentType: String?
    var headers: [(String, TextPlan)]
    var async: Bool
    var latency: Duration?
    var client: UpstreamClient
    var owner: StubReference
    /// A synchronous event holds the client's answer: a sink that never answers must not hold
    /// it for the client's full read timeout.
    static let readTimeout: Duration = .seconds(5)

    func request(_ context: TemplateContext) throws(ResponseFailure) -> UpstreamRequest {
        let url = try self.url.render(context)
        var fields = HTTPHeaders()
        if let contentType { fields.add(name: "Content-Type", value: contentType) }
        for (name, value) in headers { fields.replaceOrAdd(name: name, value: try value.render(context)) }
        var body: [UInt8] = []
        if let plan = self.body { body = Array(try plan.render(context).utf8) }
        do throws(UpstreamError) {
            var request = try UpstreamRequest(method: method.rawValue, url: url, headers: fields, body: body)
            request.readTimeout = Self.readTimeout
            return request
        } catch {
            throw ResponseFailure(message: error.description)
        }
    }
}

/// Builds replies for plans with a live source or an event: the upstream call and the event
/// run on the upstream client's loop, the reply is a deferred one fulfilled from there, and
/// the server's event loop never waits.
enum LiveReplies {
    static func reply(plan: ResponsePlan, context: TemplateContext) -> HTTPReply {
        let reply: HTTPReply
        switch plan.source {
        case nil:
            reply = plan.build(context, seed: nil)
        case .record(let record):
            do throws(ResponseFailure) {
                let identifier = try record.identifier.render(context)
                record.store.record(context.view.request, group: record.group, identifier: identifier, tape: record.tape)
            } catch {
                return plan.failure("could not record: \(error.message)")
            }
            var seed = ResponseDraft()
            seed.setBody([], contentType: ContentTypes.text)
            reply = plan.build(context, seed: seed)
        case .replay(let replay):
            reply = replayed(replay, plan: plan, context: context)
        case .proxy(let proxy):
            return proxied(proxy, plan: plan, context: context)
        }
        return withEvent(plan.event, after: reply, context: context)
    }

    private static func replayed(_ replay: ReplayPlan, plan: ResponsePlan, context: TemplateContext) -> HTTPReply {
        let identifier: String
        do throws(ResponseFailure) {
            identifier = try replay.identifier.render(context)
        } catch {
            return plan.failure(error.message)
        }
        guard let recorded = replay.store.recorded(group: replay.group, identifier: identifier, tape: replay.tape) else {
            return plan.failure("has nothing recorded in group \(quoted(replay.group)) for identifier \(quoted(identifier))")
        }
        // The modifier reads the recorded request (moco), the rest of the response the current one.
        let recordedContext = TemplateContext(view: RequestView(recorded), pathVariables: nil, now: context.now)
        var seed = ResponseDraft()
        do throws(ResponseFailure) {
            switch replay.modifier {
            case .template(let template):
                seed.setBody(Array(try template.render(recordedContext).utf8), contentType: ContentTypes.text)
            case .steps(let steps):
                for step in steps { try step.apply(to: &seed, input: recordedContext) }
            }
        } catch {
            return plan.failure("replaying \(quoted(identifier)): \(error.message)")
        }
        return plan.build(context, seed: seed)
    }

    private static func proxied(_ proxy: ProxyPlan, plan: ResponsePlan, context: TemplateContext) -> HTTPReply {
        let request = context.view.request
        let upstreamRequest: UpstreamRequest
        // A plain proxy relays the body as it arrives (server-sent events, large downloads).
        let relayed = UpstreamBodyStream.relays(proxy, event: plan.event, method: request.method) ? UpstreamBodyStream() : nil
        do throws(ResponseFailure) {
            var built = try proxy.upstreamRequest(for: request, context: context)
            built.bodyStream = relayed
            upstreamRequest = built
        } catch {
            return plan.failure(error.message)
        }
        let pathVariables = context.pathVariables
        let now = context.now
        let promise = HTTPReplyPromise()
        // Runs on the upstream loop: rebuild a template context there (a RequestView belongs to
        // one thread), finish the response, fire the event, then fulfil.
        let finish: @Sendable (UpstreamResponse?, String?, Int) -> Void = { response, problem, status in
            let context = TemplateContext(view: RequestView(request), pathVariables: pathVariables, now: now)
            let reply: HTTPReply
            if let response {
                var seed = ResponseDraft()
                seed.status = response.status
                for field in response.headers where !HTTPHeaders.sameName(field.name, "Date") && !HTTPHeaders.sameName(field.name, "Server")
                {
                    seed.headers.add(name: field.name, value: field.value)
                }
                if let relayed, relayed.isAttached, !(100..<200).contains(response.status), response.status != 204, response.status != 304 {
                    seed.upstreamBody = (relayed, UpstreamBodyStream.announcedLength(response))
                } else {
                    seed.body = response.body
                }
                reply = plan.build(context, seed: seed, upstreamSetsStatus: true)
                // An answer that does not carry the relayed body (a step failed) lets it go.
                if case .streamed = reply.payload {} else { relayed?.cancel() }
            } else {
                reply = plan.failure("could not get an answer from its upstream: \(problem ?? "unknown error")", status: status)
            }
            let final = withEvent(plan.event, after: reply, context: context)
            if case .deferred(let inner) = final.payload {
                inner.whenReady { promise.fulfill($0) }
            } else {
                promise.fulfill(final)
            }
        }
        if case .playback(let file) = proxy.mode, let saved = file.response(for: request) {
            finish(saved, nil, 0)
            return HTTPReply(.deferred(promise))
        }
        let call = proxy.client.send(upstreamRequest) { result in
            switch (result, proxy.mode) {
            case (.failure(.cancelled), _):
                return
            case (.success(let response), .plain):
                finish(response, nil, 0)
            case (.success(let response), .playback(let file)):
                file.save(request: request, response: response)
                finish(response, nil, 0)
            case (.success(let response), .failover(let file, let statuses)):
                if statuses.contains(response.status) {
                    // Sane where moco answers 400: with nothing saved, pass the upstream's own answer on.
                    finish(file.response(for: request) ?? response, nil, 0)
                } else {
                    file.save(request: request, response: response)
                    finish(response, nil, 0)
                }
            case (.failure(let error), .failover(let file, _)):
                if let saved = file.response(for: request) {
                    finish(saved, nil, 0)
                } else {
                    finish(nil, "\(error) (and nothing saved in \(file.path) for this request)", error.gatewayStatus)
                }
            case (.failure(let error), _):
                finish(nil, "\(proxy.describe(upstreamRequest)): \(error)", error.gatewayStatus)
            }
        }
        promise.onCancel { call.cancel() }
        return HTTPReply(.deferred(promise))
    }

    /// `reply` preceded by its event: a synchronous event holds the reply until the sink has
    /// answered (or failed: an unreachable sink is logged, never the client's problem).
    static func withEvent(_ event: EventPlan?, after reply: HTTPReply, context: TemplateContext) -> HTTPReply {
        guard let event else { return reply }
        let request: UpstreamRequest
        do throws(ResponseFailure) {
            request = try event.request(context)
        } catch {
            EventLog.warn("stubserver: \(event.owner) could not build its on.complete event: \(error.message)")
            return reply
        }
        let owner = event.owner
        let report: @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void = { result in
            if case .failure(let error) = result, error != .cancelled {
                EventLog.warn("stubserver: \(owner) on.complete \(request.method) \(request.url) failed: \(error)")
            }
        }
        if event.async {
            // moco needs a latency with async (it crashes without one); here async alone fires at once.
            if let latency = event.latency, latency > .zero {
                let client = event.client
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(latency.nanoseconds))) {
                    client.send(request, completion: report)
                }
            } else {
                event.client.send(request, completion: report)
            }
            return reply
        }
        let promise = HTTPReplyPromise()
        let answered = Locked(false)
        let call = event.client.send(request) { result in
            answered.set(true)
            report(result)
            promise.fulfill(reply)
        }
        promise.onCancel { call.cancel() }
        // The read timeout starts once the sink has the request; behind a silent sink, calls
        // first queue for its connections (32 per upstream), so 300 of them would wait for
        // rounds of 5 s. The client's answer gets its own deadline from the moment it fired.
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(EventPlan.readTimeout.nanoseconds))) {
            guard !answered.snapshot else { return }
            call.cancel()
            EventLog.warn(
                "stubserver: \(owner) on.complete \(request.method) \(request.url) failed: no answer within \(EventPlan.readTimeout); the client was answered"
            )
            promise.fulfill(reply)
        }
        return HTTPReply(.deferred(promise))
    }
}

extension ProxyPlan {
    func describe(_ request: UpstreamRequest) -> String { "\(request.method) \(request.url)" }
}

extension HTTPReplyPromise {
    /// Hands the reply on once fulfilled (used to chain an event after a proxied answer).
    func whenReady(_ body: @escaping @Sendable (HTTPReply) -> Void) { whenFulfilled(body) }
}

/// Where event failures are reported: standard error, one line each.
enum EventLog {
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
