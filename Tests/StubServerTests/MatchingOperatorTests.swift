import XCTest

@testable import StubServer

final class MatchingOperatorTests: XCTestCase {
    func testOperatorsOnUri() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"uri": {"match": "/op/m/\\\\d+"}}, "response": {"text": "match"}},
              {"request": {"uri": {"startsWith": "/op/s"}}, "response": {"text": "startsWith"}},
              {"request": {"uri": {"endsWith": ".png"}}, "response": {"text": "endsWith"}},
              {"request": {"uri": {"contain": "needle"}}, "response": {"text": "contain"}},
              {"request": {"uri": {"path": "/op/p/{id}/*/x"}}, "response": {"text": "path"}},
              {"request": {"uri": {"path": "/files/**/{name}.txt"}}, "response": {"text": {"template": "file ${req.path.name}"}}}
            ]
            """)
        XCTAssertEqual(router.answer("GET", "/op/m/123").text, "match")
        XCTAssertEqual(router.answer("GET", "/op/m/123/x").status, 400, "match must cover the whole uri")
        XCTAssertEqual(router.answer("GET", "/op/start").text, "startsWith")
        XCTAssertEqual(router.answer("GET", "/a/b.png").text, "endsWith")
        XCTAssertEqual(router.answer("GET", "/hay/needle/hay").text, "contain")
        XCTAssertEqual(router.answer("GET", "/op/p/7/anything/x").text, "path")
        XCTAssertEqual(router.answer("GET", "/op/p/7/a/b/x").status, 400, "* stays inside one segment")
        XCTAssertEqual(router.answer("GET", "/files/a/b/c/report.txt").text, "file report")
        XCTAssertEqual(router.answer("GET", "/files/report.txt").text, "file report", "** may match no segment")
    }

    func testExistOnHeadersQueriesAndBody() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"uri": "/h", "headers": {"X-Token": {"exist": "true"}}}, "response": {"text": "has token"}},
              {"request": {"uri": "/h", "headers": {"X-Token": {"exist": "false"}}}, "response": {"text": "no token"}},
              {"request": {"uri": "/q", "queries": {"flag": {"exist": true}}}, "response": {"text": "flag"}},
              {"request": {"uri": "/b", "text": {"exist": "false"}}, "response": {"text": "empty body"}},
              {"request": {"uri": "/b", "text": {"exist": "TRUE"}}, "response": {"text": "some body"}}
            ]
            """)
        XCTAssertEqual(router.answer("GET", "/h", headers: [("x-token", "1")]).text, "has token")
        XCTAssertEqual(router.answer("GET", "/h").text, "no token")
        XCTAssertEqual(router.answer("GET", "/q?flag").text, "flag", "?flag has the value \"\"")
        XCTAssertEqual(router.answer("GET", "/q?flag=").text, "flag")
        XCTAssertEqual(router.answer("GET", "/q?other=1").status, 400)
        XCTAssertEqual(router.answer("POST", "/b").text, "empty body")
        XCTAssertEqual(router.answer("POST", "/b", body: "x").text, "some body")
    }

    func testMultiValuedSourcesMatchIfAnyValueMatches() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"queries": {"tag": "b"}, "headers": {"Accept": {"contain": "json"}}}, "response": {"text": "any"}}
            ]
            """)
        XCTAssertEqual(
            router.answer("GET", "/?tag=a&tag=b", headers: [("Accept", "text/html"), ("Accept", "application/json")]).text, "any")
        XCTAssertEqual(router.answer("GET", "/?tag=a&tag=c", headers: [("Accept", "application/json")]).status, 400)
    }

    func testMethodIsCaseInsensitiveAndVersionExact() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"method": "post", "uri": "/m"}, "response": {"text": "post"}},
              {"request": {"method": {"match": "get|put"}, "uri": "/m"}, "response": {"text": "get or put"}},
              {"request": {"uri": "/v", "version": "HTTP/1.0"}, "response": {"text": "old"}}
            ]
            """)
        XCTAssertEqual(router.answer("POST", "/m").text, "post")
        XCTAssertEqual(router.answer("PUT", "/m").text, "get or put")
        XCTAssertEqual(router.answer("DELETE", "/m").status, 400)
        XCTAssertEqual(router.answer("GET", "/v", version: .http1_0).text, "old")
        XCTAssertEqual(router.answer("GET", "/v").status, 400)
    }

    func testUriIsThePercentDecodedPathWithoutQuery() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"uri": "/a b/ü"}, "response": {"text": "decoded"}},
              {"request": {"uri": "/plus+sign"}, "response": {"text": "plus"}},
              {"request": {"uri": "/trailing/"}, "response": {"text": "slash"}}
            ]
            """)
        XCTAssertEqual(router.answer("GET", "/a%20b/%C3%BC?x=1").text, "decoded")
        XCTAssertEqual(router.answer("GET", "/plus+sign").text, "plus", "+ is not a space in a path")
        XCTAssertEqual(router.answer("GET", "/trailing").status, 400, "a trailing slash is significant")
        XCTAssertEqual(router.answer("GET", "/trailing/").text, "slash")
        XCTAssertEqual(router.answer("GET", "/%zz").status, 400, "a malformed escape is no match, not a crash")
    }

    func testCookiesAndForms() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"cookies": {"sid": "42"}}, "response": {"text": "cookie"}},
              {"request": {"forms": {"name": "neo", "city": {"startsWith": "Zi"}}}, "response": {"text": "form"}}
            ]
            """)
        XCTAssertEqual(router.answer("GET", "/", headers: [("Cookie", "theme=dark; sid=\"42\"")]).text, "cookie")
        XCTAssertEqual(
            router.answer("POST", "/", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "name=neo&city=Z%C3%BCrich")
                .status, 400)
        XCTAssertEqual(
            router.answer("POST", "/", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "city=Zion&name=neo").text,
            "form")
        let multipart = [
            "--XyZ", "Content-Disposition: form-data; name=\"name\"", "", "neo",
            "--XyZ", "Content-Disposition: form-data; name=\"upload\"; filename=\"city.txt\"", "Content-Type: text/plain", "", "Berlin",
            "--XyZ", "Content-Disposition: form-data; name=\"city\"", "", "Zion",
            "--XyZ--", "",
        ].joined(separator: "\r\n")
        XCTAssertEqual(
            router.answer("POST", "/", headers: [("Content-Type", "multipart/form-data; boundary=\"XyZ\"")], body: multipart).text, "form")
    }

    func testBodyMatchers() throws {
        let fixture = try ConfigFixture()
        try fixture.write("expected.txt", "exact file body")
        try fixture.write("expected.json", #"{"b": [1, 2], "a": "x"}"#)
        let router = try fixture.router(
            """
            [
              {"request": {"uri": "/text", "text": "hello"}, "response": {"text": "text"}},
              {"request": {"uri": "/text-json", "text": {"json": "{\\"a\\": 1}"}}, "response": {"text": "text json"}},
              {"request": {"uri": "/json", "json": {"a": 1, "b": [true, null]}}, "response": {"text": "json"}},
              {"request": {"uri": "/file", "file": "expected.txt"}, "response": {"text": "file"}},
              {"request": {"uri": "/file-json", "file": {"json": "expected.json"}}, "response": {"text": "file json"}},
              {"request": {"uri": "/paths", "json_paths": {"$.items[*].sku": "A1", "$.total": {"match": "\\\\d+"}}}, "response": {"text": "json paths"}},
              {"request": {"uri": "/struct", "struct": {"json": {"id": 0, "tags": [""], "meta": null}}}, "response": {"text": "struct"}},
              {"request": {"uri": "/xml", "text": {"xml": "<a><b>1</b></a>"}}, "response": {"text": "xml"}},
              {"request": {"uri": "/xpath", "xpaths": {"/order/id/text()": "7", "//line[@sku='B']/@qty": "2"}}, "response": {"text": "xpath"}},
              {"request": {"uri": "/struct-xml", "struct": {"xml": "<r><id>1</id><name/></r>"}}, "response": {"text": "struct xml"}}
            ]
            """)
        XCTAssertEqual(router.answer("POST", "/text", body: "hello").text, "text")
        XCTAssertEqual(router.answer("POST", "/text", body: "hello ").status, 400, "the body is not trimmed")
        XCTAssertEqual(router.answer("POST", "/text-json", body: " { \"a\" : 1 } ").text, "text json")
        XCTAssertEqual(router.answer("POST", "/json", body: #"{"b": [true, null], "a": 1}"#).text, "json")
        XCTAssertEqual(router.answer("POST", "/json", body: #"{"a": 1.0, "b": [true, null]}"#).status, 400, "1 is not 1.0")
        XCTAssertEqual(router.answer("POST", "/json", body: #"{"a": 1, "b": [null, true]}"#).status, 400, "array order matters")
        XCTAssertEqual(router.answer("POST", "/json", body: "{broken").status, 400, "an unparsable body is no match")
        XCTAssertEqual(router.answer("POST", "/file", body: "exact file body").text, "file")
        XCTAssertEqual(router.answer("POST", "/file-json", body: #"{"a":"x","b":[1,2]}"#).text, "file json")
        XCTAssertEqual(router.answer("POST", "/paths", body: #"{"items": [{"sku": "Z9"}, {"sku": "A1"}], "total": 12}"#).text, "json paths")
        XCTAssertEqual(router.answer("POST", "/paths", body: #"{"items": [{"sku": "Z9"}], "total": 12}"#).status, 400)
        XCTAssertEqual(
            router.answer("POST", "/struct", body: #"{"id": 9, "tags": ["a", "b"], "meta": {"x": 1}, "extra": true}"#).text, "struct")
        XCTAssertEqual(router.answer("POST", "/struct", body: #"{"id": "9", "tags": [], "meta": 1}"#).status, 400, "id must be a number")
        XCTAssertEqual(router.answer("POST", "/xml", body: "<a>\n  <!-- note -->\n  <b>1</b>\n</a>").text, "xml")
        XCTAssertEqual(router.answer("POST", "/xml", body: "<a><b>2</b></a>").status, 400)
        XCTAssertEqual(router.answer("POST", "/xml", body: "not xml at all").status, 400, "an unparsable body is no match")
        XCTAssertEqual(
            router.answer("POST", "/xpath", body: "<order><id>7</id><line sku='A' qty='1'/><line sku='B' qty='2'/></order>").text, "xpath")
        XCTAssertEqual(router.answer("POST", "/struct-xml", body: "<r><id>99</id><name>x</name></r>").text, "struct xml")
        XCTAssertEqual(router.answer("POST", "/struct-xml", body: "<r><id>99</id></r>").status, 400)
    }

    func testFirstMatchInConfigOrderWinsAndCatchAllsComeLast() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"response": {"text": "first catch-all"}},
              {"request": {"uri": {"startsWith": "/a"}}, "response": {"text": "prefix"}},
              {"request": {"uri": "/a/b"}, "response": {"text": "exact, but later"}},
              {"response": {"text": "second catch-all"}}
            ]
            """)
        XCTAssertEqual(router.answer("GET", "/a/b").text, "prefix")
        let fallback = router.answer("GET", "/zzz")
        XCTAssertEqual(fallback.text, "first catch-all")
        XCTAssertEqual(fallback.stub?.description, "stubs.json#0")
        XCTAssertEqual(router.references.map(\.index), [1, 2, 0, 3])
    }

    func testAntPathPatterns() throws {
        XCTAssertEqual(try AntPathPattern("/a/{x}.{y}").match("/a/v1.tar.gz"), ["x": "v1.tar", "y": "gz"], "greedy, like Spring")
        XCTAssertEqual(try AntPathPattern("/n/{id:\\d+}").match("/n/42"), ["id": "42"])
        XCTAssertNil(try AntPathPattern("/n/{id:\\d+}").match("/n/4x"))
        XCTAssertEqual(try AntPathPattern("/f?o").match("/foo"), [:])
        XCTAssertNil(try AntPathPattern("/a/*").match("/a/"))
        XCTAssertEqual(try AntPathPattern("/a/**").match("/a/b/c/"), [:])
        XCTAssertEqual(try AntPathPattern("/plain").literal, "/plain")
        XCTAssertThrowsError(try AntPathPattern("/a/{unclosed"))
    }

    func testAntPathPatternEdges() throws {
        XCTAssertEqual(try AntPathPattern("/a/{x}/**/c/{y}").match("/a/1/b/b/c/2"), ["x": "1", "y": "2"])
        XCTAssertEqual(try AntPathPattern("/a/**/{y}").match("/a/9"), ["y": "9"], "** may take no segment")
        XCTAssertEqual(try AntPathPattern("/a/{x}").match("//a//7"), ["x": "7"], "empty segments are skipped")
        XCTAssertNil(try AntPathPattern("/a/{x}").match("/a/7/"), "a trailing slash must match")
        XCTAssertEqual(try AntPathPattern("/a/{x}/").match("/a/7/"), ["x": "7"])
        XCTAssertEqual(try AntPathPattern("/?/b").match("/ü/b"), [:], "? is one character, not one byte")
        XCTAssertEqual(try AntPathPattern("/f/{n}-{v:\\d+}.js").match("/f/app-lib-12.js"), ["n": "app-lib", "v": "12"])
        XCTAssertNil(try AntPathPattern("/f/{n}-{v:\\d+}.js").match("/f/app-x.js"))
        XCTAssertNil(try AntPathPattern("a/{x}").match("/a/1"), "a pattern without a leading slash needs a path without one")
        XCTAssertEqual(try AntPathPattern("/*.png").match("/x.png"), [:])
        XCTAssertNil(try AntPathPattern("/*.png").match("/x.png/y"))
    }

    func testContainIsASubstringSearchOnAnyText() throws {
        let router = try Router(stubs: [
            StubDefinition(request: RequestPattern(headers: ["Accept": .contain("json")]), response: .text("json")),
            StubDefinition(request: RequestPattern(headers: ["X-Name": .contain("ü")]), response: .text("umlaut")),
            StubDefinition(request: RequestPattern(uri: .contain("/b/")), response: .text("b")),
        ])
        XCTAssertEqual(router.answer("GET", "/x", headers: [("Accept", "application/json; q=1")]).text, "json")
        XCTAssertEqual(router.answer("GET", "/x", headers: [("X-Name", "Müller")]).text, "umlaut")
        XCTAssertEqual(
            router.answer("GET", "/x", headers: [("X-Name", "Mu\u{308}ller")]).text, "umlaut",
            "canonically equivalent text still contains it")
        XCTAssertEqual(router.answer("GET", "/a/b/c").text, "b")
        XCTAssertEqual(router.answer("GET", "/a/bc").status, 400)
    }

    func testJSONPathSubset() throws {
        let json = try JSONValue(
            parsing: #"{"store": {"book": [{"title": "A", "price": 8}, {"title": "B", "price": 22, "isbn": "x"}], "bike": {"price": 19}}}"#)
        func titles(_ path: String) throws -> [String] { try JSONPath(path).evaluate(json).map(\.scalarText) }
        XCTAssertEqual(try titles("$.store.book[*].title"), ["A", "B"])
        XCTAssertEqual(try titles("$.store.book[-1].title"), ["B"])
        XCTAssertEqual(try titles("$..price"), ["8", "22", "19"])
        XCTAssertEqual(try titles("$.store.book[?(@.price < 10)].title"), ["A"])
        XCTAssertEqual(try titles("$.store.book[?(@.isbn)].title"), ["B"])
        XCTAssertEqual(try titles("$['store']['bike'].price"), ["19"])
        XCTAssertEqual(try titles("$.store.book[0:1].title"), ["A"])
        XCTAssertTrue(try JSONPath("$.a.b[0]").isDefinite)
        XCTAssertFalse(try JSONPath("$.a[*]").isDefinite)
        XCTAssertThrowsError(try JSONPath("$.a[?(x)]"))
    }
}
