import Foundation

/// The admin API on the server's own port, under `/__admin/` (WireMock's convention), JSON in
/// and out; its filters are moco request matcher objects. Every call answers at once with an
/// ordinary reply; none is journaled.
///
/// | call | answer |
/// |---|---|
/// | `GET /__admin/health` | `{"status":"ok","stubs":N}` |
/// | `GET /__admin/stubs` | `[{"id","source","session"}]` |
/// | `POST /__admin/stubs` (a session or an array) | 201 `{"ids":[…]}`; 400 with diagnostics |
/// | `DELETE /__admin/stubs/{id}` | 204; 404 |
/// | `POST /__admin/stubs/reset` | 204 |
/// | `GET /__admin/requests[?limit=N&offset=M&unmatched=true]` | `{"requests":[…],"total","offset","next"}` (`JournalPage`) |
/// | `POST /__admin/requests/count`, `…/find`, `…/verify` | `{"count"}`, `{"requests"}`, `{"count","total","nearMisses"}` |
/// | `DELETE /__admin/requests` | 204 |
/// | `GET /__admin/contract-violations` | `{"violations":[…],"checked":N}`; 409 without `--openapi` (`ContractViolationJSON`) |
/// | `GET /__admin/scenarios`, `PUT /__admin/scenarios/{name}`, `POST /__admin/scenarios/reset` | |
/// | `POST /__admin/reset`, `POST /__admin/shutdown` | 204, 202 |
final class AdminEndpoint: @unchecked Sendable {
    static let prefix = "/__admin"

    /// Set once the server is built; weak so the endpoint never keeps a stopped server alive.
    weak var server: StubServer?
    private let token: String?
    private let requestGuard: AdminRequestGuard

    init(token: String?, requestGuard: AdminRequestGuard) {
        self.token = token
        self.requestGuard = requestGuard
    }

    /// `/__admin`, `/__admin/…`, `/__admin?…`: compared as bytes, since every request asks.
    static func claims(_ request: HTTPRequest) -> Bool {
        let target = request.target.utf8
        guard target.starts(with: prefix.utf8) else { return false }
        guard let next = target.dropFirst(prefix.utf8.count).first else { return true }
        return next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
    }

    struct Failure: Error {
        var status: Int
        var message: String
        var diagnostics: [ConfigDiagnostic] = []
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        if let refusal = requestGuard.refusal(for: request) {
            return Self.error(Failure(status: refusal.status, message: refusal.message))
        }
        if let token, !authorized(request, token: token) && !Self.dashboardAccess(request, token: token) {
            var reply = Self.error(
                Failure(
                    status: 401,
                    message: "the admin API needs \"Authorization: Bearer TOKEN\" (the --admin-token the server was started with)"))
            if case .response(var response) = reply.payload {
                response.headers.add(name: "WWW-Authenticate", value: "Bearer realm=\"stubserver admin\"")
                reply = HTTPReply(.response(response))
            }
            return reply
        }
        guard let server else { return Self.error(Failure(status: 503, message: "the server is stopping")) }
        do {
            return try handle(request, server)
        } catch let failure as Failure {
            return Self.error(failure)
        } catch let error as ConfigError {
            return Self.error(Failure(status: 400, message: "the request body has problems", diagnostics: error.diagnostics))
        } catch let error as StubServerAdminError {
            return Self.error(Failure(status: 404, message: error.description))
        } catch {
            return Self.error(Failure(status: 500, message: "\(error)"))
        }
    }

    private func authorized(_ request: HTTPRequest, token: String) -> Bool {
        guard let header = request.headers["Authorization"] else { return false }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        return Self.same(parts[1].trimmingCharacters(in: .whitespaces), token)
    }

    /// The dashboard's page and assets hold no data and load without the token; its feed,
    /// opened by `EventSource` (which cannot send headers), may carry it as `?token=`.
    private static func dashboardAccess(_ request: HTTPRequest, token: String) -> Bool {
        let segments = segments(request)
        if DashboardEndpoint.isPublicAsset(segments) { return request.method == "GET" || request.method == "HEAD" }
        guard DashboardEndpoint.acceptsTokenInQuery(segments), let given = queryItems(request)["token"] else { return false }
        return same(given, token)
    }

    /// Compares every byte whatever the first difference, so timing says nothing about the token.
    private static func same(_ given: String, _ token: String) -> Bool {
        let given = Array(given.utf8)
        let wanted = Array(token.utf8)
        var difference = given.count == wanted.count ? 0 : 1
        for index in 0..<min(given.count, wanted.count) { difference |= Int(given[index] ^ wanted[index]) }
        return difference == 0
    }

