import Foundation

/// Compiles the live parts of a session: `proxy`, `record`, `replay` (into a `ReplySource`) and
/// `on.complete` (into an `EventPlan`), resolving their files against the stub's file root.
enum UpstreamCompiler {
    static func compile(
        _ definition: StubDefinition, reference: StubReference, runtime: StubRuntime, problems: inout [StubCompileProblem]
    ) -> (source: ReplySource?, event: EventPlan?) {
        let scope = definition.scope
        for (offset, response) in scope.responses.enumerated() {
            if let key = liveKey(in: response) {
                problems.append(
                    StubCompileProblem(
                        path: "(settings response \(offset + 1)).\(key)",
                        message: "\"\(key)\" belongs in a session's response, not in a settings response"))
            }
        }
        var source: ReplySource?
        if let response = definition.response {
            for (offset, alternative) in (response.sequence?.responses ?? []).enumerated() {
                if let key = liveKey(in: alternative) {
                    problems.append(
                        StubCompileProblem(
                            path:
                                ".response.\(response.sequence.map { if case .seq = $0 { "seq" } else { "cycle" } } ?? "seq")[\(offset)].\(key)",
                            message: "\"\(key)\" cannot be one of the alternatives of seq or cycle"))
                }
            }
            source = compileSource(response, scope: scope, runtime: runtime, problems: &problems)
        }
        var event: EventPlan?
        if let definitionEvent = definition.onComplete {
            event = compileEvent(definitionEvent, reference: reference, runtime: runtime, problems: &problems)
        }
        return (source, event)
    }

    private static func liveKey(in response: ResponseDefinition) -> String? {
        if response.proxy != nil { return "proxy" }
        if response.record != nil { return "record" }
        if response.replay != nil { return "replay" }
        return nil
    }

    /// Where a tape or saved-exchange file lives: moco's rule (the working directory), keeping
    /// names next to the configuration working (`SavedFileLocation`), then confined to the
    /// stub's roots — these files are written back, so an absolute or climbing name could
    /// replace any file.
    private static func resolve(_ file: String, scope: StubScope) throws(StubCompileProblem) -> String {
        let located = SavedFileLocation.resolve(file, scope: scope).path
        switch PathConfinement.resolve(located, relativeTo: "/", in: PathConfinement(scope: scope)) {
        case .success(let path): return path
        case .failure(let failure):
            throw StubCompileProblem(path: "", message: failure.message + (located == file ? "" : " (\(quoted(file)) as written)"))
        }
    }

    private static func compileSource(
        _ response: ResponseDefinition, scope: StubScope, runtime: StubRuntime, problems: inout [StubCompileProblem]
    ) -> ReplySource? {
        if let proxy = response.proxy {
            let path = ".response.proxy"
            let target: ProxyPlan.Target
            switch proxy.target {
            case .url(let url):
                guard let plan = ResponseCompiler.textPlan(url, path: path + ".url", problems: &problems) else { return nil }
                target = .url(plan)
            case .batch(let from, let to):
                let context = StubCompiler.normalizedContext(scope.context)
                target = .batch(prefix: StubCompiler.join(context, StubDecoder.normalizedPrefix(from)), to: to)
            }
            var mode = ProxyPlan.Mode.plain
            do throws(StubCompileProblem) {
                if let failover = proxy.failover {
                    mode = .failover(
                        try runtime.savedExchanges(at: try resolve(failover.file, scope: scope)), statuses: Set(failover.statuses))
                } else if let playback = proxy.playback {
                    mode = .playback(try runtime.savedExchanges(at: try resolve(playback.file, scope: scope)))
                }
            } catch {
                problems.append(
                    StubCompileProblem(path: path + (proxy.failover != nil ? ".failover" : ".playback"), message: error.message))
                return nil
            }
            return .proxy(ProxyPlan(target: target, mode: mode, client: runtime.client))
        }
        if let record = response.record {
            guard
                let (group, identifier, tape) = slot(record, path: ".response.record", scope: scope, runtime: runtime, problems: &problems)
            else { return nil }
            return .record(RecordPlan(group: group, identifier: identifier, tape: tape, store: runtime.recordings))
        }
        if let replay = response.replay {
            let path = ".response.replay"
            guard let (group, identifier, tape) = slot(replay.record, path: path, scope: scope, runtime: runtime, problems: &problems)
            else { return nil }
            let modifier: ReplayPlan.Modifier
            switch replay.modifier {
            case nil:
                modifier = .template(.template(try! Template("${req.content}")))
            case .template(let value)?:
                guard let plan = ResponseCompiler.textPlan(value, path: path + ".modifier", problems: &problems) else { return nil }
                modifier = .template(plan)
            case .response(let definition)?:
                if let key = liveKey(in: definition) {
                    problems.append(StubCompileProblem(path: path + ".modifier." + key, message: "a replay modifier cannot use \"\(key)\""))
                    return nil
                }
                let before = problems.count
                let steps = ResponseCompiler.steps(for: definition, path: path + ".modifier", scope: scope, problems: &problems)
                guard problems.count == before else { return nil }
                modifier = .steps(steps)
            }
            return .replay(ReplayPlan(group: group, identifier: identifier, tape: tape, store: runtime.recordings, modifier: modifier))
        }
        return nil
    }

    private static func slot(
        _ record: RecordDefinition, path: String, scope: StubScope, runtime: StubRuntime, problems: inout [StubCompileProblem]
    ) -> (String, TextPlan, TapeFile?)? {
        let group = record.group ?? ""
        let identifierValue = record.identifier ?? .literal(record.group ?? "")
        guard let identifier = ResponseCompiler.textPlan(identifierValue, path: path + ".identifier", problems: &problems) else {
            return nil
        }
        var tape: TapeFile?
        if let file = record.tape {
            do throws(StubCompileProblem) {
                tape = try runtime.recordings.tape(at: try resolve(file, scope: scope))
            } catch {
                problems.append(StubCompileProblem(path: path + ".tape", message: error.message))
                return nil
            }
        }
        return (group, identifier, tape)
    }

    private static func compileEvent(
        _ event: EventDefinition, reference: StubReference, runtime: StubRuntime, problems: inout [StubCompileProblem]
    ) -> EventPlan? {
        let path = ".on.complete." + (event.method == .get ? "get" : "post")
        let before = problems.count
        let url = ResponseCompiler.textPlan(event.url, path: path + ".url", problems: &problems)
        var body: TextPlan?
        var contentType: String?
        if let content = event.content {
            body = ResponseCompiler.textPlan(content, path: path + ".content", problems: &problems)
        } else if let json = event.json {
            // A JSON string is sent raw, as a response's "json" is.
            body = .literal(json.stringValue ?? json.compactText)
            contentType = "application/json; charset=utf-8"
        }
        var headers: [(String, TextPlan)] = []
        for header in event.headers {
            if let plan = ResponseCompiler.textPlan(
                header.value, path: path + ".headers" + JSONPathText.key(header.name), problems: &problems)
            {
                headers.append((header.name, plan))
            }
        }
        if event.latency != nil && !event.async {
            problems.append(StubCompileProblem(path: ".on.complete.latency", message: "latency applies to async events only"))
        }
        guard problems.count == before, let url else { return nil }
        return EventPlan(
            method: event.method, url: url, body: body, contentType: contentType, headers: headers, async: event.async,
            latency: event.latency, client: runtime.client, owner: reference)
    }
}
