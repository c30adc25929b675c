import XCTest
@testable import StubServer

final class RouteIndexTests: XCTestCase {
    private let paths = ["/", "/a", "/a/b", "/a/b/", "/api/v1/stories", "/api/v1/stories/1", "/api/v1/stories/22", "/x y", "/ü", "/a/c"]
    private let methods = ["GET", "POST", "PUT", "DELETE", "get"]

    private func randomURI(_ random: inout RoutingSeededRandom) -> TextMatcher? {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return nil
        case 1: return .startsWith(["/a", "/api", "/"].randomElement(using: &random)!)
        case 2: return .match(["/a/.*", "/api/v1/stories/\\d+", ".*"].randomElement(using: &random)!)
        case 3: return .path(["/api/v1/stories/{id}", "/a/*", "/a/b"].randomElement(using: &random)!)
        case 4: return .endsWith(["b", "/", "s"].randomElement(using: &random)!)
        default: return .equal(paths.randomElement(using: &random)!)
        }
    }

    private func randomStubs(_ count: Int, _ random: inout RoutingSeededRandom) -> [StubDefinition] {
        (0..<count).map { index in
            if Int.random(in: 0..<25, using: &random) == 0 {
                return .catchAll(.text("catch-all \(index)"))
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
            return StubDefinition(request: pattern, response: .text("stub \(index)"))
        }
    }

    func testIndexAgreesWithALinearScanOnRandomConfigs() throws {
        var random = RoutingSeededRandom(seed: 2024)
        for round in 0..<60 {
            let stubs = randomStubs(Int.random(in: 1..<80, using: &random), &random)
            let router = try Router(stubs: stubs)
            for _ in 0..<200 {
                var target = paths.randomElement(using: &random)!.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "ü", with: "%C3%BC")
                if Bool.random(using: &random) { target += "?q=" + ["1", "2", "3"].randomElement(using: &random)! }
                var headers = HTTPHeaders()
                if Bool.random(using: &random) { headers.add(name: "X-Mode", value: "on") }
                let request = HTTPRequest(method: methods.randomElement(using: &random)!, target: target, headers: headers)
                let indexed = router.stub(matching: request)
                let linear = router.stubByLinearScan(matching: request)
                XCTAssertEqual(indexed, linear, "round \(round): \(request.method) \(request.target)")
                XCTAssertEqual(router.route(request).stub, linear)
            }
        }
    }

    func testLiteralStubsAreBucketedAndOthersFallBack() throws {
        let router = try Router(stubs: [
            StubDefinition(request: .get("/a"), response: .text("a")),
            StubDefinition(request: RequestPattern(uri: "/a"), response: .text("any method")),
            StubDefinition(request: RequestPattern(method: "GET", uri: .startsWith("/")), response: .text("prefix")),
            StubDefinition(request: RequestPattern(uri: .path("/p/{id}")), response: .text("template")),
            StubDefinition(request: RequestPattern(uri: .path("/plain")), response: .text("plain path")),
        ])
        var compiledIndex: RouteIndex?
        let mirror = Mirror(reflecting: router)
        compiledIndex = mirror.children.first { $0.label == "index" }?.value as? RouteIndex
        let index = try XCTUnwrap(compiledIndex)
        XCTAssertEqual(index.byPath["/a"]?.byMethod["GET"], [0])
        XCTAssertEqual(index.byPath["/a"]?.anyMethod, [1])
        XCTAssertEqual(index.byPath["/plain"]?.anyMethod, [4], "a path pattern without wildcards is an exact path")
        XCTAssertEqual(index.fallback.byMethod["GET"], [2])
        XCTAssertEqual(index.fallback.anyMethod, [3])
        XCTAssertEqual(Array(index.candidates(path: "/a", method: "GET")), [0, 1, 2, 3])
        XCTAssertEqual(Array(index.candidates(path: "/zzz", method: "POST")), [3])
        XCTAssertEqual(router.answer("post", "/a").text, "any method")
    }
}
