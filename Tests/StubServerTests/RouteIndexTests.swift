import Foundation
import XCTest

@testable import StubServer

final class RouteIndexTests: XCTestCase {
    // Request paths (decoded), chosen to sit on the edges of every key: partial and empty
    // segments, trailing slashes, canonically equivalent spellings (ü / u+◌̈, K / KELVIN SIGN),
    // an encoded slash, a path without a leading slash.
    private let paths = [
        "/", "/a", "/a/", "/a/b", "/a/b/", "/a//b", "//a/b", "/a/b/c", "/a/bc", "/ab", "/a/b.png", "a/b",
        "/api/v1/stories", "/api/v1/stories/1", "/api/v1/stories/22/comments", "/api/v1/stories/x/comments/",
        "/api/v2/items/7", "/api/v1/items/7/tags/new", "/static/12/app.js", "/static/123/x", "/static/1",
        "/x y", "/ü", "/ü/b", "/u\u{308}/b", "/K/1", "/\u{212A}/1", "/billing", "/billing/a", "/billingx", "/a/%/b",
    ]
    private let methods = ["GET", "POST", "PUT", "DELETE", "get"]

    private func randomURI(_ random: inout RoutingSeededRandom) -> TextMatcher? {
        func pick(_ options: [String]) -> String { options.randomElement(using: &random)! }
        switch Int.random(in: 0..<14, using: &random) {
        case 0: return nil
        case 1, 2:
            return .startsWith(
                pick([
                    "/", "/a", "/a/", "/a/b", "/api/", "/api/v1/stories/", "/static/12", "/static/12/", "/K/", "/\u{212A}",
                    "/ü/", "/u\u{308}", "//a", "/billing", "a/",
                ]))
        case 3, 4:
            return .match(
                pick([
                    "/a/.*", "/api/v1/stories/\\d+", ".*", "/a/b?", "/ab|/a/b", "^/static/\\d+/.*", "/api/v\\d/.*", "/a\\/b",
                    "/a/b/c*", "(?i)/A/B", "/a/b\\.png", "/static/1+", "/api/v1/stories/(1|22)/comments", "/K/.*",
                ]))
        case 5, 6, 7:
            return .path(
                pick([
                    "/api/v1/stories/{id}", "/api/v1/stories/{id}/comments", "/a/*", "/a/b", "/a/**", "/**/b", "/static/{v}/**",
                    "/a/{x:\\w+}", "/?/b", "a/b", "/api/{version}/items/{id}", "/ü/{x}", "/a/b/", "/{a}", "/{a}/{b}",
                    "/api/v1/items/{id}/tags/{tag}", "/a/*.png", "/static/**/x",
                ]))
        case 8: return .endsWith(pick(["b", "/", "s", "comments", "b/", "\u{308}/b", ".js"]))
        case 9: return .contain(pick(["/b", "stories", "ü"]))
        default: return .equal(pick(paths))
        }
    }

    private func randomStubs(_ count: Int, _ random: inout RoutingSeededRandom) -> [StubDefinition] {
        (0..<count).map { index in
            var scope = StubScope()
            if Int.random(in: 0..<6, using: &random) == 0 {
                scope.context = ["/billing", "/a", "/ü", "/api/v1"].randomElement(using: &random)!
            }
            if Int.random(in: 0..<10, using: &random) == 0 {
                scope.requests = [RequestPattern(uri: [.startsWith("/a"), .endsWith("b"), .path("/a/{x}")].randomElement(using: &random)!)]
            }
            if Int.random(in: 0..<25, using: &random) == 0 {
                return StubDefinition(request: nil, response: .text("catch-all \(index)"), scope: scope)
            }
            var pattern = RequestPattern(uri: randomURI(&random))
            switch Int.random(in: 0..<4, using: &random) {
            case 0: break
            case 1: pattern.method = .match("GET|PUT")
            default: pattern.method = .equal(["GET", "POST", "put", "DELETE"].randomElement(using: &random)!)
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                pattern.queries = ["q": .equal(["1", "2"].randomElement(using: &random)!)]
            }
            if Int.random(in: 0..<6, using: &random) == 0 {
                pattern.headers = ["X-Mode": .exist(Bool.random(using: &random))]
            }
            return StubDefinition(request: pattern, response: .text("stub \(index)"), scope: scope)
        }
    }

