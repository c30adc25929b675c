import Foundation
import XCTest

@testable import StubServer

/// The unmatched-request ranking ranks the stubs the route index offers for the path first
/// and skips the others by a lower bound: it must report exactly the head of the full ranking.
final class NearMissPrefilterTests: XCTestCase {
    private static let paths = [
        "/a", "/a/b", "/a/b/c", "/ab", "//a", "/b", "/b/x", "/users/1", "/users/abc", "/", "/c/d/e",
        // Deep paths sharing 2, 3, 4 and more leading segments (the bound hashes four).
        "/api/v1/items/1", "/api/v1/items/2", "/api/v1/itemz/1", "/api/v1/items/1/tags/a", "/api/v1/items/1/tags/b", "/api/v2/items",
    ]

    private func randomStubs(_ count: Int, _ random: inout RoutingSeededRandom) -> [StubDefinition] {
        let names = ["x", "y"]
        var stubs: [StubDefinition] = []
        for _ in 0..<count {
            var pattern = RequestPattern()
            switch Int.random(in: 0..<3, using: &random) {
            case 0: pattern.method = .equal("GET")
            case 1: pattern.method = .equal("POST")
            default: break
            }
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1, 2, 3: pattern.uri = .equal(Self.paths.randomElement(using: &random)!)
            case 4: pattern.uri = .match("/users/\\d+")
            case 5: pattern.uri = .startsWith(["/a", "/b/", "/users"].randomElement(using: &random)!)
            case 6: pattern.uri = .path(["/users/{id}", "/a/*/c", "/b/**"].randomElement(using: &random)!)
            default: break // no path condition
            }
            for name in names where Int.random(in: 0..<3, using: &random) == 0 {
                let predicates: [TextMatcher] = [.exist(true), .exist(false), .equal("1"), .equal("2"), .startsWith("1")]
                pattern.queries.append(name, predicates.randomElement(using: &random)!)
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                pattern.headers.append(["X-y", "x-Z"].randomElement(using: &random)!, .equal("1"))
            }
            stubs.append(StubDefinition(request: pattern, response: .text("r")))
        }
        return stubs
    }

    private func randomRequest(_ random: inout RoutingSeededRandom) -> HTTPRequest {
        var target = (Self.paths + ["/nothing/1", "/users/2/x", "/a/b/c/d", "/api/v1/items/3", "/api/v1/items/1/tags/c"]).randomElement(
            using: &random)!
        switch Int.random(in: 0..<4, using: &random) {
        case 0: target += "?x=" + ["1", "2"].randomElement(using: &random)!
        case 1: target += "?y=1&x"
        default: break
        }
        var headers = Bool.random(using: &random) ? [("X-y", "1")] : []
        if Bool.random(using: &random) { headers.append(("X-Z", "2")) }
        return HTTPRequest(method: ["GET", "POST", "PUT"].randomElement(using: &random)!, target: target, headers: HTTPHeaders(headers))
    }

    /// Random stub sets in two routers (added stubs, then a configuration's), some with few
    /// stubs of the request's path and some with many: the three reported are the full
    /// ranking's first three, in order.
    func testThePrefilteredRankingReportsTheHeadOfTheFullRanking() throws {
        var random = RoutingSeededRandom(seed: 21)
        var misses = 0
        var farScans = 0
        for round in 0..<400 {
            let added = try Router(stubs: randomStubs(Int.random(in: 0...30, using: &random), &random))
            let file = Bool.random(using: &random) ? try Router(stubs: randomStubs(Int.random(in: 1...30, using: &random), &random)) : nil
            for _ in 0..<5 {
                let request = randomRequest(&random)
                let result = Router.route(request, first: added, then: file)
                guard result.stub == nil else { continue }
                misses += 1
                let view = RequestView(request)
                let full = NearMissRanking.closest(view, among: added.compiledStubs, then: file?.compiledStubs ?? [], count: 3)
                XCTAssertEqual(
                    result.nearMisses.map(\.stub), full.map(\.stub.reference), "round \(round): \(request.method) \(request.target)")
                XCTAssertEqual(
                    result.nearMisses.map(\.differences), full.map { NearMissRanking.differences($0.failed, view) }, "round \(round)")
                let pathHolds = full.filter { found in !found.stub.conditions.contains { $0.aspect == .path && !$0.matches(view) } }
                if pathHolds.count < full.count { farScans += 1 }
            }
        }
        XCTAssertGreaterThan(misses, 500, "most requests must miss for the comparison to mean something")
        XCTAssertGreaterThan(farScans, 200, "the scan past the path's stubs must be exercised")
    }

    /// Many stubs of other paths: the closest are those sharing leading segments, then the
    /// first in order; the lower bound must not skip a stub that ties with the list's last.
    func testTiesAmongStubsOfOtherPathsGoToTheFirstInOrder() throws {
        var stubs: [StubDefinition] = (0..<200).map { StubDefinition(request: .get("/added/\($0)"), response: .text("\($0)")) }
        stubs.insert(StubDefinition(request: .get("/nothing/else"), response: .text("near")), at: 150)
        let router = try Router(stubs: stubs)
        let result = router.route(HTTPRequest(method: "GET", target: "/nothing/1"))
        XCTAssertEqual(result.nearMisses.map(\.stub.index), [150, 0, 1])
        let far = router.route(HTTPRequest(method: "GET", target: "/elsewhere"))
        XCTAssertEqual(far.nearMisses.map(\.stub.index), [0, 1, 2])
        let wrongMethod = router.route(HTTPRequest(method: "POST", target: "/added/7"))
        XCTAssertEqual(wrongMethod.nearMisses.map(\.stub.index), [7, 0, 1])
    }

    /// The same over added stubs (an incremental index, newest first, some removed) before a
    /// configuration's: the pools count positions from the newest stub.
    func testThePrefilteredRankingOfAddedStubsReportsTheHeadOfTheFullRanking() throws {
        var random = RoutingSeededRandom(seed: 2124)
        var misses = 0
        for round in 0..<200 {
            let added = AddedStubRouter(options: RouterOptions())
            var live: [Int: StubDefinition] = [:]
            for (offset, var stub) in randomStubs(Int.random(in: 0...30, using: &random), &random).enumerated() {
                stub.reference = .added(offset + 1)
                live[offset + 1] = stub
                try added.add([stub])
            }
            for number in Array(live.keys).shuffled(using: &random).prefix(Int.random(in: 0...5, using: &random)) {
                XCTAssertTrue(added.remove(number))
                live[number] = nil
            }
            let rebuilt = try Router(stubs: live.keys.sorted(by: >).map { live[$0]! })
            let file = Bool.random(using: &random) ? try Router(stubs: randomStubs(Int.random(in: 1...30, using: &random), &random)) : nil
            for _ in 0..<5 {
                let request = randomRequest(&random)
                let result = added.reading { Router.route(request, first: added, then: file) }
                guard result.stub == nil else { continue }
                misses += 1
                let view = RequestView(request)
                let full = NearMissRanking.closest(view, among: rebuilt.compiledStubs, then: file?.compiledStubs ?? [], count: 3)
                XCTAssertEqual(
                    result.nearMisses.map(\.stub), full.map(\.stub.reference), "round \(round): \(request.method) \(request.target)")
            }
        }
        XCTAssertGreaterThan(misses, 300)
    }

    /// Query names compare by Unicode equivalence: a stub wanting `K` is not proven to fail
    /// for a request with KELVIN SIGN (U+212A), so it still ranks first.
    func testAQueryNameEquivalentButNotEqualInBytesIsNotProvenAbsent() throws {
        var stubs: [StubDefinition] = (0..<50).map { StubDefinition(request: .get(.equal("/api/items/\($0)")), response: .text("\($0)")) }
        stubs.append(StubDefinition(request: .get(.equal("/api/other/1"), queries: ["K": .equal("1")]), response: .text("k")))
        stubs.append(StubDefinition(request: .get(.equal("/api/other/2"), queries: ["a": .equal("1")]), response: .text("a")))
        let router = try Router(stubs: stubs)
        let request = HTTPRequest(method: "GET", target: "/api/other/3?%E2%84%AA=1")
        let full = NearMissRanking.closest(RequestView(request), among: router.compiledStubs, then: [], count: 3)
        XCTAssertEqual(full.first?.stub.reference.index, 50)
        XCTAssertEqual(router.route(request).nearMisses.map(\.stub), full.map(\.stub.reference))
    }
}
