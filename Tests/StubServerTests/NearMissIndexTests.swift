import Foundation
import XCTest

@testable import StubServer

/// The near-miss index visits the stubs of other paths best lower bound first and stops once
/// no bound left can make the list: it must report exactly the head of the full ranking, stay
/// right as added stubs come and go, and look at a few stubs, not all, when thousands tie.
final class NearMissIndexTests: XCTestCase {
    private static let segments = ["api", "v1", "v2", "items", "users", "1", "2", "x", "é"]

    private func randomPath(_ random: inout RoutingSeededRandom) -> String {
        let depth = Int.random(in: 0...6, using: &random)
        return "/" + (0..<depth).map { _ in Self.segments.randomElement(using: &random)! }.joined(separator: "/")
    }

    /// Stubs of deep paths sharing prefixes (beyond the four hashed segments too), path
    /// variables, prefixes and regexes, methods, query and header conditions, a body condition
    /// (which no bound counts) and, when `pathless`, some without a path (which rank before
    /// every stub of another path: the best-first walk is then rarely needed).
    private func randomStubs(_ count: Int, _ random: inout RoutingSeededRandom, pathless: Bool = false) -> [StubDefinition] {
        var stubs: [StubDefinition] = []
        for _ in 0..<count {
            var pattern = RequestPattern()
            switch Int.random(in: 0..<4, using: &random) {
            case 0: pattern.method = .equal("GET")
            case 1: pattern.method = .equal("POST")
            case 2: pattern.method = .equal("DELETE")
            default: break
            }
            switch Int.random(in: 0..<(pathless ? 10 : 9), using: &random) {
            case 0..<6: pattern.uri = .equal(randomPath(&random))
            case 6: pattern.uri = .match("/api/v\\d/items/\\d+")
            case 7: pattern.uri = .startsWith(["/api", "/api/v1/", "/users"].randomElement(using: &random)!)
            case 8: pattern.uri = .path(["/api/v1/items/{id}", "/users/*/x", "/api/**"].randomElement(using: &random)!)
            default: break
            }
            for name in ["page", "q"] where Int.random(in: 0..<3, using: &random) == 0 {
                pattern.queries.append(name, [.exist(true), .equal("1"), .startsWith("2")].randomElement(using: &random)!)
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                pattern.headers.append(["Accept", "X-Token"].randomElement(using: &random)!, .equal("1"))
            }
            if Int.random(in: 0..<8, using: &random) == 0 { pattern.text = .equal("body") }
            // No request has this header: most requests miss (a stub of a path prefix, or of
            // none, would answer most otherwise).
            if pattern.uri.map({ if case .equal = $0 { false } else { true } }) ?? true || Bool.random(using: &random) {
                pattern.headers.append("X-Secret", .exist(true))
            }
            stubs.append(StubDefinition(request: pattern, response: .text("r")))
        }
        return stubs
    }

    private func randomRequest(_ random: inout RoutingSeededRandom) -> HTTPRequest {
        var target = randomPath(&random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: target += "?page=" + ["1", "2"].randomElement(using: &random)!
        case 1: target += "?q=1&page"
        default: break
        }
        let headers = Bool.random(using: &random) ? [("Accept", "1")] : []
        return HTTPRequest(
            method: ["GET", "POST", "PUT"].randomElement(using: &random)!, target: target, headers: HTTPHeaders(headers),
            body: Bool.random(using: &random) ? Array("body".utf8) : [])
    }

    /// Requests whose three closest include a stub of another path (the best-first walk ran).
    private var walks = 0

    private func assertHeadOfFullRanking(
        _ request: HTTPRequest, _ result: RouteResult, among first: [CompiledStub], then second: [CompiledStub], _ context: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let view = RequestView(request)
        let full = NearMissRanking.closest(view, among: first, then: second, count: 3)
        if full.contains(where: { found in found.stub.conditions.contains { $0.aspect == .path && !$0.matches(view) } }) { walks += 1 }
        XCTAssertEqual(
            result.nearMisses.map(\.stub), full.map(\.stub.reference), "\(context): \(request.method) \(request.target)", file: file,
            line: line)
        XCTAssertEqual(
            result.nearMisses.map(\.differences), full.map { NearMissRanking.differences($0.failed, view) }, context, file: file, line: line
        )
    }

    /// Configurations of 50 to 400 stubs of many shapes, in one or two routers.
    func testTheBestFirstRankingReportsTheHeadOfTheFullRanking() throws {
        var random = RoutingSeededRandom(seed: 2721)
        var misses = 0
        for round in 0..<40 {
            let first = try Router(stubs: randomStubs(Int.random(in: 50...400, using: &random), &random, pathless: round % 4 == 0))
            let second =
                Bool.random(using: &random) ? try Router(stubs: randomStubs(Int.random(in: 1...100, using: &random), &random)) : nil
            for _ in 0..<20 {
                let request = randomRequest(&random)
                let result = Router.route(request, first: first, then: second)
                guard result.stub == nil else { continue }
                misses += 1
                assertHeadOfFullRanking(request, result, among: first.compiledStubs, then: second?.compiledStubs ?? [], "round \(round)")
            }
        }
        XCTAssertGreaterThan(misses, 400, "most requests must miss for the comparison to mean something")
        XCTAssertGreaterThan(walks, 300, "the walk over stubs of other paths must be exercised")
    }