    /// The decoded path segments after `/__admin`.
    private static func segments(_ request: HTTPRequest) -> [String] {
        String(request.rawPath.dropFirst(prefix.count)).split(separator: "/", omittingEmptySubsequences: true)
            .map { String($0).removingPercentEncoding ?? String($0) }
    }

    private func handle(_ request: HTTPRequest, _ server: StubServer) throws -> HTTPReply {
        let path = String(request.rawPath.dropFirst(Self.prefix.count))
        let segments = Self.segments(request)
        let method = request.method.uppercased()
        let query = Self.queryItems(request)
        if segments.first == "ui" {
            if let reply = DashboardEndpoint.respond(request, segments: segments, query: query, server: server) { return reply }
            throw Failure(status: 404, message: "no dashboard file at \(Self.prefix)\(path); the dashboard is \(Self.prefix)/ui")
        }
        switch (method, segments.first ?? "", segments.count) {
        case ("GET", "health", 1):
            return Self.json(["status": "ok", "stubs": .number(JSONNumber(server.stubCount))])
        case ("GET", "stubs", 1):
            return Self.json(.array(server.stubs().map { ["id": .string($0.id), "source": .string($0.source), "session": $0.session] }))
        case ("POST", "stubs", 1):
            let (root, bytes) = try Self.body(request)
            var decoder = StubDecoder(file: "request body", bytes: bytes)
            decoder.trimsText = false
            let workingDirectory = server.options.workingDirectory ?? FileManager.default.currentDirectoryPath
            let scope = StubScope(confinedTo: workingDirectory, workingDirectory: workingDirectory)
            let sessions = decoder.decodeAdminSessions(root, scope: scope)
            let problems =
                decoder.diagnostics
                + HeaderValueCheck.diagnostics(in: root, file: "request body", bytes: bytes, besides: decoder.diagnostics)
            guard problems.isEmpty else { throw ConfigError(problems) }
            let ids: [String]
            do {
                ids = try server.addStubs(sessions)
            } catch let error as ConfigError {
                throw ConfigError(error.diagnostics.map { Self.placed($0, root: root, bytes: bytes, single: root.members != nil) })
            }
            return Self.json(["ids": .array(ids.map(JSONValue.string))], status: 201)
        case ("POST", "stubs", 2) where segments[1] == "reset":
            server.resetStubs()
            return Self.noContent()
        case ("DELETE", "stubs", 2):
            try server.removeStub(id: segments[1])
            return Self.noContent()
        case ("GET", "requests", 1):
            let page = try JournalPage(query: query)
            let unmatched = query["unmatched"].map { $0 == "true" || $0 == "1" || $0.isEmpty } ?? false
            return Self.json(page.json(unmatched ? server.journal.unmatched : server.journal.entries))
        case ("DELETE", "requests", 1):
            server.clearRequests()
            return Self.noContent()
        case ("POST", "requests", 2) where ["count", "find", "verify"].contains(segments[1]):
            let (root, bytes) = try Self.body(request)
            let filter = try CompiledFilter(matcher: root, bytes: bytes, file: "request body")
            let entries = server.journal.entries
            switch segments[1] {
            case "count":
                return Self.json(["count": .number(JSONNumber(entries.filter { $0.rejection == nil && filter.matches($0.request) }.count))])
            case "find":
                let page = try JournalPage(query: query)
                return Self.json(page.json(entries.filter { $0.rejection == nil && filter.matches($0.request) }))
            default:
                let limit = query["nearMisses"].flatMap { Int($0) } ?? 3
                return Self.json(Self.reportJSON(filter.report(entries, nearMisses: min(max(limit, 0), 50))))
            }
        case ("GET", "contract-violations", 1):
            guard server.options.openAPI != nil else { throw Failure(status: 409, message: ContractCheckNotEnabled().description) }
            let violations = server.journal.entries.flatMap(\.contractViolations)
            return Self.json([
                "violations": .array(violations.map(ContractViolationJSON.json)), "checked": .number(JSONNumber(server.journal.count)),
            ])
        case ("GET", "scenarios", 1):
            return Self.json(["scenarios": .array(server.scenarios().map { ["name": .string($0.name), "state": .string($0.state)] })])
        case ("POST", "scenarios", 2) where segments[1] == "reset":
            server.resetScenarios()
            return Self.noContent()
        case ("PUT", "scenarios", 2):
            let (root, _) = try Self.body(request)
            guard let state = root.value["state"]?.stringValue, !state.isEmpty else {
                throw Failure(status: 400, message: "expected {\"state\": \"…\"}")
            }
            try server.setScenario(segments[1], state: state)
            return Self.noContent()
        case ("POST", "reset", 1):
            try server.reset()
            return Self.noContent()
        case ("POST", "shutdown", 1):
            var reply = Self.json(["status": "stopping"], status: 202)
            let action = server.options.onShutdownRequest
            let weakServer = WeakServer(server)
            reply.onSent = { _, _ in
                DispatchQueue.global().async {
                    if let action { action() } else { weakServer.server?.stop() }
                }
            }
            return reply
        default:
            let known = ["health", "stubs", "requests", "contract-violations", "scenarios", "reset", "shutdown", "ui"]
            if known.contains(segments.first ?? "") {
                throw Failure(
                    status: 405, message: "\(method) \(Self.prefix)\(path) is not an admin call; see docs/stub-server.md#admin-api")
            }
            throw Failure(
                status: 404,
                message: "no admin call at \(Self.prefix)\(path); calls: \(known.map { Self.prefix + "/" + $0 }.joined(separator: ", "))")
        }
    }

