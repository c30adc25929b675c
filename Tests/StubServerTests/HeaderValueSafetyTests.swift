import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// No value from a configuration or a request can add a header line (issue 21, point 5).
final class HeaderValueSafetyTests: XCTestCase {
    func testCRLFInACORSValueIsALoadErrorWithItsPath() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json", #"[{"request": {"uri": "/c"}, "response": {"text": "x", "cors": {"allowOrigin": "http://a\r\nX-Injected: 1"}}}]"#)
        let problems = fixture.diagnostics("stubs.json")
        XCTAssertEqual(problems.map(\.path), ["[0].response.cors.allowOrigin"], problems.description)
        XCTAssertTrue(problems.first?.message.contains("cannot contain a CR") == true, problems.description)
        XCTAssertNotNil(problems.first?.position)
    }

    func testNULAndLFInHeadersCookiesAndRedirectsAreLoadErrors() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json",
            #"""
            [{"request": {"uri": "/h", "headers": {"X-Match": "a\nb"}}, "response": {"text": "a\nb", "headers": {"X-A": "a\u0000b"}, "cookies": {"c": {"value": "v", "path": "/\n"}}}},
             {"request": {"uri": "/r"}, "redirectTo": "/x\r\nSet-Cookie: a=b"},
             {"context": "/s", "response": {"headers": {"X-S": "\n"}}, "include": "other.json"},
             {"request": {"uri": "/e"}, "response": {"text": "x"}, "on": {"complete": {"post": {"url": "http://127.0.0.1:9/", "content": "a\nb", "headers": {"X-E": "\r"}}}}}]
            """#)
        try fixture.write("other.json", "[]")
        let paths = Set(fixture.diagnostics("stubs.json").map(\.path))
        XCTAssertEqual(
            paths,
            [
                "[0].response.headers.X-A", "[0].response.cookies.c.path", "[1].redirectTo", "[2].response.headers.X-S",
                "[3].on.complete.post.headers.X-E",
            ], "request matchers and bodies may hold any text")
    }

    func testCommasInCORSListsAreFine() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "stubs.json",
            #"[{"request": {"uri": "/c"}, "response": {"text": "x", "cors": {"allowOrigin": "http://a.test, http://b.test"}}}]"#)
        XCTAssertNoThrow(try fixture.load("stubs.json"))
    }

    func testTheAdminAPIRefusesHeaderInjectionWith400() throws {
        let live = try LiveStubs("[]")
        let added = try live.send(
            "POST", "/__admin/stubs", headers: [("Content-Type", "application/json")],
            body: #"{"request": {"uri": "/c"}, "response": {"text": "x", "cors": {"allowOrigin": "http://a\r\nX-Injected: 1"}}}"#)
        XCTAssertEqual(added.status, 400, added.text)
        XCTAssertTrue(added.text.contains(".response.cors.allowOrigin"), added.text)
        XCTAssertEqual(live.server.stubCount, 0)
    }

    /// A value rendered from the request (percent-decoded CR LF or NUL) is refused with 400.
    func testRenderedValuesCannotSplitTheHead() throws {
        let live = try LiveStubs(
            #"[{"request": {"uri": "/t"}, "response": {"text": "x", "headers": {"X-Echo": {"template": "${req.queries.v}"}}}}]"#)
        for value in ["a%0D%0AX-Injected:%201", "a%0AX-Injected:%201", "a%00b"] {
            let response = try live.send("GET", "/t?v=\(value)")
            XCTAssertEqual(response.status, 400, value)
            XCTAssertTrue(response.text.contains("the header X-Echo would contain"), response.text)
            XCTAssertNil(response.header("X-Injected"), String(decoding: response.rawHead, as: UTF8.self))
        }
        XCTAssertEqual(try live.send("GET", "/t?v=fine").header("X-Echo"), "fine")
    }

    /// The last line of defence for headers built in Swift (custom responders): CR, LF and NUL
    /// become spaces. It compared Characters, and "\r\n" is one Character, neither "\r" nor "\n".
    func testTheWriterNeutralisesLineBreaksInHeaders() {
        var response = HTTPResponse(status: 200)
        response.headers.add(name: "X-A", value: "a\r\nX-Injected: 1\u{0}z")
        var bytes: [UInt8] = []
        _ = HTTPResponseSerializer.appendStatusAndHeaders(of: response) { bytes.append(contentsOf: $0) }
        let head = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(head.contains("X-A: a  X-Injected: 1 z\r\n"), head)
        XCTAssertFalse(head.contains("\r\nX-Injected"), head)
    }
}
