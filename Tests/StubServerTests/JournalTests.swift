import Foundation
import XCTest

@testable import StubServer

final class JournalTests: XCTestCase {
    private nonisolated static func request(_ method: String, _ target: String, body: String = "", headers: HTTPHeaders = [:])
        -> HTTPRequest
    {
        HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
    }

    private func request(_ method: String, _ target: String, body: String = "", headers: HTTPHeaders = [:]) -> HTTPRequest {
        Self.request(method, target, body: body, headers: headers)
    }

    func testRingBufferKeepsTheNewestEntriesUpToCapacity() {
        let journal = RequestJournal(capacity: 3)
        for index in 1...5 {
            journal.record(request: request("GET", "/\(index)"), stub: nil, status: 200, duration: .zero)
        }
        XCTAssertEqual(journal.count, 3)
        XCTAssertEqual(journal.entries.map(\.request.target), ["/3", "/4", "/5"])
        XCTAssertEqual(journal.entries.map(\.sequence), [3, 4, 5])
        XCTAssertEqual(journal.droppedCount, 2)
        XCTAssertEqual(journal.last?.request.target, "/5")
    }

    func testBodiesAreCutAtTheExcerptLimit() {
        let journal = RequestJournal(capacity: 10, bodyExcerptLimit: 4)
        let entry = journal.record(request: request("POST", "/upload", body: "0123456789"), stub: nil, status: 200, duration: .zero)
        XCTAssertEqual(entry.request.body, Array("0123".utf8))
        XCTAssertTrue(entry.bodyTruncated)
        XCTAssertEqual(entry.bodySize, 10)
    }

    func testQueriesByMethodPathAndFilter() {
        let journal = RequestJournal()
        let login = StubReference(file: "login.json", index: 0)
        journal.record(
            request: request(
                "POST", "/oauth/token", body: "grant_type=password&username=qa%40example.com",
                headers: ["Content-Type": "application/x-www-form-urlencoded"]),
            stub: login, status: 200, duration: .zero)
        journal.record(request: request("GET", "/api/v1/stories?client_id=abc&page=2"), stub: nil, status: 400, duration: .zero)
        journal.record(request: request("get", "/api/v1/stories%2Fextra"), stub: nil, status: 400, duration: .zero)

        XCTAssertEqual(journal.requests(method: "POST", path: "/oauth/token").count, 1)
        XCTAssertEqual(journal.requests(method: "get").count, 2, "methods compare case-insensitively")
        XCTAssertEqual(journal.requests(path: "/api/v1/stories").count, 1, "the query is not part of the path")
        XCTAssertEqual(journal.requests(path: "/api/v1/stories/extra").count, 1, "paths compare decoded")
        XCTAssertEqual(journal.count(matching: .post("/oauth/token")), 1)
        XCTAssertEqual(journal.count(matching: .post("/oauth/token").withFormField("username", "qa@example.com")), 1)
        XCTAssertEqual(journal.count(matching: .post("/oauth/token").withFormField("username", "other")), 0)
        XCTAssertEqual(journal.count(matching: .get("/api/v1/stories").withQuery("client_id", "abc")), 1)
        XCTAssertEqual(journal.count(matching: .get("/api/v1/stories").withQuery("missing")), 0)
        XCTAssertEqual(journal.count(matching: .any("/oauth/token").withHeader("content-type", "application/x-www-form-urlencoded")), 1)
        XCTAssertEqual(journal.count(matching: .all.withBody(containing: "grant_type")), 1)
        XCTAssertEqual(journal.count(matching: .get("/api/v1/stories?client_id=abc&page=2")), 1, "a path with ? compares the whole target")
        XCTAssertEqual(journal.count(matching: RequestFilter(mocoJSON: #"{"text": {"exist": true}}"#)), 1)
        XCTAssertEqual(journal.unmatched.count, 2)
        XCTAssertEqual(RequestFilter.post("/oauth/token").withQuery("a", "1").description, "POST /oauth/token with query a=1")
    }

    func testClearForgetsEntriesButSequenceKeepsCounting() {
        let journal = RequestJournal(capacity: 2)
        for _ in 0..<3 { journal.record(request: request("GET", "/"), stub: nil, status: 200, duration: .zero) }
        journal.clear()
        XCTAssertEqual(journal.count, 0)
        XCTAssertEqual(journal.droppedCount, 0)
        let next = journal.record(request: request("GET", "/after"), stub: nil, status: 200, duration: .zero)
        XCTAssertEqual(next.sequence, 4)
        XCTAssertEqual(journal.entries.map(\.request.target), ["/after"])
    }

    func testConcurrentRecordingAndReadingIsSafe() {
        let journal = RequestJournal(capacity: 500)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<1000 {
                if worker % 2 == 0 {
                    journal.record(request: Self.request("GET", "/\(worker)/\(index)"), stub: nil, status: 200, duration: .zero)
                } else {
                    _ = journal.requests(method: "GET").count
                }
            }
        }
        XCTAssertEqual(journal.count, 500)
        XCTAssertEqual(journal.droppedCount, 3500)
        XCTAssertEqual(Set(journal.entries.map(\.sequence)).count, 500)
    }

    func testLogLineNamesMethodPathStatusStubAndMilliseconds() {
        let journal = RequestJournal()
        let matched = journal.record(
            request: request("GET", "/api/v1/stories"), stub: StubReference(file: "Stubs/stories.json", index: 2),
            status: 200, duration: .microseconds(1500))
        XCTAssertEqual(matched.description, "GET /api/v1/stories 200 Stubs/stories.json#2 1.5ms")
        let missed = journal.record(request: request("DELETE", "/x"), stub: nil, status: 400, duration: .zero)
        XCTAssertEqual(missed.description, "DELETE /x 400 no match 0.0ms")
    }
}