    /// Added stubs come and go (enough removals to make the router file its live stubs again):
    /// after every step the ranking is the full ranking of a router rebuilt from the live ones.
    func testTheIndexOfAddedStubsStaysRightAcrossAddsRemovesAndCompaction() throws {
        var random = RoutingSeededRandom(seed: 2722)
        let added = AddedStubRouter(options: RouterOptions())
        var live: [Int: StubDefinition] = [:]
        var next = 1
        var misses = 0
        for step in 0..<8 {
            // Grow to about 1,500 stubs, then shrink below 200: the removals pass the 1,024 at
            // which the router compacts.
            let adding = step.isMultiple(of: 2) ? Int.random(in: 600...900, using: &random) : Int.random(in: 0...40, using: &random)
            for var stub in randomStubs(adding, &random) {
                stub.reference = .added(next)
                live[next] = stub
                try added.add([stub])
                next += 1
            }
            let removing =
                step.isMultiple(of: 2)
                ? Int.random(in: 0...50, using: &random) : max(0, live.count - Int.random(in: 50...200, using: &random))
            for number in Array(live.keys).shuffled(using: &random).prefix(removing) {
                XCTAssertTrue(added.remove(number))
                live[number] = nil
            }
            let rebuilt = try Router(stubs: live.keys.sorted(by: >).map { live[$0]! })
            let file = Bool.random(using: &random) ? try Router(stubs: randomStubs(Int.random(in: 1...60, using: &random), &random)) : nil
            for _ in 0..<60 {
                let request = randomRequest(&random)
                let result = added.reading { Router.route(request, first: added, then: file) }
                guard result.stub == nil else { continue }
                misses += 1
                assertHeadOfFullRanking(request, result, among: rebuilt.compiledStubs, then: file?.compiledStubs ?? [], "step \(step)")
            }
        }
        XCTAssertGreaterThan(misses, 200)
        XCTAssertGreaterThan(walks, 150, "the walk over stubs of other paths must be exercised")
    }

    /// The walk yields stubs by bound, not by order: a stub tried first whose bound (exact for
    /// it) is worse than others' (which miss a cookie no bound counts) but whose score ties
    /// with theirs still goes first.
    func testAStubTriedFirstWinsATieWithStubsOfLowerBounds() throws {
        var first = RequestPattern(uri: .equal("/p/q/a"))
        first.headers.append("X-Secret", .exist(true))
        var stubs = [StubDefinition(request: first, response: .text("first"))]
        for name in ["b", "c", "d"] {
            var pattern = RequestPattern(uri: .equal("/p/q/\(name)"))
            pattern.cookies.append("session", .exist(true))
            stubs.append(StubDefinition(request: pattern, response: .text(name)))
        }
        let router = try Router(stubs: stubs)
        let request = HTTPRequest(method: "GET", target: "/p/q/z")
        let full = NearMissRanking.closest(RequestView(request), among: router.compiledStubs, then: [], count: 3)
        XCTAssertEqual(full.map(\.stub.reference.index), [0, 1, 2])
        XCTAssertEqual(router.route(request).nearMisses.map(\.stub.index), [0, 1, 2])
    }

    /// 5,000 stubs of one shape (the benchmarks' shapes): an unmatched request scores a few of
    /// them, not all, and still reports the first in order among those that tie.
    func testThousandsOfTyingStubsAreNotAllScored() throws {
        let items = try Router(
            stubs: (0..<5_000).map {
                StubDefinition(request: .get(.equal("/api/v1/items/\($0)"), queries: ["client_id": .exist(true)]), response: .text("\($0)"))
            })
        for (target, expected) in [
            ("/api/v1/items/500", [500, 0, 1]), ("/api/v1/itemz/500", [0, 1, 2]), ("/nothing", [0, 1, 2]),
            ("/api/v1/items/500/tags", [500, 0, 1]),
        ] {
            let view = RequestView(HTTPRequest(method: "GET", target: target))
            var scored = 0
            let closest = NearMissRanking.closest(
                view, pools: items.nearMissPool(view), Optional<Router>.none?.nearMissPool(view), count: 3, scored: &scored)
            XCTAssertEqual(closest.map(\.stub.reference.index), expected, target)
            XCTAssertLessThanOrEqual(scored, 10, "\(target): best-first scores a few of 5,000 stubs")
        }
        let added = AddedStubRouter(options: RouterOptions())
        try added.add(
            (0..<5_000).map { number in
                var stub = StubDefinition(request: RequestPattern(uri: .equal("/added/\(number)")), response: .text("\(number)"))
                stub.reference = .added(number + 1)
                return stub
            })
        for target in ["/nothing/1", "/added/7/x", "/added"] {
            let view = RequestView(HTTPRequest(method: "GET", target: target))
            var scored = 0
            let closest = added.reading {
                NearMissRanking.closest(
                    view, pools: added.nearMissPool(view), Optional<Router>.none?.nearMissPool(view), count: 3, scored: &scored)
            }
            XCTAssertEqual(closest.count, 3, target)
            XCTAssertLessThanOrEqual(scored, 10, "\(target): best-first scores a few of 5,000 added stubs")
        }
    }
}