    static func reportJSON(_ report: ReceivedRequestsReport) -> JSONValue {
        [
            "count": .number(JSONNumber(report.matchCount)), "total": .number(JSONNumber(report.totalCount)),
            "nearMisses": .array(
                report.nearMisses.map {
                    [
                        "request": .string($0.request), "status": .number(JSONNumber($0.status)),
                        "differences": .array($0.differences.map(JSONValue.string)),
                    ]
                }),
        ]
    }

    /// A compile problem's position in the posted body (a single object's paths lose the `[0]`).
    private static func placed(_ diagnostic: ConfigDiagnostic, root: JSONNode, bytes: [UInt8], single: Bool) -> ConfigDiagnostic {
        var placed = diagnostic
        placed.file = "request body"
        if single, placed.path.hasPrefix("["), let close = placed.path.firstIndex(of: "]") {
            placed.path = String(placed.path[placed.path.index(after: close)...])
        }
        if placed.position == nil, let offset = root.offset(atPath: placed.path) {
            placed.position = SourcePosition.locate(offset: offset, in: bytes)
        }
        return placed
    }

    private static func body(_ request: HTTPRequest) throws -> (JSONNode, [UInt8]) {
        guard !request.body.isEmpty else { throw Failure(status: 400, message: "expected a JSON body") }
        do throws(JSONSyntaxError) {
            return (try JSONParser.parse(request.body), request.body)
        } catch {
            throw Failure(
                status: 400, message: "malformed JSON: \(error.message)",
                diagnostics: [
                    ConfigDiagnostic(file: "request body", path: "", message: "malformed JSON: \(error.message)", position: error.position)
                ])
        }
    }

    private static func queryItems(_ request: HTTPRequest) -> [String: String] {
        var items: [String: String] = [:]
        for pair in (request.rawQuery ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            items[name] = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
        }
        return items
    }

    static func json(_ value: JSONValue, status: Int = 200) -> HTTPReply {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        return HTTPReply(.response(HTTPResponse(status: status, headers: headers, body: Array(value.compactText.utf8))))
    }

    private static func noContent() -> HTTPReply {
        HTTPReply(.response(HTTPResponse(status: 204)))
    }

    /// `{"error": "…", "diagnostics": [{"file","path","message","line","column","text"}]}`
    static func error(_ failure: Failure) -> HTTPReply {
        var object: JSONObject = ["error": .string(failure.message)]
        if !failure.diagnostics.isEmpty {
            object.set(
                "diagnostics",
                .array(
                    failure.diagnostics.map { diagnostic in
                        var item: JSONObject = [
                            "file": .string(diagnostic.file), "path": .string(diagnostic.path), "message": .string(diagnostic.message),
                        ]
                        if let position = diagnostic.position {
                            item.set("line", .number(JSONNumber(position.line)))
                            item.set("column", .number(JSONNumber(position.column)))
                        }
                        item.set("text", .string(diagnostic.description))
                        return .object(item)
                    }))
        }
        return json(.object(object), status: failure.status)
    }
}

private final class WeakServer: @unchecked Sendable {
    weak var server: StubServer?
    init(_ server: StubServer) { self.server = server }
}
