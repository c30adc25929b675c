import Foundation
import XCTest

@testable import StubServer

/// Loaded moco configs that must mean what they mean in moco: DecimalFormat in `random`,
/// `vars` extractors, the built-in favicon.
final class MocoLoadedConfigTests: XCTestCase {
    func testRandomWithADecimalFormatShowsTheLeadingZero() throws {
        let stubs = try LiveStubs(
            #"[{"request": {"uri": "/r"}, "response": {"text": {"template": "${random('#.##')}|${random(10, '00.0')}"}}}]"#)
        for _ in 0..<5 {
            let parts = try stubs.send("GET", "/r").text.split(separator: "|").map(String.init)
            XCTAssertEqual(parts.count, 2)
            XCTAssertNotNil(parts[0].range(of: #"^(0(\.\d{1,2})?|1)$"#, options: .regularExpression), parts[0])
            XCTAssertNotNil(parts[1].range(of: #"^(0\d\.\d|10\.0)$"#, options: .regularExpression), parts[1])
        }
    }

    func testVarsExtractorsInSingularAndPluralForms() throws {
        let stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/xml"}, "response": {"text": {"template": {"with": "${a[0]} ${b[0]}", "vars": {"a": {"xpath": "/order/id/text()"}, "b": {"xpaths": "/order/sku"}}}}}},
              {"request": {"uri": "/form"}, "response": {"text": {"template": {"with": "${a} ${b}", "vars": {"a": {"form": "name"}, "b": {"forms": "city"}}}}}},
              {"request": {"uri": "/cookie"}, "response": {"text": {"template": {"with": "${a} ${b}", "vars": {"a": {"cookie": "sid"}, "b": {"cookies": "theme"}}}}}}
            ]
            """)
        XCTAssertEqual(
            try stubs.send("POST", "/xml", headers: [("Content-Type", "application/xml")], body: "<order><id>7</id><sku>A1</sku></order>")
                .text, "7 A1")
        XCTAssertEqual(
            try stubs.send("POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "name=neo&city=zion")
                .text, "neo zion")
        XCTAssertEqual(try stubs.send("GET", "/cookie", headers: [("Cookie", "sid=42; theme=dark")]).text, "42 dark")
    }

    /// moco's `form` and `cookie` extractors give one value (`${u}`), where ours gave a list
    /// ("u is a list"); a repeated field gives its first value.
    func testFormAndCookieExtractorsGiveTheSingleValue() throws {
        let stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/login"}, "response": {"text": {"template": {"with": "hello ${u}", "vars": {"u": {"form": "user"}}}}}},
              {"request": {"uri": "/multi"}, "response": {"text": {"template": {"with": "${u}", "vars": {"u": {"form": "user"}}}}}},
              {"request": {"uri": "/missing"}, "response": {"text": {"template": {"with": "${u!'nobody'}", "vars": {"u": {"form": "user"}}}}}}
            ]
            """)
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        let login = try stubs.send("POST", "/login", headers: form, body: "user=neo&pass=x")
        XCTAssertEqual(login.status, 200, login.text)
        XCTAssertEqual(login.text, "hello neo")
        XCTAssertEqual(try stubs.send("POST", "/multi", headers: form, body: "user=a&user=b").text, "a")
        XCTAssertEqual(try stubs.send("POST", "/missing", headers: form, body: "pass=x").text, "nobody")
        let multipart = try stubs.send(
            "POST", "/login", headers: [("Content-Type", "multipart/form-data; boundary=XX")],
            body: "--XX\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\ntrinity\r\n--XX--\r\n")
        XCTAssertEqual(multipart.text, "hello trinity")
    }

    /// moco refuses an `on.complete` post with no body ("content or json should be setup for
    /// post event"); we loaded it and posted nothing.
    func testCompletePostWithoutContentOrJSONIsALoadTimeError() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "e.json",
            #"[{"request": {"uri": "/a"}, "response": {"text": "a"}, "on": {"complete": {"post": {"url": "http://127.0.0.1:9/x"}}}}]"#)
        XCTAssertEqual(
            fixture.diagnostics("e.json").map { "\($0.path): \($0.message)" },
            [
                #"[0].on.complete.post: a post needs "content" or "json" (the body to send)"#
            ])
    }

    func testFaviconIsAnsweredWhenNothingMatchesAndAnySessionOverridesIt() throws {
        let plain = try LiveStubs(#"[{"request": {"uri": "/x"}, "response": {"text": "x"}}]"#)
        let icon = try plain.send("GET", "/favicon.ico")
        XCTAssertEqual(icon.status, 200)
        XCTAssertEqual(icon.header("Content-Type"), "image/png")
        XCTAssertEqual(Array(icon.body.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try plain.send("POST", "/favicon.ico", body: "").status, 400)
        let deadline = Date().addingTimeInterval(10)
        while plain.server.journal.count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(plain.server.journal.entries.first?.stub?.file, "(built-in favicon)")

        let own = try LiveStubs(#"[{"request": {"uri": "/favicon.ico"}, "response": {"file": "mine.ico"}}]"#, files: ["mine.ico": "MINE"])
        XCTAssertEqual(try own.send("GET", "/favicon.ico").text, "MINE")
        let catchAll = try LiveStubs(#"[{"response": {"status": 404}}]"#)
        XCTAssertEqual(try catchAll.send("GET", "/favicon.ico").status, 404)
    }
}
