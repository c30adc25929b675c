import Foundation
@_exported import HTTPEngine
import Locking
// Stubs are built with the same `StubDefinition` values as `StubServer(stubs:)`, from the
// model alone: a target linking this client does not compile the moco engine (matching,
// serving). `import StubServerClient` gives the model, `RequestFilter` and the HTTP engine's
// public types (`UpstreamClient`, `HTTPHeaders`, …), as it did when it re-exported StubServer.
@_exported import StubModel
@_exported import StubVerification

/// Drives a running `stubserver` through its admin API (`/__admin/`) from another process: an
/// XCUITest target, a test helper, a script. XCTest-free. Every call has the same name as the
/// embedded `StubServer`'s in-process operation. Calls go through StubServer's own HTTP client
/// (`UpstreamClient`), so a process using this client does not load URLSession (on Linux,
/// FoundationNetworking and libcurl).
///
/// ```swift
/// let stubs = StubServerClient(port: 12306)
/// try await stubs.reset()
/// try await stubs.addStub(StubDefinition(
///     request: .get("/api/v1/stories", queries: ["client_id": .exist(true)]),
///     response: .json(["stories": [], "next_page": nil])))
/// // … drive the app …
/// let sent = try await stubs.countRequests(matching: .post("/oauth/token").withFormField("username", "qa@example.com"))
/// ```
public final class StubServerClient: @unchecked Sendable {
    /// `http://127.0.0.1:12306`
    public let baseURL: URL
    /// Sent as `Authorization: Bearer TOKEN` (the server's `--admin-token`).
    public let token: String?
    /// Seconds to wait for each answer.
    public let timeout: TimeInterval

    public init(baseURL: URL, token: String? = nil, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
    }

    /// A server on this machine: `StubServerClient(port: 12306)`.
    public convenience init(port: Int, host: String = "127.0.0.1", token: String? = nil, timeout: TimeInterval = 30) {
        let shown = host.contains(":") ? "[\(host)]" : host
        self.init(baseURL: URL(string: "http://\(shown):\(port)")!, token: token, timeout: timeout)
    }

    // MARK: Stubs

    /// Number of stubs served (added and from files).
    public func health() async throws -> Int {
        try await call("GET", "health")["stubs"]?.intValue ?? 0
    }

    /// Every stub in the order tried: added ones (newest first), then the configuration's.
    public func stubs() async throws -> [StubInfo] {
        try await call("GET", "stubs").arrayValue?.compactMap { item in
            guard let id = item["id"]?.stringValue, let source = item["source"]?.stringValue else { return nil }
            return StubInfo(id: id, source: source, session: item["session"] ?? .null)
        } ?? []
    }

    /// Adds stubs tried before the configuration's, newest first; returns one id per stub, in
    /// order (`["admin-1", "admin-2"]`), for ``removeStub(id:)``. Throws
    /// `StubEncodingError` (before sending anything) when a stub has a part moco JSON cannot express.
    @discardableResult
    public func addStubs(_ stubs: [StubDefinition]) async throws -> [String] {
        var sessions: [JSONValue] = []
        for (index, stub) in stubs.enumerated() {
            do { sessions.append(try stub.encodedMocoJSON()) } catch {
                throw StubEncodingError(path: "[\(index)]" + (error.path.isEmpty ? "" : "." + error.path), reason: error.reason)
            }
        }
        return try await addStubs(mocoJSON: JSONValue.array(sessions).compactText)
    }

    /// Adds one stub and returns its id, a single `String` such as `"admin-1"` (not a list: use
    /// ``addStubs(_:)`` for several): `let id = try await stubs.addStub(…); try await stubs.removeStub(id: id)`.
    @discardableResult
    public func addStub(_ stub: StubDefinition) async throws -> String {
        try await addStubs([stub])[0]
    }

