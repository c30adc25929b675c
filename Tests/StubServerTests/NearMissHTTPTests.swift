import Foundation
import XCTest

@testable import StubServer

/// The issue's newcomer case over real HTTP: stub #0 `GET /users/octocat/repos` wants a query
/// and a header, #1 is `GET /users/nobody/repos`; `curl /users/octocat/repos` must be pointed
/// at #0 first and #1 second on the 400 page, in the log line, the journal and the admin API.
final class NearMissHTTPTests: XCTestCase {
    func testTheNewcomersMissPointsAtTheStubOfItsPathEverywhere() throws {
        let live = try LiveStubs(NearMissRankingTests.newcomerStubs)
        let miss = try live.send("GET", "/users/octocat/repos")
        XCTAssertEqual(miss.status, 400)
        XCTAssertEqual(
            miss.text,
            """
            No stub matched GET /users/octocat/repos

            Closest stub: stubs.json#0
              ✓ method: "GET"
              ✓ uri: "/users/octocat/repos"
              ✗ headers.Accept: expected "application/vnd.github+json", got nothing
              ✗ queries.type: expected "owner", got nothing

            2nd closest: stubs.json#1
              ✓ method: "GET"
              ✗ uri: expected "/users/nobody/repos", got "/users/octocat/repos"

            2 stubs with request conditions compared; the closest failed 2 of 4.

            """)

        let entry = try XCTUnwrap(live.server.journal.last)
        XCTAssertEqual(entry.nearMisses.map(\.stub.description), ["stubs.json#0", "stubs.json#1"])
        XCTAssertTrue(
            entry.description.hasPrefix(
                "GET /users/octocat/repos 400 no match (closest: stubs.json#0, headers.Accept missing, queries.type missing) "),
            entry.description)

        let listed = try JSONValue(parsing: try live.send("GET", "/__admin/requests").body)
        let request = try XCTUnwrap(listed["requests"]?.arrayValue?.last)
        XCTAssertEqual(request["nearMiss"]?["stub"], "stubs.json#0")
        XCTAssertEqual(request["nearMisses"]?.arrayValue?.map { $0["stub"]?.stringValue ?? "" }, ["stubs.json#0", "stubs.json#1"])
        XCTAssertEqual(
            request["nearMisses"]?.arrayValue?.last?["differences"], [#"uri: expected "/users/nobody/repos", got "/users/octocat/repos""#])
        let recorded = try XCTUnwrap(RecordedRequest(json: request))
        XCTAssertEqual(recorded.nearMisses.map(\.stub), ["stubs.json#0", "stubs.json#1"])
    }

    /// `haveReceived` ranks the journal the same way: the request of the right path without
    /// its query comes before one of another path that has everything else.
    func testVerifyingRanksARequestOfTheRightPathFirst() throws {
        let live = try LiveStubs(NearMissRankingTests.newcomerStubs)
        _ = try live.send("GET", "/users/nobody/repos?type=owner", headers: [("Accept", "application/vnd.github+json")])
        _ = try live.send("GET", "/users/octocat/repos")
        _ = try live.send("POST", "/users/octocat/repos?type=owner", headers: [("Accept", "application/vnd.github+json")])
        let report = try live.server.verifyReceived(
            .get("/users/octocat/repos").withQuery("type", "owner").withHeader("Accept", "application/vnd.github+json"), nearMisses: 3)
        XCTAssertEqual(report.matchCount, 0)
        XCTAssertEqual(
            report.nearMisses.map(\.request),
            [
                "GET /users/octocat/repos", "POST /users/octocat/repos?type=owner", "GET /users/nobody/repos?type=owner",
            ])
    }
}
