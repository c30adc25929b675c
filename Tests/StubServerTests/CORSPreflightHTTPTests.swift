import Foundation
import XCTest

@testable import StubServer

/// A browser's preflight for a session restricted to another method (`"method": "post"`) with
/// `cors`: answered with the session's CORS headers, over real HTTP. Sessions that match
/// `OPTIONS` themselves keep answering it.
final class CORSPreflightHTTPTests: XCTestCase {
    private var stubs: LiveStubs!

    override func setUpWithError() throws {
        stubs = try LiveStubs(
            """
            [
              {"request": {"method": "post", "uri": "/orders", "headers": {"Authorization": {"startsWith": "Bearer "}},
                           "json": {"item": "tea"}},
               "response": {"status": 201, "text": "created", "cors": {
                 "allowOrigin": "https://app.example",
                 "allowMethods": ["POST", "PUT"],
                 "allowHeaders": ["Authorization", "Content-Type"],
                 "maxAge": {"duration": 10, "unit": "minute"},
                 "exposeHeaders": ["Location"],
                 "allowCredentials": true
               }}},
              {"request": {"method": {"match": "PUT|DELETE"}, "uri": {"path": "/orders/{id}"}},
               "response": {"text": "changed", "cors": true}},
              {"request": {"method": "post", "uri": "/plain"}, "response": {"text": "no cors"}},
              {"request": {"method": "post", "uri": "/own"}, "response": {"text": "posted", "cors": true}},
              {"request": {"method": "options", "uri": "/own"}, "response": {"status": 200, "text": "my own preflight"}},
              {"request": {"method": "delete", "uri": "/query", "queries": {"force": "yes"}}, "response": {"text": "gone", "cors": true}},
              {"response": {"status": 404, "text": "catch-all"}}
            ]
            """)
    }

    override func tearDown() { stubs = nil }

    private func preflight(
        _ target: String, method: String, origin: String = "https://app.example", extra: [(String, String)] = []
    ) throws -> RawHTTPResponse {
        try stubs.send("OPTIONS", target, headers: [("Origin", origin), ("Access-Control-Request-Method", method)] + extra)
    }