    /// Adds sessions written as moco JSON (one object or an array); returns one id per session.
    @discardableResult
    public func addStubs(mocoJSON: String) async throws -> [String] {
        try await call("POST", "stubs", body: mocoJSON)["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    public func removeStub(id: String) async throws {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
        _ = try await call("DELETE", "stubs/" + escaped)
    }

    /// Drops every added stub.
    public func resetStubs() async throws {
        _ = try await call("POST", "stubs/reset")
    }

    // MARK: Journal

    /// Journal entries, oldest first (the last `limit`; only unmatched ones if asked).
    public func requests(limit: Int? = nil, unmatchedOnly: Bool = false) async throws -> [RecordedRequest] {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if unmatchedOnly { query.append("unmatched=true") }
        let path = "requests" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await call("GET", path)["requests"]?.arrayValue?.compactMap(RecordedRequest.init(json:)) ?? []
    }

    public func countRequests(matching filter: RequestFilter) async throws -> Int {
        try await call("POST", "requests/count", body: filter.mocoJSON)["count"]?.intValue ?? 0
    }

    public func findRequests(matching filter: RequestFilter) async throws -> [RecordedRequest] {
        try await call("POST", "requests/find", body: filter.mocoJSON)["requests"]?.arrayValue?.compactMap(RecordedRequest.init(json:))
            ?? []
    }

    /// Empties the journal.
    public func clearRequests() async throws {
        _ = try await call("DELETE", "requests")
    }

    // MARK: Scenarios

    public func scenarios() async throws -> [ScenarioState] {
        try await call("GET", "scenarios")["scenarios"]?.arrayValue?.compactMap { item in
            guard let name = item["name"]?.stringValue, let state = item["state"]?.stringValue else { return nil }
            return ScenarioState(name: name, state: state)
        } ?? []
    }

    public func setScenario(_ name: String, state: String) async throws {
        let escaped = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        _ = try await call("PUT", "scenarios/" + escaped, body: JSONValue.object(["state": .string(state)]).compactText)
    }

    public func resetScenarios() async throws {
        _ = try await call("POST", "scenarios/reset")
    }

    // MARK: Whole server

    /// Journal cleared, `seq`/`cycle` and scenarios back to the start, added stubs dropped.
    public func reset() async throws {
        _ = try await call("POST", "reset")
    }

    /// Stops the server gracefully.
    public func shutdown() async throws {
        _ = try await call("POST", "shutdown")
    }

    // MARK: Transport

    private func request(_ method: String, _ path: String, body: String?) throws -> UpstreamRequest {
        let url = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "application/json")
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        do {
            var request = try UpstreamRequest(
                method: method, url: url + "/__admin/" + path, headers: headers, body: Array((body ?? "").utf8))
            request.readTimeout = .milliseconds(Int((timeout * 1000).rounded()))
            return request
        } catch {
            throw StubServerClientError(status: nil, message: "\(method) \(url)/__admin/\(path): \(error)")
        }
    }

    private func call(_ method: String, _ path: String, body: String? = nil) async throws -> JSONValue {
        let upstreamRequest = try request(method, path, body: body)
        let result = await withCheckedContinuation { continuation in
            UpstreamClient.shared.send(upstreamRequest) { continuation.resume(returning: $0) }
        }
        return try Self.decode(result, method: method, path: path, url: upstreamRequest.url)
    }

    /// The same call, waiting on this thread (for `haveReceived`, which is synchronous).
    private func callBlocking(_ method: String, _ path: String, body: String? = nil) throws -> JSONValue {
        let upstreamRequest = try request(method, path, body: body)
        let box = Locked<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let call = UpstreamClient.shared.send(upstreamRequest) { result in
            box.set(result)
            done.signal()
        }
        if done.wait(timeout: .now() + timeout + 5) == .timedOut {
            call.cancel()
            throw StubServerClientError(status: nil, message: "\(method) \(upstreamRequest.url): no answer within \(Int(timeout)) s")
        }
        return try Self.decode(box.snapshot!, method: method, path: path, url: upstreamRequest.url)
    }

