import Foundation
import XCTest
@testable import StubServer

/// Loaded moco configs that must mean what they mean in moco: DecimalFormat in `random`,
/// `vars` extractors, the built-in favicon.
final class MocoLoadedConfigTests: XCTestCase {
    func testRandomWithADecimalFormatShowsTheLeadingZero() throws {
        let stubs = try LiveStubs(#"[{"request": {"uri": "/r"}, "response": {"text": {"template": "${random('#.##')}|${random(10, '00.0')}"}}}]"#)
        for _ in 0..<5 {
            let parts = try stubs.send("GET", "/r").text.split(separator: "|").map(String.init)
            XCTAssertEqual(parts.count, 2)
            XCTAssertNotNil(parts[0].range(of: #"^(0(\.\d{1,2})?|1)$"#, options: .regularExpression), parts[0])
            XCTAssertNotNil(parts[1].range(of: #"^(0\d\.\d|10\.0)$"#, options: .regularExpression), parts[1])
        }
    }

    func testVarsExtractorsInSingularAndPluralForms() throws {
        let stubs = try LiveStubs("""
            [
              {"request": {"uri": "/xml"}, "response": {"text": {"template": {"with": "${a[0]} ${b[0]}", "vars": {"a": {"xpath": "/order/id/text()"}, "b": {"xpaths": "/order/sku"}}}}}},
              {"request": {"uri": "/form"}, "response": {"text": {"template": {"with": "${a[0]} ${b[0]}", "vars": {"a": {"form": "name"}, "b": {"forms": "city"}}}}}},
              {"request": {"uri": "/cookie"}, "response": {"text": {"template": {"with": "${a[0]} ${b[0]}", "vars": {"a": {"cookie": "sid"}, "b": {"cookies": "theme"}}}}}}
            ]
            """)
        XCTAssertEqual(try stubs.send("POST", "/xml", headers: [("Content-Type", "application/xml")], body: "<order><id>7</id><sku>A1</sku></order>").text, "7 A1")
        XCTAssertEqual(try stubs.send("POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "name=neo&city=zion").text, "neo zion")
        XCTAssertEqual(try stubs.send("GET", "/cookie", headers: [("Cookie", "sid=42; theme=dark")]).text, "42 dark")
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
