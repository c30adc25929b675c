import Foundation
import XCTest

@testable import StubServer

/// A `match` regex gets a bounded number of backtracking steps per request, so a catastrophic
/// pattern costs its own request a "no match" instead of freezing an event loop.
final class MatchingRegexBudgetTests: XCTestCase {
    /// 2^64 backtracking paths without a budget: this would never finish.
    private let evilURI = "/" + String(repeating: "a", count: 64) + "!"

    func testACatastrophicPatternGivesUpAsNoMatch() throws {
        let regex = try CompiledRegex("/(a+)+$")
        let result = regex.matchesWhole(evilURI, budget: CompiledRegex.stepBudget(forLength: evilURI.utf16.count))
        XCTAssertFalse(result.matched)
        XCTAssertTrue(result.exhausted, "the budget, not the input, ended the search")
        XCTAssertTrue(regex.matchesWhole("/" + String(repeating: "a", count: 64)), "matching input still matches at once")
        XCTAssertFalse(
            try CompiledRegex("/items/[0-9]+").matchesWhole(String(repeating: "/items/1", count: 500)),
            "an ordinary miss is not a budget case")
        XCTAssertFalse(try CompiledRegex("/items/[0-9]+").matchesWhole(String(repeating: "/items/1", count: 500), budget: 1).exhausted)
        let body = String(repeating: "{\"x\":1}", count: 150_000) + "needle" + String(repeating: "y", count: 100_000)
        XCTAssertTrue(try CompiledRegex(".*needle.*").matchesWhole(body), "the budget grows with the input: a megabyte body still matches")
    }

    func testOtherRequestsAreAnsweredWhileACatastrophicPatternRuns() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json",
            """
            [
              {"request": {"uri": {"match": "/(a+)+$"}}, "response": {"text": "all a"}},
              {"request": {"uri": "/ok"}, "response": {"text": "ok"}}
            ]
            """)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 1 // one loop: anything that holds it delays every client
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }

        let evil = try RawHTTPClient(port: server.port)
        try evil.send("GET \(evilURI) HTTP/1.1\r\nHost: x\r\n\r\n")
        let started = Date()
        let ok = try RawHTTPClient.exchange(port: server.port, "GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let waited = Date().timeIntervalSince(started)
        XCTAssertEqual(ok.text, "ok")
        // Generous for a loaded machine: the budget is milliseconds, the unbounded search years.
        XCTAssertLessThan(waited, 3, "the loop was held by the regex")
        XCTAssertEqual(try evil.readResponse().status, 400, "the catastrophic request is answered: no match")
        let matching = try RawHTTPClient.exchange(
            port: server.port, "GET /\(String(repeating: "a", count: 64)) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(matching.text, "all a")
    }
}