    private static func decode(_ result: Result<UpstreamResponse, UpstreamError>, method: String, path: String, url: String) throws
        -> JSONValue
    {
        let response: UpstreamResponse
        switch result {
        case .success(let answered): response = answered
        case .failure(let error): throw StubServerClientError(status: nil, message: "\(method) \(url): " + noAnswer(error))
        }
        let status = response.status
        let data = response.body
        let value = data.isEmpty ? JSONValue.null : ((try? JSONValue(parsing: data)) ?? .string(String(decoding: data, as: UTF8.self)))
        guard (200..<300).contains(status) else {
            let message = value["error"]?.stringValue ?? value.stringValue ?? "HTTP \(status)"
            let diagnostics = value["diagnostics"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
            let shownPath = "/__admin/" + (path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path)
            throw StubServerClientError(status: status, message: "\(method) \(shownPath): \(message)", diagnostics: diagnostics)
        }
        return value
    }

    /// Why the admin call got no answer, in the words of someone driving a stubserver: a refused
    /// connection means none is running there, and says how to start one.
    static func noAnswer(_ error: UpstreamError) -> String {
        switch error {
        case .refused(let endpoint):
            let port = endpoint.split(separator: ":").last.map(String.init) ?? "12306"
            return "no stubserver is answering on \(endpoint) (connection refused). Start one first: "
                + "`stubserver start -p \(port) -c Stubs/settings.json` (or `make stub` in a Rehearsal checkout), "
                + "or point the client at the port yours prints in `Server is started at PORT`"
        case .closed(let reason):
            return "the server closed the connection without answering (\(reason)); is a stubserver listening on that port, "
                + "and is its admin API on (not `--no-admin`)?"
        default:
            return error.description
        }
    }
}

extension StubServerClient: ReceivedRequestsVerifying {
    /// Asks the server (`POST /__admin/requests/verify`), waiting on this thread.
    public func verifyReceived(_ filter: RequestFilter, nearMisses: Int = 3) throws -> ReceivedRequestsReport {
        let value = try callBlocking("POST", "requests/verify?nearMisses=\(nearMisses)", body: filter.mocoJSON)
        return ReceivedRequestsReport(
            matchCount: value["count"]?.intValue ?? 0, totalCount: value["total"]?.intValue ?? 0,
            nearMisses: value["nearMisses"]?.arrayValue?.map { item in
                RequestNearMiss(
                    request: item["request"]?.stringValue ?? "", status: item["status"]?.intValue ?? 0,
                    differences: item["differences"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            } ?? [])
    }
}

extension StubServerClient: ContractViolationsReporting {
    /// Every contract violation in the server's journal (`GET /__admin/contract-violations`),
    /// oldest first, waiting on this thread. Throws when the server was started without `--openapi`.
    public func contractViolations() throws -> [ContractViolation] {
        let value = try callBlocking("GET", "contract-violations")
        return value["violations"]?.arrayValue?.compactMap { item in
            guard let method = item["method"]?.stringValue, let path = item["path"]?.stringValue,
                let side = item["side"]?.stringValue.flatMap(ContractViolation.Side.init(rawValue:))
            else { return nil }
            return ContractViolation(
                sequence: item["sequence"]?.intValue ?? 0, method: method, path: path, status: item["status"]?.intValue ?? 0,
                side: side, location: item["location"]?.stringValue ?? "", message: item["message"]?.stringValue ?? "")
        } ?? []
    }
}

/// An admin call that failed: no answer (`status` nil), or the server's error and diagnostics.
public struct StubServerClientError: Error, Sendable, CustomStringConvertible {
    public var status: Int?
    public var message: String
    /// For a rejected stub: every problem, as `stubserver validate` prints it.
    public var diagnostics: [String] = []

    public var description: String {
        ([message] + diagnostics.map { "  " + $0 }).joined(separator: "\n")
    }
}