    func testAPreflightForAPostOnlySessionGetsItsCORSHeaders() throws {
        let answer = try preflight("/orders", method: "POST", extra: [("Access-Control-Request-Headers", "authorization,content-type")])
        XCTAssertEqual(answer.status, 204, answer.text)
        XCTAssertEqual(answer.text, "")
        XCTAssertEqual(answer.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(answer.header("Vary"), "Origin")
        XCTAssertEqual(answer.header("Access-Control-Allow-Methods"), "POST,PUT")
        XCTAssertEqual(answer.header("Access-Control-Allow-Headers"), "Authorization,Content-Type")
        XCTAssertEqual(answer.header("Access-Control-Max-Age"), "600")
        XCTAssertEqual(answer.header("Access-Control-Allow-Credentials"), "true")
        XCTAssertNil(answer.header("Access-Control-Expose-Headers"), "exposed headers belong to the actual response")

        // The header and body conditions a preflight cannot carry still decide the actual request.
        let actual = try stubs.send(
            "POST", "/orders",
            headers: [("Origin", "https://app.example"), ("Authorization", "Bearer t"), ("Content-Type", "application/json")],
            body: #"{"item": "tea"}"#)
        XCTAssertEqual(actual.status, 201)
        XCTAssertEqual(actual.text, "created")
        XCTAssertEqual(actual.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(actual.header("Access-Control-Expose-Headers"), "Location")

        // The journal records an exchange once its reply is sent: wait for it, generously.
        let deadline = Date(timeIntervalSinceNow: 10)
        while stubs.server.journal.requests(method: "OPTIONS", path: "/orders").isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let preflightEntry = stubs.server.journal.requests(method: "OPTIONS", path: "/orders").first
        XCTAssertEqual(preflightEntry?.stub?.description, "stubs.json#0", "the preflight is charged to the session whose cors answered")
    }

    func testTheRequestedMethodMustBeOneTheSessionServes() throws {
        let put = try preflight("/orders/7", method: "put")
        XCTAssertEqual(put.status, 204, "a method match and a path pattern, the method in any case")
        XCTAssertEqual(put.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(put.header("Access-Control-Allow-Methods"), "*")
        XCTAssertEqual(put.header("Access-Control-Allow-Headers"), "*")

        let get = try preflight("/orders/7", method: "GET")
        XCTAssertEqual(get.text, "catch-all", "no session serves GET /orders/7")
        XCTAssertNil(get.header("Access-Control-Allow-Origin"))

        let wrongPath = try preflight("/orders/7/items", method: "PUT")
        XCTAssertEqual(wrongPath.text, "catch-all")
    }

    func testWhichStubAnswersAgreesWithTheLinearScan() throws {
        let router = try ConfigLoader.load(config: stubs.fixture.path("stubs.json"), workingDirectory: stubs.fixture.root).router
        for (target, method, expected) in [
            ("/orders", "POST", "stubs.json#0"), ("/orders/7", "DELETE", "stubs.json#1"), ("/own", "POST", "stubs.json#4"),
            ("/plain", "POST", "stubs.json#6"), ("/orders", "GET", "stubs.json#6"),
        ] {
            let request = HTTPRequest(
                method: "OPTIONS", target: target,
                headers: HTTPHeaders([("Origin", "https://app.example"), ("Access-Control-Request-Method", method)]))
            XCTAssertEqual(router.stub(matching: request)?.description, expected, "\(method) \(target)")
            XCTAssertEqual(router.stubByLinearScan(matching: request)?.description, expected, "\(method) \(target)")
        }
    }

    func testTheQueryOfThePreflightCounts() throws {
        XCTAssertEqual(try preflight("/query?force=yes", method: "DELETE").status, 204)
        XCTAssertEqual(try preflight("/query?force=no", method: "DELETE").text, "catch-all")
    }

    func testOnlySessionsWithCORSAnswerPreflights() throws {
        let answer = try preflight("/plain", method: "POST")
        XCTAssertEqual(answer.status, 404)
        XCTAssertEqual(answer.text, "catch-all")
        XCTAssertNil(answer.header("Access-Control-Allow-Origin"))
    }

    func testASessionMatchingOptionsItselfStillAnswersIt() throws {
        let answer = try preflight("/own", method: "POST")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.text, "my own preflight", "declared after the POST session, and it still wins")
        XCTAssertNil(answer.header("Access-Control-Allow-Origin"))
    }

    func testAnOptionsRequestThatIsNoPreflightIsRoutedAsBefore() throws {
        let noRequestedMethod = try stubs.send("OPTIONS", "/orders", headers: [("Origin", "https://app.example")])
        XCTAssertEqual(noRequestedMethod.text, "catch-all")
        let noOrigin = try stubs.send("OPTIONS", "/orders", headers: [("Access-Control-Request-Method", "POST")])
        XCTAssertEqual(noOrigin.text, "catch-all")
    }

    /// Without a catch-all, a preflight nothing answers is the usual near-miss 400.
    func testAnUnansweredPreflightIsTheNearMiss400() throws {
        let bare = try LiveStubs(#"[{"request": {"method": "post", "uri": "/x"}, "response": {"text": "x", "cors": true}}]"#)
        let answered = try bare.send(
            "OPTIONS", "/x", headers: [("Origin", "https://a.example"), ("Access-Control-Request-Method", "POST")])
        XCTAssertEqual(answered.status, 204)
        XCTAssertEqual(answered.header("Access-Control-Allow-Origin"), "*")
        let missed = try bare.send("OPTIONS", "/y", headers: [("Origin", "https://a.example"), ("Access-Control-Request-Method", "POST")])
        XCTAssertEqual(missed.status, 400)
    }
}
