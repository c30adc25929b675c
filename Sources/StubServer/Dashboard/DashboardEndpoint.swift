import Foundation

/// The dashboard under `/__admin/ui`: a page, its stylesheet and script (static, served from
/// `DashboardAssets`, the same bytes offline), a live feed of server-sent events and a state
/// snapshot. It is part of the admin API, so it answers only where the admin API does
/// (loopback by default); with an admin token the page and its assets load freely (they hold
/// no data) and the feed and state need the token (`/__admin/ui?token=…` hands it to the page).
///
/// | path | answer |
/// |---|---|
/// | `GET /__admin/ui` | the page |
/// | `GET /__admin/ui/dashboard.css`, `…/dashboard.js` | its assets |
/// | `GET /__admin/ui/events` | `text/event-stream`: the last requests, then every new one as it is answered (`request`), `reload`, `stubs`, `scenarios`, `reset` |
/// | `GET /__admin/ui/state` | `{"files":[{"file","stubs":[{"id","index","description","request","hits"}]}],"scenarios","reload","contract"}` |
enum DashboardEndpoint {
    /// Requests replayed to a new feed (older ones are in the admin API's listing).
    static let replayedRequests = 200

    /// The page and its assets: the same for everyone, no data in them.
    static func isPublicAsset(_ segments: [String]) -> Bool {
        segments.first == "ui"
            && (segments.count == 1
                || (segments.count == 2 && (segments[1] == "favicon.ico" || DashboardAssets.file(named: segments[1]) != nil)))
    }

    /// The feed is opened by `EventSource`, which cannot send an `Authorization` header.
    static func acceptsTokenInQuery(_ segments: [String]) -> Bool {
        segments == ["ui", "events"]
    }

    static func respond(_ request: HTTPRequest, segments: [String], query: [String: String], server: StubServer) -> HTTPReply? {
        guard request.method == "GET" || request.method == "HEAD", segments.first == "ui" else { return nil }
        switch segments.count == 1 ? "" : segments[1] {
        case "" where segments.count == 1:
            return asset(DashboardAssets.page, type: "text/html; charset=utf-8")
        case "events" where segments.count == 2:
            return events(server, after: request.headers["Last-Event-ID"].flatMap { Int($0) })
        case "state" where segments.count == 2:
            return AdminEndpoint.json(state(server))
        case "favicon.ico" where segments.count == 2:
            // Its own icon, so the browser's icon request is not logged as traffic.
            return HTTPReply(.prepared(Favicon.prepared))
        default:
            guard segments.count == 2, let file = DashboardAssets.file(named: segments[1]) else { return nil }
            return asset(file.text, type: file.type)
        }
    }

    private static func asset(_ text: String, type: String) -> HTTPReply {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        // Nothing from elsewhere, no inline script, never framed by another page.
        headers.add(
            name: "Content-Security-Policy",
            value:
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        )
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        return HTTPReply(.response(HTTPResponse(status: 200, headers: headers, body: Array(text.utf8))))
    }

    /// The feed: requests after `lastSeen` (or the last few), then live events.
    private static func events(_ server: StubServer, after lastSeen: Int?) -> HTTPReply {
        let replay = {
            var entries = server.journal.entries
            if let lastSeen { entries.removeAll { $0.sequence <= lastSeen } }
            var bytes: [UInt8] = []
            for entry in entries.suffix(replayedRequests) { bytes += requestMessage(entry) }
            return bytes
        }
        guard let stream = server.dashboardFeed.subscribe(replaying: replay) else {
            return AdminEndpoint.error(
                AdminEndpoint.Failure(
                    status: 503, message: "\(DashboardFeed.maximumSubscribers) dashboards are open already; close one"))
        }
        return HTTPReply(.streamed(stream))
    }

    /// A `request` event: the entry as the admin API lists it (with its contract violations).
    static func requestMessage(_ entry: JournalEntry) -> [UInt8] {
        DashboardFeed.message(event: "request", id: entry.sequence, data: ContractViolationJSON.entry(entry).compactText)
    }

    static func state(_ server: StubServer) -> JSONValue {
        let hits = server.stubHits.byID
        var files: [(file: String, stubs: [JSONValue])] = []
        for stub in server.stubs() {
            let (file, index) = split(stub.id)
            var item: JSONObject = [
                "id": .string(stub.id), "index": index.map { .number(JSONNumber($0)) } ?? .null,
                "hits": .number(JSONNumber(hits[stub.id] ?? 0)),
            ]
            item.set("description", stub.session["description"] ?? .null)
            item.set("request", stub.session["request"] ?? .null)
            item.set("response", stub.session["response"].map(summary) ?? .null)
            if let last = files.indices.last, files[last].file == file {
                files[last].stubs.append(.object(item))
            } else {
                files.append((file, [.object(item)]))
            }
        }
        var object: JSONObject = [
            "files": .array(files.map { ["file": .string($0.file), "stubs": .array($0.stubs)] }),
            "scenarios": .array(server.scenarios().map { ["name": .string($0.name), "state": .string($0.state)] }),
            "port": .number(JSONNumber(server.port)),
            "version": .string(StubServer.version),
        ]
        object.set("reload", server.lastReload?.json ?? .null)
        // The OpenAPI document requests are checked against (`start --openapi`), or null.
        object.set("contract", server.options.openAPI.map { .string($0.name) } ?? .null)
        return .object(object)
    }

    /// `Stubs/login_conf.json#0` → (`Stubs/login_conf.json`, 0); `admin-3` → (`admin`, 3).
    private static func split(_ id: String) -> (String, Int?) {
        if let hash = id.lastIndex(of: "#") { return (String(id[..<hash]), Int(id[id.index(after: hash)...])) }
        if id.hasPrefix("admin-") { return (StubReference.addedFile, Int(id.dropFirst("admin-".count))) }
        return (id, nil)
    }

    /// What a stub answers, in a few words: `200 json`, `302 redirect`, `proxy`.
    private static func summary(_ response: JSONValue) -> JSONValue {
        guard let members = response.objectValue else { return .null }
        let status = response["status"]?.intValue
        let kinds = members.map(\.key).filter { !["status", "headers", "cookies", "latency", "version"].contains($0) }
        let text = ([status.map(String.init)] + [kinds.first]).compactMap { $0 }.joined(separator: " ")
        return .string(text)
    }
}
