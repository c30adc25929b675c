/// Compiles the response keys that make a reply other than one complete response: `sse`,
/// `dribble`, `fault` and a websocket session's endpoint.
extension ResponseCompiler {
    static func liveSteps(
        for response: ResponseDefinition, path: String, scope: StubScope, problems: inout [StubCompileProblem]
    ) -> [ResponseStep] {
        let kinds = [
            ("sse", response.sse != nil), ("dribble", response.dribble != nil), ("fault", response.fault != nil),
            ("websocket", response.websocket != nil),
        ].filter(\.1).map(\.0)
        guard !kinds.isEmpty else { return [] }
        if kinds.count > 1 {
            problems.append(
                StubCompileProblem(path: path, message: "use one of \(kinds.map { "\"\($0)\"" }.joined(separator: " and ")), not several"))
            return []
        }
        let hasBody = response.body != nil || response.attachment != nil
        if let sse = response.sse {
            if hasBody {
                problems.append(
                    StubCompileProblem(
                        path: path + ".sse", message: "server-sent events are the body; remove text, file, json or attachment"))
            }
            if sse.events.isEmpty && sse.file == nil {
                problems.append(StubCompileProblem(path: path + ".sse", message: "expected at least one event (or a file of events)"))
            }
            for (index, event) in sse.events.enumerated() where event.data.isEmpty {
                problems.append(StubCompileProblem(path: path + ".sse[\(index)]", message: "an event needs data"))
            }
            for (index, event) in sse.events.enumerated() {
                let fields = [event.event, event.id].compactMap { $0 } + event.data
                if fields.contains(where: { $0.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) }) {
                    problems.append(
                        StubCompileProblem(
                            path: path + ".sse[\(index)]", message: "event fields cannot contain line breaks (use one data line each)"))
                }
            }
            let file = sse.file.flatMap { textPlan($0, path: path + ".sse.file", problems: &problems) }
            return [
                .live(.sse(SSEPlan(events: sse.events, file: file, root: scope.fileRoot, fallback: scope.fallbackRoot, delay: sse.delay)))
            ]
        }
        if let dribble = response.dribble {
            switch dribble {
            case .chunks(let count, let duration):
                if count < 1 {
                    problems.append(StubCompileProblem(path: path + ".dribble.chunks", message: "expected at least 1 chunk, got \(count)"))
                }
                if duration < .zero {
                    problems.append(StubCompileProblem(path: path + ".dribble.duration", message: "a duration cannot be negative"))
                }
            case .bytesPerSecond(let rate):
                if rate < 1 {
                    problems.append(
                        StubCompileProblem(
                            path: path + ".dribble.bytes_per_second", message: "expected at least 1 byte per second, got \(rate)"))
                }
            }
            return [.live(.dribble(dribble))]
        }
        if let fault = response.fault {
            if hasBody || response.sequence != nil {
                problems.append(
                    StubCompileProblem(
                        path: path + ".fault", message: "a fault sends no response; remove the body (status, headers and latency may stay)")
                )
            }
            return [.live(.fault(fault))]
        }
        if let endpoint = response.websocket {
            return [
                .live(
                    .websocket(WebSocketPlan(endpoint, root: scope.fileRoot, fallback: scope.fallbackRoot, path: path, problems: &problems))
                )
            ]
        }
        return []
    }
}
