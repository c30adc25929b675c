import Foundation
import XCTest

@testable import StubServer

/// Which stub a miss is pointed at: fewest failed conditions first, then how far off each is.
final class NearMissRankingTests: XCTestCase {
    private func closest(_ router: Router, _ method: String, _ target: String, headers: [(String, String)] = []) -> String? {
        let request = HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers))
        return router.route(request).nearMiss?.stub.description
    }

    /// `curl 127.0.0.1:12306/api/v1/stories` against `make stub`: the general stories stub,
    /// which only lacks a `client_id`, not the `qa-empty` world written first.
    func testTheSampleStoriesRequestPointsAtTheGeneralStoriesStub() throws {
        let router = try ConfigLoader.load(config: "Stubs/settings.json", workingDirectory: ConfigLoaderTests.repositoryRoot).router
        let result = router.route(HTTPRequest(method: "GET", target: "/api/v1/stories"))
        XCTAssertEqual(result.nearMiss?.stub.description, "Stubs/stories_conf.json#0")
        XCTAssertEqual(result.nearMiss?.briefDifferences, ["queries.client_id missing"])
        let body = String(
            decoding: { if case .response(let r) = result.reply.payload { return r.body } else { return [] } }(), as: UTF8.self)
        XCTAssertTrue(body.contains("Closest stub: Stubs/stories_conf.json#0 (the front page of stories)"), body)
    }

    /// `GET /users/abc`: the stub written for exactly that path is the one meant, even though
    /// it fails three conditions and the `/users/\d+` stub only its path.
    func testAnExactPathBeatsAStubFailingFewerConditionsOnAnotherPath() throws {
        let router = try ConfigFixture().router(
            #"""
            [
              {"request": {"method": "POST", "uri": "/users/abc", "headers": {"X-Admin": "yes"}, "queries": {"force": "true"}}, "response": {"text": "admin"}},
              {"request": {"method": "GET", "uri": {"match": "/users/\\d+"}}, "response": {"text": "user"}}
            ]
            """#)
        let result = router.route(HTTPRequest(method: "GET", target: "/users/abc"))
        XCTAssertEqual(result.nearMisses.map(\.stub.description), ["stubs.json#0", "stubs.json#1"])
    }

    /// The issue's newcomer case: the right path without its query and header is about #0, not
    /// about the stub of another user that fails only its path.
    func testTheNewcomersRequestPointsAtTheStubOfItsPathFirst() throws {
        let router = try ConfigFixture().router(Self.newcomerStubs)
        let result = router.route(HTTPRequest(method: "GET", target: "/users/octocat/repos"))
        XCTAssertEqual(result.nearMisses.map(\.stub.description), ["stubs.json#0", "stubs.json#1"])
        XCTAssertEqual(result.nearMiss?.briefDifferences, ["headers.Accept missing", "queries.type missing"])
    }

    /// The method comes right after the path: among stubs of the right path, one of the right
    /// method beats one that fails nothing else.
    func testTheMethodComesRightAfterThePath() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"method": "POST", "uri": "/orders"}, "response": {"text": "a"}},
              {"request": {"method": "GET", "uri": "/orders", "queries": {"a": "1", "b": "2"}}, "response": {"text": "b"}},
              {"request": {"method": "GET", "uri": "/elsewhere"}, "response": {"text": "c"}},
              {"request": {"method": "GET", "uri": "/more"}, "response": {"text": "d"}}
            ]
            """)
        let result = router.route(HTTPRequest(method: "GET", target: "/orders"))
        XCTAssertEqual(result.nearMisses.map(\.stub.description), ["stubs.json#1", "stubs.json#0", "stubs.json#2"])
    }

    static let newcomerStubs = """
        [
          {"request": {"method": "GET", "uri": "/users/octocat/repos", "queries": {"type": "owner"},
                       "headers": {"Accept": "application/vnd.github+json"}},
           "response": {"json": [{"name": "Hello-World"}]}},
          {"request": {"method": "GET", "uri": "/users/nobody/repos"}, "response": {"json": []}}
        ]
        """

    func testAWrongPathOutweighsAWrongHeader() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"method": "GET", "uri": "/orders/1"}, "response": {"text": "a"}},
              {"request": {"method": "GET", "uri": "/orders", "headers": {"Accept": "application/json"}}, "response": {"text": "b"}}
            ]
            """)
        XCTAssertEqual(closest(router, "GET", "/orders", headers: [("Accept", "text/html")]), "stubs.json#1")
    }

    func testAQueryThatDiffersIsCloserThanOneThatIsMissing() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"uri": "/s", "queries": {"page": "1"}}, "response": {"text": "a"}},
              {"request": {"uri": "/s", "queries": {"sort": "new"}}, "response": {"text": "b"}}
            ]
            """)
        XCTAssertEqual(closest(router, "GET", "/s?sort=old"), "stubs.json#1")
        XCTAssertEqual(closest(router, "GET", "/s?page=2"), "stubs.json#0")
    }

    func testPathsSharingMoreLeadingSegmentsAreCloser() throws {
        XCTAssertEqual(NearMissRanking.sharedSegments("/api/v1/stories", "/api/v1/storis").common, 2)
        XCTAssertEqual(NearMissRanking.sharedSegments("/a/b", "/a/b").common, 2)
        XCTAssertEqual(NearMissRanking.sharedSegments("/a", "/a/b").common, 1)
        XCTAssertEqual(NearMissRanking.sharedSegments("/ab", "/a").common, 0)
        XCTAssertEqual(NearMissRanking.sharedSegments("/ab", "/a/c").longest, 2)
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"uri": "/api/v2/users"}, "response": {"text": "a"}},
              {"request": {"uri": "/api/v1/stories"}, "response": {"text": "b"}}
            ]
            """)
        XCTAssertEqual(closest(router, "GET", "/api/v1/storis"), "stubs.json#1")
    }

    func testTheLogLineCarriesTheNearMissInOneLine() throws {
        let live = try LiveStubs(
            #"[{"request": {"method": "GET", "uri": "/x", "queries": {"client_id": {"exist": "true"}}}, "response": {"text": "x"}}]"#)
        _ = try live.send("GET", "/x")
        let entry = try XCTUnwrap(live.server.journal.last)
        XCTAssertEqual(entry.nearMiss?.stub.description, "stubs.json#0")
        XCTAssertEqual(entry.nearMiss?.differences, [#"queries.client_id: expected present, got nothing"#])
        XCTAssertTrue(
            entry.description.hasPrefix("GET /x 400 no match (closest: stubs.json#0, queries.client_id missing) "), entry.description)
    }

    func testTwoIncludesOfOneFileNameTheirStubsApart() throws {
        let fixture = try ConfigFixture()
        try fixture.write("settings.json", #"[{"include": "api.json", "context": "/v1"}, {"include": "api.json", "context": "/v2"}]"#)
        try fixture.write("api.json", #"[{"request": {"uri": "/ping"}, "response": {"text": "pong"}}]"#)
        let router = try fixture.load("settings.json").router
        XCTAssertEqual(router.references.map(\.description), ["api.json#0", "api.json(2)#0"])
        XCTAssertEqual(router.stub(matching: HTTPRequest(method: "GET", target: "/v2/ping"))?.description, "api.json(2)#0")
    }

    /// Random stub sets and requests: a stub whose path condition is the request's exact path
    /// is never ranked below one whose path does not match; the three reported are the head of
    /// the whole ranking, in order.
    func testAStubOfTheExactPathIsNeverRankedBelowOneOfAnotherPath() throws {
        var random = RoutingSeededRandom(seed: 10)
        let paths = ["/a", "/a/b", "/b", "/users/1", "/users/abc"]
        let names = ["x", "y", "z"]
        let values = ["1", "2"]
        var misses = 0
        var comparisons = 0
        for round in 0..<300 {
            var stubs: [StubDefinition] = []
            for _ in 0..<Int.random(in: 1...10, using: &random) {
                var pattern = RequestPattern()
                if Bool.random(using: &random) { pattern.method = .equal(["GET", "POST"].randomElement(using: &random)!) }
                switch Int.random(in: 0..<4, using: &random) {
                case 0, 1: pattern.uri = .equal(paths.randomElement(using: &random)!)
                case 2: pattern.uri = .match("/users/\\d+")
                default: pattern.uri = .startsWith("/a")
                }
                for name in names where Int.random(in: 0..<2, using: &random) == 0 {
                    pattern.queries.append(name, Bool.random(using: &random) ? .exist(true) : .equal(values.randomElement(using: &random)!))
                }
                for name in names where Int.random(in: 0..<3, using: &random) == 0 {
                    pattern.headers.append("X-" + name, .equal(values.randomElement(using: &random)!))
                }
                stubs.append(StubDefinition(request: pattern, response: .text("r")))
            }
            let router = try Router(stubs: stubs)
            let path = paths.randomElement(using: &random)!
            var target = path
            let query = names.filter { _ in Bool.random(using: &random) }.map { "\($0)=\(values.randomElement(using: &random)!)" }
            if !query.isEmpty { target += "?" + query.joined(separator: "&") }
            let headers = names.filter { _ in Bool.random(using: &random) }.map { ("X-" + $0, values.randomElement(using: &random)!) }
            let request = HTTPRequest(method: Bool.random(using: &random) ? "GET" : "POST", target: target, headers: HTTPHeaders(headers))
            let result = router.route(request)
            guard result.stub == nil else { continue } // it matched
            misses += 1
            let view = RequestView(request)
            let ranking = NearMissRanking.closest(view, among: router.compiledStubs, then: [], count: Int.max)
            XCTAssertEqual(result.nearMisses.map(\.stub), Array(ranking.prefix(3)).map(\.stub.reference), "round \(round)")
            func exactPath(_ stub: CompiledStub) -> Bool {
                stubs[stub.reference.index].request?.uri == .equal(path)
            }
            func pathFails(_ stub: CompiledStub) -> Bool {
                stub.conditions.contains { $0.aspect == .path && !$0.matches(view) }
            }
            for (rank, candidate) in ranking.enumerated() where exactPath(candidate.stub) {
                for below in ranking[..<rank] where pathFails(below.stub) {
                    comparisons += 1
                    XCTFail(
                        "round \(round): \(below.stub.reference) (another path) ranked above \(candidate.stub.reference) (the exact path \(path))"
                    )
                }
                comparisons += ranking[(rank + 1)...].filter { pathFails($0.stub) }.count
            }
        }
        XCTAssertGreaterThan(misses, 150, "most rounds must miss for the check to mean something")
        XCTAssertGreaterThan(comparisons, 300, "exact-path stubs must meet other-path stubs often")
    }
}
