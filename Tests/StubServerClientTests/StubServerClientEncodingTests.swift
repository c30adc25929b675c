import Foundation
// The embedded server the client talks to in some tests (an app linking the client has only the client).
import StubServer
import StubServerClient
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs with the newer keys posted through `StubServerClient` to an embedded server on port 0:
/// listed by `GET /__admin/stubs` as posted, and answering as configured over HTTP.
final class StubServerClientEncodingTests: XCTestCase {
    private func send(_ url: URL, method: String = "GET", headers: [String: String] = [:]) async throws -> (HTTPURLResponse, String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error); return }
                guard let response = response as? HTTPURLResponse else {
                    continuation.resume(throwing: URLError(.badServerResponse)); return
                }
                continuation.resume(returning: (response, String(decoding: data ?? Data(), as: UTF8.self)))
            }.resume()
        }
    }

    func testPostedCORSSSEAndOtherNewKeysAreListedAndAnswerAsConfigured() async throws {
        let server = try StubServer(stubs: [])
        try server.start()
        defer { server.stop() }
        let client = StubServerClient(port: server.port)

        let cors = CORSPolicy(
            allowOrigin: "https://app.example", allowMethods: ["GET", "PUT"], allowHeaders: ["X-Token"], maxAge: .seconds(600))
        let faulty = StubDefinition(request: .get("/broken"), response: .fault(.emptyResponse))
        let stubs: [StubDefinition] = [
            // No method: the preflight is an OPTIONS request to the same uri.
            StubDefinition(
                request: RequestPattern(uri: .equal("/app")), response: ResponseDefinition(body: .text("app"), cors: cors),
                description: "cors"),
            StubDefinition(
                request: .get("/events"), response: .sse([SSEEvent(event: "tick", data: ["1"], id: "1"), SSEEvent(data: ["a", "b"])])),
            StubDefinition(
                request: .get("/slow"), response: ResponseDefinition.text("abcdef").dribble(.chunks(2, over: .milliseconds(20)))),
            faulty.inScenario("s", next: "Broken"),
        ]
        let ids = try await client.addStubs(stubs)
        XCTAssertEqual(ids.count, 4)

        // The listing holds exactly what was posted (added stubs are listed newest first).
        let listed = try await client.stubs()
        XCTAssertEqual(listed.map(\.session.compactText).reversed(), try stubs.map { try $0.encodedMocoJSON().compactText })
        XCTAssertEqual(listed.last?.session["response"]?["cors"]?["maxAge"], .number(JSONNumber(600_000)))
        XCTAssertEqual(listed.first?.session["scenario"]?["next"], .string("Broken"))

        let (preflight, _) = try await send(
            server.baseURL.appendingPathComponent("app"), method: "OPTIONS",
            headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "PUT"])
        XCTAssertEqual(preflight.statusCode, 200)
        XCTAssertEqual(preflight.value(forHTTPHeaderField: "Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(preflight.value(forHTTPHeaderField: "Access-Control-Allow-Methods"), "GET,PUT")
        XCTAssertEqual(preflight.value(forHTTPHeaderField: "Access-Control-Allow-Headers"), "X-Token")
        XCTAssertEqual(preflight.value(forHTTPHeaderField: "Access-Control-Max-Age"), "600")

        let (events, body) = try await send(server.baseURL.appendingPathComponent("events"))
        XCTAssertEqual(events.value(forHTTPHeaderField: "Content-Type"), "text/event-stream")
        XCTAssertEqual(body, "id: 1\nevent: tick\ndata: 1\n\ndata: a\ndata: b\n\n")

        let (_, slow) = try await send(server.baseURL.appendingPathComponent("slow"))
        XCTAssertEqual(slow, "abcdef")
    }

    func testAStubMocoJSONCannotHoldIsRefusedBeforeAnythingIsSent() async throws {
        let server = try StubServer(stubs: [])
        try server.start()
        defer { server.stop() }
        let client = StubServerClient(port: server.port)
        var both = ResponseDefinition()
        both.proxy = ProxyDefinition(
            url: "http://127.0.0.1:9/", failover: SavedExchanges(file: "a.json"), playback: SavedExchanges(file: "b.json"))
        do {
            try await client.addStubs([
                StubDefinition(request: .get("/ok"), response: .text("ok")), StubDefinition(request: .get("/x"), response: both),
            ])
            XCTFail("expected StubEncodingError")
        } catch let error as StubEncodingError {
            XCTAssertEqual(error.path, "[1].response.proxy")
            XCTAssertEqual(error.description, "[1].response.proxy: a proxy has \"failover\" or \"playback\", not both")
        }
        let listed = try await client.stubs()
        XCTAssertEqual(listed.count, 0, "nothing was posted")
    }
}
