import Foundation
import XCTest

@testable import StubServer

/// moco's response `cors` over real HTTP: `true`, the configured form with moco's names and the
/// literal `Access-Control-*` aliases, simple / preflight / other methods, origin checks.
final class CORSHTTPTests: XCTestCase {
    private var stubs: LiveStubs!

    override func setUpWithError() throws {
        stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/open"}, "response": {"text": "open", "cors": true}},
              {"request": {"uri": "/app"}, "response": {"text": "app", "cors": {
                "allowOrigin": "https://app.example",
                "Access-Control-Allow-Methods": ["GET", "put"],
                "allowHeaders": ["X-Token", "Content-Type"],
                "Access-Control-Max-Age": {"duration": 10, "unit": "minute"},
                "exposeHeaders": ["X-Total"],
                "allowCredentials": true
              }}},
              {"request": {"uri": "/any-with-credentials"}, "response": {"text": "x", "cors": {"allowOrigin": "*", "allowCredentials": "true"}}},
              {"request": {"uri": "/star"}, "response": {"text": "x", "cors": {"allowOrigin": "*", "allowMethods": ["*"]}}}
            ]
            """)
    }

    override func tearDown() { stubs = nil }

    func testCorsTrue() throws {
        let plain = try stubs.send("GET", "/open")
        XCTAssertEqual(plain.text, "open")
        XCTAssertNil(plain.header("Access-Control-Allow-Origin"), "no Origin, no CORS headers")

        let simple = try stubs.send("GET", "/open", headers: [("origin", "https://x.example")])
        XCTAssertEqual(simple.header("Access-Control-Allow-Origin"), "*", "the Origin header is found in any case")
        XCTAssertNil(simple.header("Access-Control-Allow-Methods"))
        XCTAssertNil(simple.header("Vary"))

        let put = try stubs.send("PUT", "/open", headers: [("Origin", "https://x.example")], body: "x")
        XCTAssertEqual(put.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(put.header("Access-Control-Allow-Methods"), "*")
        XCTAssertEqual(put.header("Access-Control-Allow-Headers"), "*")
    }

    func testSimpleRequestsNeedAnAllowedOrigin() throws {
        let allowed = try stubs.send("GET", "/app", headers: [("Origin", "https://app.example")])
        XCTAssertEqual(allowed.status, 200)
        XCTAssertEqual(allowed.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(allowed.header("Vary"), "Origin", "a specific origin varies by Origin")
        XCTAssertEqual(allowed.header("Access-Control-Expose-Headers"), "X-Total")
        XCTAssertEqual(allowed.header("Access-Control-Allow-Credentials"), "true")
        XCTAssertNil(allowed.header("Access-Control-Allow-Methods"), "methods are for preflights and non-simple requests")

        let other = try stubs.send("POST", "/app", headers: [("Origin", "https://evil.example")], body: "")
        XCTAssertEqual(other.status, 200, "CORS never changes the status")
        XCTAssertNil(other.header("Access-Control-Allow-Origin"))
        XCTAssertNil(other.header("Access-Control-Allow-Credentials"))
    }

    func testPreflightAndNonSimpleMethods() throws {
        let preflight = try stubs.send(
            "OPTIONS", "/app",
            headers: [
                ("Origin", "https://app.example"), ("Access-Control-Request-Method", "PUT"),
            ])
        XCTAssertEqual(preflight.status, 200)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "https://app.example")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET,put", "joined with a comma, as written")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Headers"), "X-Token,Content-Type")
        XCTAssertEqual(preflight.header("Access-Control-Max-Age"), "600")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Credentials"), "true")
        XCTAssertNil(preflight.header("Access-Control-Expose-Headers"))

        let put = try stubs.send("PUT", "/app", headers: [("Origin", "https://app.example")], body: "x")
        XCTAssertEqual(put.header("Access-Control-Allow-Origin"), "https://app.example", "PUT is listed (any case)")
        XCTAssertEqual(put.header("Access-Control-Max-Age"), "600")

        let delete = try stubs.send("DELETE", "/app", headers: [("Origin", "https://app.example")])
        XCTAssertNil(delete.header("Access-Control-Allow-Origin"), "DELETE is not an allowed method")
        let wrongOrigin = try stubs.send("PUT", "/app", headers: [("Origin", "https://evil.example")], body: "x")
        XCTAssertNil(wrongOrigin.header("Access-Control-Allow-Origin"))

        let star = try stubs.send("PATCH", "/star", headers: [("Origin", "https://x.example")], body: "x")
        XCTAssertEqual(star.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(star.header("Access-Control-Allow-Methods"), "*")
    }

    func testAnyOriginWithCredentialsEchoesTheOrigin() throws {
        let response = try stubs.send("GET", "/any-with-credentials", headers: [("Origin", "https://x.example")])
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "https://x.example", "browsers refuse * with credentials")
        XCTAssertEqual(response.header("Vary"), "Origin")
        XCTAssertEqual(response.header("Access-Control-Allow-Credentials"), "true")
    }

    /// moco users write several names in one entry ("Content-Type, Authorization"); moco loads
    /// them and sends them as written, under both spellings of each key.
    func testListEntriesHoldingCommasAreSentAsWritten() throws {
        let commas = try LiveStubs(
            """
            [
              {"request": {"uri": "/moco"}, "response": {"text": "x", "cors": {
                "allowOrigin": "https://app.example",
                "allowMethods": ["GET, PUT", "DELETE"],
                "allowHeaders": ["Content-Type, Authorization"],
                "exposeHeaders": ["X-Total, X-Page"]
              }}},
              {"request": {"uri": "/alias"}, "response": {"text": "x", "cors": {
                "Access-Control-Allow-Origin": "*",
                "Access-Control-Allow-Methods": ["POST, PATCH"],
                "Access-Control-Allow-Headers": ["X-A, X-B", "X-C"],
                "Access-Control-Expose-Headers": ["X-D, X-E"]
              }}}
            ]
            """)
        let preflight = try commas.send(
            "OPTIONS", "/moco", headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "PUT")])
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET, PUT,DELETE")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Headers"), "Content-Type, Authorization")
        let simple = try commas.send("GET", "/moco", headers: [("Origin", "https://app.example")])
        XCTAssertEqual(simple.header("Access-Control-Expose-Headers"), "X-Total, X-Page")
        let put = try commas.send("PUT", "/moco", headers: [("Origin", "https://app.example")], body: "x")
        XCTAssertEqual(put.header("Access-Control-Allow-Origin"), "https://app.example", "PUT is one of the names in \"GET, PUT\"")
        let patch = try commas.send("PATCH", "/moco", headers: [("Origin", "https://app.example")], body: "x")
        XCTAssertNil(patch.header("Access-Control-Allow-Origin"), "PATCH is not listed")

        let alias = try commas.send("OPTIONS", "/alias", headers: [("Origin", "https://x.example")])
        XCTAssertEqual(alias.header("Access-Control-Allow-Methods"), "POST, PATCH")
        XCTAssertEqual(alias.header("Access-Control-Allow-Headers"), "X-A, X-B,X-C")
        let aliasSimple = try commas.send("GET", "/alias", headers: [("Origin", "https://x.example")])
        XCTAssertEqual(aliasSimple.header("Access-Control-Expose-Headers"), "X-D, X-E")

        let fixture = try ConfigFixture()
        try fixture.write("bad.json", #"[{"response": {"cors": {"allowHeaders": ["X-A\r\nX-Injected: 1"]}}}]"#)
        XCTAssertEqual(
            fixture.diagnostics("bad.json").map { "\($0.path): \($0.message)" },
            [
                "[0].response.cors.allowHeaders[0]: expected a name (or names separated by commas) without line breaks"
            ])
    }

    func testBadCORSConfigurations() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "bad.json",
            """
            [
              {"response": {"cors": false}},
              {"response": {"cors": {"allowOrigins": "*"}}},
              {"response": {"cors": {"allowOrigin": "*", "Access-Control-Allow-Origin": "*"}}},
              {"response": {"cors": {"maxAge": {"duration": 1e300, "unit": "day"}}}},
              {"response": {"cors": {"allowMethods": 3, "allowCredentials": "maybe"}}}
            ]
            """)
        let messages = fixture.diagnostics("bad.json").map { "\($0.path): \($0.message)" }
        XCTAssertEqual(
            messages,
            [
                #"[0].response.cors: expected true or an object such as {"allowOrigin": "*"}; leave cors out to disable it"#,
                #"[1].response.cors.allowOrigins: unknown key; did you mean "allowOrigin"?; cors keys: allowOrigin, allowMethods, allowHeaders, maxAge, exposeHeaders, allowCredentials (or their Access-Control-* names)"#,
                #"[2].response.cors.Access-Control-Allow-Origin: repeated key; allowOrigin and Access-Control-Allow-Origin are the same setting"#,
                #"[3].response.cors.maxAge.duration: 1e300 day is too long; a duration is at most 100 years (3153600000 seconds)"#,
                #"[4].response.cors.allowMethods: expected an array of strings, got 3"#,
                #"[4].response.cors.allowCredentials: expected true or false, got "maybe""#,
            ])
    }
}
