// Live responses: `sse`, `dribble`, `fault`.
extension StubDecoder {
    static let liveResponseKeys = ["sse", "dribble", "fault"]

    /// `sse`, `dribble` and `fault` in a response object.
    mutating func decodeLiveKeys(_ fields: Fields, into response: inout ResponseDefinition, node: JSONNode, at path: String) {
        let live = Self.liveResponseKeys.filter { fields[$0] != nil }
        if live.count > 1 {
            report(path, "use one of \(live.map { "\"\($0)\"" }.joined(separator: " and ")), not several", at: node.offset)
            return
        }
        let bodies = ["text", "file", "json", "attachment"].filter { fields[$0] != nil }
        if let sse = fields["sse"] {
            if !bodies.isEmpty {
                report(
                    path + ".sse", "server-sent events are the body; remove \(bodies.map { "\"\($0)\"" }.joined(separator: " and "))",
                    at: sse.offset)
            }
            response.sse = decodeSSE(sse, at: path + ".sse")
        }
        if let dribble = fields["dribble"] {
            response.dribble = decodeDribble(dribble, at: path + ".dribble")
        }
        if let fault = fields["fault"] {
            if !bodies.isEmpty || fields["seq"] != nil || fields["cycle"] != nil {
                report(
                    path + ".fault", "a fault sends no response; remove the body (status, headers and latency may stay)", at: fault.offset)
            }
            if let text = string(fault, at: path + ".fault") {
                if let known = ResponseFault(rawValue: text) {
                    response.fault = known
                } else {
                    let names = ResponseFault.allCases.map(\.rawValue)
                    report(
                        path + ".fault",
                        "unknown fault \(quoted(text))\(Suggestion.didYouMean(text, among: names)); faults: \(names.joined(separator: ", "))",
                        at: fault.offset)
                }
            }
        }
    }

    /// `[{event…}, …]`, `{"delay": …, "events": […]}` or `{"file": …, "delay": …}`.
    private mutating func decodeSSE(_ node: JSONNode, at path: String) -> ServerSentEvents? {
        if let elements = node.elements {
            return ServerSentEvents(events: decodeSSEEvents(elements, node: node, at: path))
        }
        guard
            let fields = members(
                node, at: path, allowed: ["events", "file", "delay"],
                what: "an array of events, {\"events\": […], \"delay\": …} or {\"file\": …}")
        else { return nil }
        var sse = ServerSentEvents()
        sse.delay = fields["delay"].flatMap { duration($0, at: path + ".delay") }
        switch (fields["events"], fields["file"]) {
        case (let events?, nil):
            if let elements = events.elements {
                sse.events = decodeSSEEvents(elements, node: events, at: path + ".events")
            } else {
                expected("an array of events", at: path + ".events", got: events)
            }
        case (nil, let file?):
            sse.file = textValue(file, at: path + ".file")
        case (.some, .some):
            report(path, "use either \"events\" or \"file\", not both", at: node.offset)
        case (nil, nil):
            report(path, "expected \"events\" (an array) or \"file\" (a file of events)", at: node.offset)
        }
        return sse
    }

    private mutating func decodeSSEEvents(_ elements: [JSONNode], node: JSONNode, at path: String) -> [SSEEvent] {
        if elements.isEmpty { report(path, "expected at least one event", at: node.offset) }
        var events: [SSEEvent] = []
        for (index, element) in elements.enumerated() {
            func eventPath() -> String { path + "[\(index)]" }
            guard
                let fields = members(
                    element, at: eventPath(), allowed: ["event", "data", "id", "retry", "delay"],
                    what: "an event object like {\"event\": \"tick\", \"data\": \"1\"}")
            else { continue }
            var event = SSEEvent(data: [])
            switch fields["data"]?.kind {
            case .array(let lines)?:
                for (offset, line) in lines.enumerated() {
                    if let text = scalarText(line, at: eventPath() + ".data[\(offset)]") { event.data.append(text) }
                }
                if lines.isEmpty { report(eventPath() + ".data", "expected at least one data line", at: fields["data"]?.offset) }
            case .some:
                if let text = scalarText(fields["data"]!, at: eventPath() + ".data") { event.data = [text] }
            case nil:
                report(eventPath(), "an event needs \"data\"", at: element.offset)
            }
            event.event = fields["event"].flatMap { string($0, at: eventPath() + ".event") }
            event.id = fields["id"].flatMap { scalarText($0, at: eventPath() + ".id") }
            if let retry = fields["retry"] {
                if let value = statusCode(retry, at: eventPath() + ".retry") {
                    if value > 0 {
                        event.retry = value
                    } else {
                        report(eventPath() + ".retry", "expected a positive number of milliseconds", at: retry.offset)
                    }
                }
            }
            event.delay = fields["delay"].flatMap { duration($0, at: eventPath() + ".delay") }
            for (key, value) in [("event", event.event), ("id", event.id)] + event.data.map({ ("data", Optional($0)) }) {
                if let value, value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                    report(
                        eventPath() + "." + key, "an event field cannot contain a line break; give data as an array of lines",
                        at: fields[key]?.offset)
                }
            }
            events.append(event)
        }
        return events
    }

    /// `{"chunks": 10, "duration": 2000}` or `{"bytes_per_second": 4096}`.
    private mutating func decodeDribble(_ node: JSONNode, at path: String) -> Dribble? {
        guard
            let fields = members(
                node, at: path, allowed: ["chunks", "duration", "bytes_per_second"],
                what: "{\"chunks\": 10, \"duration\": 2000} or {\"bytes_per_second\": 4096}")
        else { return nil }
        if let rate = fields["bytes_per_second"] {
            if fields["chunks"] != nil || fields["duration"] != nil {
                report(path, "use either \"bytes_per_second\" or \"chunks\" with \"duration\"", at: node.offset)
                return nil
            }
            guard let value = statusCode(rate, at: path + ".bytes_per_second") else { return nil }
            guard value > 0 else {
                report(path + ".bytes_per_second", "expected a positive number of bytes", at: rate.offset)
                return nil
            }
            return .bytesPerSecond(value)
        }
        guard let durationNode = fields["duration"] else {
            report(path, "expected \"duration\" (with an optional \"chunks\", default 10) or \"bytes_per_second\"", at: node.offset)
            return nil
        }
        var chunks = 10
        if let count = fields["chunks"] {
            guard let value = statusCode(count, at: path + ".chunks") else { return nil }
            guard value > 0 else {
                report(path + ".chunks", "expected at least 1 chunk", at: count.offset)
                return nil
            }
            chunks = value
        }
        return duration(durationNode, at: path + ".duration").map { .chunks(chunks, over: $0) }
    }
}
