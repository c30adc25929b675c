import Foundation
import XCTest

@testable import StubServer

/// Stubs added at run time are filed into and out of an index in place: after any sequence of
/// adds and removes it must answer what a router built afresh from the live sessions (newest
/// first) answers, and no change may reset another added stub's state.
final class AddedStubRouterTests: XCTestCase {
    private let paths = [
        "/", "/a", "/a/", "/a/b", "/a/b/c", "/ab", "//a/b", "/api/v1/stories", "/api/v1/stories/1",
        "/api/v1/stories/22/comments", "/static/12/app.js", "/ü/b", "/u\u{308}/b", "/K/1", "/\u{212A}/1", "/billing/a",
    ]

    private func randomURI(_ random: inout RoutingSeededRandom) -> TextMatcher? {
        func pick(_ options: [String]) -> String { options.randomElement(using: &random)! }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return nil
        case 1: return .startsWith(pick(["/", "/a", "/a/", "/api/", "/static/12/", "/K/", "/\u{212A}", "/u\u{308}"]))
        case 2: return .match(pick(["/a/.*", "/api/v1/stories/\\d+", ".*", "/a/b?", "(?i)/A/B", "/K/.*"]))
        case 3, 4:
            return .path(
                pick([
                    "/api/v1/stories/{id}", "/api/v1/stories/{id}/comments", "/a/*", "/a/b", "/a/**", "/**/b", "/static/{v}/**",
                    "/{a}", "/ü/{x}", "/a/*.png",
                ]))
        case 5: return .endsWith(pick(["b", "/", "comments", ".js"]))
        default: return .equal(pick(paths))
        }
    }

    /// Sessions of every kind the index files differently, a few catch-alls and REST-free
    /// multi-condition ones among them.
    private func randomSession(_ random: inout RoutingSeededRandom) -> StubDefinition {
        var scope = StubScope()
        if Int.random(in: 0..<8, using: &random) == 0 { scope.context = ["/billing", "/a", "/api/v1"].randomElement(using: &random)! }
        if Int.random(in: 0..<20, using: &random) == 0 {
            return StubDefinition(request: nil, response: .text("catch-all"), scope: scope)
        }
        var pattern = RequestPattern(uri: randomURI(&random))
        switch Int.random(in: 0..<4, using: &random) {
        case 0: break
        case 1: pattern.method = .match("GET|PUT")
        default: pattern.method = .equal(["GET", "POST", "put"].randomElement(using: &random)!)
        }
        if Int.random(in: 0..<4, using: &random) == 0 { pattern.queries = ["q": .equal(["1", "2"].randomElement(using: &random)!)] }
        if Int.random(in: 0..<6, using: &random) == 0 { pattern.headers = ["X-Mode": .exist(Bool.random(using: &random))] }
        return StubDefinition(request: pattern, response: .text("stub"), scope: scope)
    }

    private func randomRequest(_ random: inout RoutingSeededRandom) -> HTTPRequest {
        var target = ""
        for byte in paths.randomElement(using: &random)!.utf8 {
            target += byte < 0x80 ? String(Character(Unicode.Scalar(byte))) : String(format: "%%%02X", byte)
        }
        if Bool.random(using: &random) { target += "?q=" + ["1", "2", "3"].randomElement(using: &random)! }
        var headers = HTTPHeaders()
        if Bool.random(using: &random) { headers.add(name: "X-Mode", value: "on") }
        if Int.random(in: 0..<8, using: &random) == 0 {
            headers.add(name: "Origin", value: "http://app.test")
            headers.add(name: "Access-Control-Request-Method", value: "POST")
            return HTTPRequest(method: "OPTIONS", target: target, headers: headers)
        }
        return HTTPRequest(method: ["GET", "POST", "PUT", "DELETE"].randomElement(using: &random)!, target: target, headers: headers)
    }

    private func body(_ result: RouteResult) -> [UInt8] {
        if case .response(let response) = result.reply.payload { return response.body }
        return []
    }

    /// The stub, or for a miss the near misses and the 400 page, that `added` and a router
    /// built from `live` (newest first) give; counts the requests where they differ.
    private func disagreements(
        _ added: AddedStubRouter, _ live: [Int: StubDefinition], _ random: inout RoutingSeededRandom, context: String
    ) throws -> Int {
        let fresh = try Router(stubs: live.keys.sorted(by: >).map { live[$0]! })
        var count = 0
        for _ in 0..<60 {
            let request = randomRequest(&random)
            let expected = fresh.stub(matching: request)
            let found = added.stub(matching: request)
            var same = found == expected && added.stubByLinearScan(matching: request) == expected
            if expected == nil {
                let mine = added.route(request)
                let theirs = fresh.route(request)
                same =
                    same && mine.stub == nil && mine.nearMisses.map(\.stub) == theirs.nearMisses.map(\.stub)
                    && mine.nearMisses.map(\.differences) == theirs.nearMisses.map(\.differences)
                    && body(mine) == body(theirs)
            }
            if !same {
                count += 1
                if count <= 3 {
                    XCTFail(
                        "\(context): \(request.method) \(request.target): incremental \(String(describing: found)), rebuilt \(String(describing: expected))"
                    )
                }
            }
        }
        return count
    }

    func testAfterRandomAddsAndRemovesTheIndexAnswersAsAFreshlyBuiltOne() throws {
        var random = RoutingSeededRandom(seed: 2121)
        var compared = 0
        for round in 0..<30 {
            let added = AddedStubRouter(options: RouterOptions())
            var live: [Int: StubDefinition] = [:]
            var next = 1
            for step in 0..<50 {
                if live.isEmpty || Int.random(in: 0..<3, using: &random) != 0 {
                    var batch: [StubDefinition] = []
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        var session = randomSession(&random)
                        session.reference = .added(next)
                        live[next] = session
                        next += 1
                        batch.append(session)
                    }
                    try added.add(batch)
                } else {
                    let number = live.keys.randomElement(using: &random)!
                    XCTAssertTrue(added.remove(number))
                    XCTAssertFalse(added.remove(number), "a second remove finds nothing")
                    live[number] = nil
                }
                if step % 5 == 4 {
                    XCTAssertEqual(try disagreements(added, live, &random, context: "round \(round) step \(step)"), 0)
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 300)
    }

    /// Removing most stubs compacts the index (new numbers, same stubs): still the same answers.
    func testAfterCompactionTheIndexStillAnswersAsAFreshlyBuiltOne() throws {
        var random = RoutingSeededRandom(seed: 9)
        let added = AddedStubRouter(options: RouterOptions())
        var live: [Int: StubDefinition] = [:]
        for number in 1...2_000 {
            var session = randomSession(&random)
            session.reference = .added(number)
            live[number] = session
            try added.add([session])
        }
        for number in live.keys.shuffled(using: &random).prefix(1_700) {
            XCTAssertTrue(added.remove(number))
            live[number] = nil
        }
        XCTAssertEqual(try disagreements(added, live, &random, context: "compacted"), 0)
        var session = randomSession(&random)
        session.reference = .added(2_001)
        live[2_001] = session
        try added.add([session])
        XCTAssertEqual(try disagreements(added, live, &random, context: "added after compaction"), 0)
    }

    /// A rebuild used to start every added stub's `seq` and `cycle` over on each add or
    /// remove of another one.
    func testAddingAndRemovingOtherStubsKeepsSequencesAndCyclesWhereTheyAre() throws {
        let live = try LiveStubs(#"[{"request": {"uri": "/file"}, "response": {"text": "file"}}]"#)
        let json = AdminAPITests.jsonBody
        XCTAssertEqual(
            try live.send(
                "POST", "/__admin/stubs", headers: json,
                body: #"""
                    [{"request": {"uri": "/seq"}, "response": {"seq": [{"text": "one"}, {"text": "two"}, {"text": "three"}]}},
                     {"request": {"uri": "/cycle"}, "response": {"cycle": [{"text": "a"}, {"text": "b"}, {"text": "c"}]}}]
                    """#
            ).status, 201)
        XCTAssertEqual(try live.send("GET", "/seq").text, "one")
        XCTAssertEqual(try live.send("GET", "/cycle").text, "a")
        XCTAssertEqual(
            try live.send("POST", "/__admin/stubs", headers: json, body: #"{"request": {"uri": "/other"}, "response": {"text": "o"}}"#)
                .status, 201)
        XCTAssertEqual(try live.send("GET", "/seq").text, "two")
        XCTAssertEqual(try live.send("GET", "/cycle").text, "b")
        XCTAssertEqual(try live.send("DELETE", "/__admin/stubs/admin-3").status, 204)
        XCTAssertEqual(try live.send("GET", "/seq").text, "three")
        XCTAssertEqual(try live.send("GET", "/cycle").text, "c")
        XCTAssertEqual(try live.send("GET", "/other").status, 400)
        XCTAssertEqual(try live.send("GET", "/file").text, "file")
    }
}
