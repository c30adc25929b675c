import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
// Stubs are built with the same `StubDefinition` values as `StubServer(stubs:)`.
@_exported import StubServer

/// Drives a running `stubserver` through its admin API (`/__admin/`) from another process: an
/// XCUITest target, a test helper, a script. XCTest-free. Every call has the same name as the
/// embedded `StubServer`'s in-process operation.
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
    private let session: URLSession

    public init(baseURL: URL, token: String? = nil, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// A server on this machine: `StubServerClient(port: 12306)`.
    public convenience init(port: Int, host: String = "127.0.0.1", token: String? = nil, timeout: TimeInterval = 30) {
        let shown = host.contains(":") ? "[\(host)]" : host
        self.init(baseURL: URL(string: "http://\(shown):\(port)")!, token: token, timeout: timeout)
    }

    deinit { session.finishTasksAndInvalidate() }

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

    /// Adds stubs tried before the configuration's, newest first; returns their ids. Throws
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

    @discardableResult
    public func addStub(_ stub: StubDefinition) async throws -> String {
        try await addStubs([stub])[0]
    }

    /// Adds sessions written as moco JSON (one object or an array).
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
        try await call("POST", "requests/find", body: filter.mocoJSON)["requests"]?.arrayValue?.compactMap(RecordedRequest.init(json:)) ?? []
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

    private func request(_ method: String, _ path: String, body: String?) -> URLRequest {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + "/__admin/" + path)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    private func call(_ method: String, _ path: String, body: String? = nil) async throws -> JSONValue {
        let urlRequest = request(method, path, body: body)
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    continuation.resume(throwing: StubServerClientError(status: nil, message: "\(method) \(urlRequest.url!.absoluteString): \(error.localizedDescription)"))
                } else {
                    continuation.resume(returning: (data ?? Data(), response!))
                }
            }.resume()
        }
        return try Self.decode(data, response, method: method, url: urlRequest.url!)
    }

    /// The same call, waiting on this thread (for `haveReceived`, which is synchronous).
    private func callBlocking(_ method: String, _ path: String, body: String? = nil) throws -> JSONValue {
        let urlRequest = request(method, path, body: body)
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: urlRequest) { data, response, error in
            box.set(data, response, error)
            done.signal()
        }.resume()
        if done.wait(timeout: .now() + timeout + 5) == .timedOut {
            throw StubServerClientError(status: nil, message: "\(method) \(urlRequest.url!.absoluteString): no answer within \(Int(timeout)) s")
        }
        let (data, response, error) = box.get()
        if let error {
            throw StubServerClientError(status: nil, message: "\(method) \(urlRequest.url!.absoluteString): \(error.localizedDescription)")
        }
        return try Self.decode(data ?? Data(), response!, method: method, url: urlRequest.url!)
    }

    private static func decode(_ data: Data, _ response: URLResponse, method: String, url: URL) throws -> JSONValue {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let value = data.isEmpty ? JSONValue.null : ((try? JSONValue(parsing: [UInt8](data))) ?? .string(String(decoding: data, as: UTF8.self)))
        guard (200..<300).contains(status) else {
            let message = value["error"]?.stringValue ?? value.stringValue ?? "HTTP \(status)"
            let diagnostics = value["diagnostics"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
            throw StubServerClientError(status: status, message: "\(method) \(url.path): \(message)", diagnostics: diagnostics)
        }
        return value
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Data?, URLResponse?, Error?) = (nil, nil, nil)
        func set(_ data: Data?, _ response: URLResponse?, _ error: Error?) {
            lock.lock(); value = (data, response, error); lock.unlock()
        }
        func get() -> (Data?, URLResponse?, Error?) {
            lock.lock(); defer { lock.unlock() }
            return value
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