    private func encoded(_ path: String) -> String {
        var target = ""
        for byte in path.utf8 {
            if byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "%") {
                target.append(Character(Unicode.Scalar(byte)))
            } else {
                target += String(format: "%%%02X", byte)
            }
        }
        return target
    }

    /// Random configurations and requests; counts the requests where the index answers
    /// differently from a top-to-bottom scan (and reports the first few).
    private func disagreements(
        rounds: Int = 60, seed: UInt64 = 2024, adjustingRouteKeys adjust: ((RouteKey) -> RouteKey)? = nil,
        report: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        var random = RoutingSeededRandom(seed: seed)
        var count = 0
        for round in 0..<rounds {
            let stubs = randomStubs(Int.random(in: 1..<80, using: &random), &random)
            let router = try Router(stubs: stubs, adjustingRouteKeys: adjust)
            for _ in 0..<200 {
                var target = encoded(paths.randomElement(using: &random)!)
                if Bool.random(using: &random) { target += "?q=" + ["1", "2", "3"].randomElement(using: &random)! }
                var headers = HTTPHeaders()
                if Bool.random(using: &random) { headers.add(name: "X-Mode", value: "on") }
                let request = HTTPRequest(method: methods.randomElement(using: &random)!, target: target, headers: headers)
                let linear = router.stubByLinearScan(matching: request)
                let indexed = router.stub(matching: request)
                let routed = router.route(request).stub
                if indexed != linear || routed != linear {
                    count += 1
                    if report && count <= 5 {
                        XCTFail(
                            "round \(round): \(request.method) \(request.target): index \(String(describing: indexed)), scan \(String(describing: linear))",
                            file: file, line: line)
                    }
                }
            }
        }
        return count
    }

    func testIndexAgreesWithALinearScanOnRandomConfigs() throws {
        XCTAssertEqual(try disagreements(report: true), 0)
        XCTAssertEqual(try disagreements(rounds: 30, seed: 7, report: true), 0)
    }

    /// The comparison above would notice each of these mistakes in the index.
    func testTheComparisonCatchesADeliberatelyWrongIndex() throws {
        let sabotage: [(String, (RouteKey) -> RouteKey)] = [
            (
                "prefix keys one segment too long",
                { key in
                    var key = key
                    if case .segments(let segments, false) = key.path {
                        key.path = .segments(segments + [.literal(Array("b".utf8))], terminal: false)
                    }
                    return key
                }
            ),
            (
                "templates with ** treated as fixed-length",
                { key in
                    var key = key
                    if case .segments(let segments, _) = key.path { key.path = .segments(segments, terminal: true) }
                    return key
                }
            ),
            (
                "captures keyed as literal segments",
                { key in
                    var key = key
                    if case .segments(let segments, let terminal) = key.path {
                        key.path = .segments(segments.map { $0 == .any ? .literal(Array("1".utf8)) : $0 }, terminal: terminal)
                    }
                    return key
                }
            ),
            (
                "string-compared keys trusted for non-ASCII paths",
                { key in
                    var key = key
                    key.segmentsNeedASCIIPath = false
                    key.prefixNeedsASCIIPath = false
                    key.suffixNeedsASCIIPath = false
                    return key
                }
            ),
            (
                "prefix guard one byte too long",
                { key in
                    var key = key
                    if !key.prefix.isEmpty { key.prefix.append(UInt8(ascii: "b")) }
                    return key
                }
            ),
            (
                "suffix guard one byte too long",
                { key in
                    var key = key
                    if !key.suffix.isEmpty { key.suffix.insert(UInt8(ascii: "/"), at: 0) }
                    return key
                }
            ),
            (
                "methods filed under the wrong bucket",
                { key in
                    var key = key
                    if key.method == "GET" { key.method = "PUT" }
                    return key
                }
            ),
        ]
        for (name, adjust) in sabotage {
            XCTAssertGreaterThan(try disagreements(adjustingRouteKeys: adjust), 0, name)
        }
    }

    func testKeysFollowTheLiteralPartOfEachOperator() throws {
        func key(_ uri: TextMatcher, method: TextMatcher? = nil, context: String = "") throws -> RouteKey {
            let router = try Router(stubs: [
                StubDefinition(request: RequestPattern(method: method, uri: uri), response: .text("x"), scope: StubScope(context: context))
            ])
            let stub = try XCTUnwrap(Mirror(reflecting: router).children.first { $0.label == "stubs" }?.value as? [CompiledStub]).first
            return try XCTUnwrap(stub).routeKey
        }
        func literal(_ text: String) -> RouteKey.Segment { .literal(Array(text.utf8)) }
        XCTAssertEqual(try key("/a/b", method: "get").path, .exact("/a/b"))
        XCTAssertEqual(try key("/a/b", method: "get").method, "GET")
        XCTAssertNotNil(try key("/a/b", method: "get").impliedMethod, "the method the index proves is not checked again")
        XCTAssertNotNil(try key("/a/b", method: "get").impliedPath, "nor the path")
        XCTAssertEqual(try key(.path("/p/q")).path, .exact("/p/q"))
        XCTAssertEqual(try key(.startsWith("/static/12")).path, .segments([literal("static")], terminal: false))
        XCTAssertEqual(try key(.startsWith("/static/12")).prefix, Array("/static/12".utf8))
        XCTAssertEqual(try key(.startsWith("/ab/ü/c/")).path, .segments([literal("ab")], terminal: false))
        XCTAssertEqual(
            try key(.path("/api/v1/stories/{id}")).path,
            .segments([literal("api"), literal("v1"), literal("stories"), .any], terminal: true))
        XCTAssertEqual(try key(.path("/api/{v}/x/**/y")).path, .segments([literal("api"), .any, literal("x")], terminal: false))
        XCTAssertEqual(
            try key(.match("/api/v1/stories/\\d+")).path, .segments([literal("api"), literal("v1"), literal("stories")], terminal: false))
        XCTAssertEqual(try key(.match("/a|/b/c/")).path, .unkeyed)
        XCTAssertEqual(try key(.endsWith(".png")).suffix, Array(".png".utf8))
        XCTAssertEqual(try key(.endsWith(".png"), context: "/billing").path, .segments([literal("billing")], terminal: false))
        XCTAssertEqual(try key(.contain("x")).path, .unkeyed)
    }

    func testRegexLiteralLeadIsWhatEveryWholeMatchStartsWith() throws {
        let cases: [(String, String)] = [
            ("/api/v1/stories/\\d+", "/api/v1/stories/"),
            ("^/a/b", "/a/b"),
            ("/a/b?", "/a/"),
            ("/a/bc*", "/a/b"),
            ("/a/b+", "/a/"),
            ("/a/b{2}", "/a/"),
            ("/a\\/b\\.c", "/a/b.c"),
            ("/a/(b|c)", ""),
            ("/a|/b", ""),
            ("/a/\\|", ""),
            ("(?i)/a", ""),
            ("/a/(?i)b", "/a/"),
            ("/a/\\d", "/a/"),
            ("/a/\\Qx\\E", "/a/"),
            ("/a/[bc]", "/a/"),
            ("/ü/x", "/"),
            (".*", ""),
        ]
        for (pattern, lead) in cases {
            XCTAssertEqual(String(decoding: RouteKey.literalPrefix(ofRegex: pattern), as: UTF8.self), lead, pattern)
        }
        // And what ICU matches agrees: every sample the regex accepts starts with the lead.
        let samples = [
            "/a/", "/a/b", "/a/bb", "/a/c", "/a/b.c", "/a/b/c", "/b", "/A", "/a/B", "/a/x", "/a/|", "/api/v1/stories/12", "/a/bc", "/a/bcc",
        ]
        for (pattern, _) in cases {
            let regex = try CompiledRegex(pattern)
            let lead = RouteKey.literalPrefix(ofRegex: pattern)
            for sample in samples where regex.matchesWhole(sample) {
                XCTAssertTrue(
                    Array(sample.utf8).starts(with: lead),
                    "\(pattern) matches \(sample) but the lead is \(String(decoding: lead, as: UTF8.self))")
            }
        }
    }

    func testCandidatesComeFromTheBucketsTheRequestReaches() throws {
        let router = try Router(stubs: [
            StubDefinition(request: .get("/a"), response: .text("a")),
            StubDefinition(request: RequestPattern(uri: "/a"), response: .text("any method")),
            StubDefinition(request: RequestPattern(method: "GET", uri: .startsWith("/")), response: .text("prefix")),
            StubDefinition(request: RequestPattern(uri: .path("/p/{id}")), response: .text("template")),
            StubDefinition(request: RequestPattern(uri: .path("/plain")), response: .text("plain path")),
            StubDefinition(request: RequestPattern(uri: .startsWith("/static/v1/")), response: .text("static")),
            StubDefinition(request: RequestPattern(uri: .path("/p/{id}/**")), response: .text("under p")),
            StubDefinition(request: RequestPattern(uri: .match("/p/\\d+")), response: .text("numeric p")),
            StubDefinition(request: RequestPattern(uri: .endsWith(".png")), response: .text("png")),
        ])
        func candidates(_ method: String, _ target: String) -> [Int] {
            router.indexCandidates(for: HTTPRequest(method: method, target: target)).map(\.index)
        }
        XCTAssertEqual(candidates("GET", "/a"), [0, 1, 2])
        XCTAssertEqual(candidates("POST", "/a"), [1])
        XCTAssertEqual(candidates("POST", "/zzz"), [], "nothing keyed under /zzz, and no unkeyed stub without a method")
        XCTAssertEqual(candidates("POST", "/zzz.png"), [8])
        XCTAssertEqual(candidates("POST", "/p/7"), [3, 6, 7])
        XCTAssertEqual(candidates("POST", "/p/7/x"), [6, 7])
        XCTAssertEqual(candidates("POST", "/static/v1/app.js"), [5])
        XCTAssertEqual(candidates("POST", "/static/v2/app.js"), [])
        XCTAssertEqual(candidates("POST", "/plain"), [4])
        XCTAssertEqual(router.answer("post", "/a").text, "any method")
        XCTAssertEqual(router.answer("post", "/p/7/x").text, "under p")
        XCTAssertEqual(router.answer("get", "/p/7/x").text, "prefix")
    }

    func testStringComparedKeysStillReachNonASCIIPaths() throws {
        // "/\u{212A}" (KELVIN SIGN) is canonically equivalent to "/K": Swift's hasPrefix says yes,
        // so the stub must answer though the bytes differ.
        let router = try Router(stubs: [
            StubDefinition(request: RequestPattern(uri: .startsWith("/K/")), response: .text("kelvin")),
            StubDefinition(request: RequestPattern(uri: .startsWith("/ü/")), response: .text("umlaut")),
        ])
        XCTAssertEqual(router.answer("GET", "/%E2%84%AA/1").text, "kelvin")
        XCTAssertEqual(router.answer("GET", "/u%CC%88/1").text, "umlaut")
        XCTAssertEqual(router.answer("GET", "/K/1").text, "kelvin")
    }
}
