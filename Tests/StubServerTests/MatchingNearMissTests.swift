import XCTest

@testable import StubServer

final class MatchingNearMissTests: XCTestCase {
    func testNamesTheClosestStubAndEachConditionWithExpectedAndActual() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "Stubs/login_conf.json",
            """
            [
              {"request": {"uri": "/api/v1/stories", "method": "GET"}, "response": {"text": "stories"}},
              {"description": "log in with the QA account",
               "request": {"method": "POST", "uri": "/oauth/token",
                           "forms": {"username": "qa@example.com", "password": "secret", "client_id": {"exist": "true"}}},
               "response": {"text": "token"}}
            ]
            """)
        let router = try fixture.load("Stubs/login_conf.json").router
        let miss = router.answer(
            "POST", "/oauth/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "username=qa%40example.com&password=wrong")
        XCTAssertEqual(miss.status, 400)
        XCTAssertNil(miss.stub)
        XCTAssertEqual(miss.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(
            miss.text,
            """
            No stub matched POST /oauth/token

            Closest stub: Stubs/login_conf.json#1 (log in with the QA account)
              ✓ method: "POST"
              ✓ uri: "/oauth/token"
              ✓ forms.username: "qa@example.com"
              ✗ forms.password: expected "secret", got "wrong"
              ✗ forms.client_id: expected present, got nothing

            2nd closest: Stubs/login_conf.json#0
              ✗ method: expected "GET", got "POST"
              ✗ uri: expected "/api/v1/stories", got "/oauth/token"

            2 stubs with request conditions compared; the closest failed 2 of 5.

            """)
    }

    func testReportsBodyProblemsInWords() throws {
        let router = try ConfigFixture().router(#"[{"request": {"uri": "/j", "json": {"a": 1}}, "response": {"text": "x"}}]"#)
        let miss = router.answer("POST", "/j", body: "{oops")
        XCTAssertTrue(
            miss.text.contains(
                #"✗ json: expected JSON equal to {"a":1}, got a body that is not JSON (expected a string key in double quotes, got 'o' at line 1, column 2)"#
            ), miss.text)
    }

    func testWithoutStubsSaysSo() throws {
        let router = try Router(stubs: [])
        XCTAssertEqual(router.answer("GET", "/x").text, "No stub matched GET /x\n\nNo stubs are loaded.\n")
    }

    func testStaysBoundedWhateverTheRequest() throws {
        let router = try ConfigFixture().router(#"[{"request": {"uri": "/a", "text": "short"}, "response": {"text": "x"}}]"#)
        let hugeTarget = "/" + String(repeating: "x", count: 20_000)
        let miss = router.answer("POST", hugeTarget, body: String(repeating: "y", count: 100_000))
        XCTAssertEqual(miss.status, 400)
        XCTAssertLessThanOrEqual(miss.body.count, NearMissReport.maximumBytes)
        XCTAssertTrue(miss.text.contains("(100000 bytes)"), "long values are clipped and say how long they were")
    }

    func testPicksTheStubWithTheMostMatchingWeight() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"method": "GET", "headers": {"A": "1"}, "queries": {"q": "1"}}, "response": {"text": "x"}},
              {"request": {"uri": "/orders", "method": "POST"}, "response": {"text": "y"}}
            ]
            """)
        XCTAssertTrue(router.answer("GET", "/orders").text.contains("Closest stub: stubs.json#1"))
    }
}
