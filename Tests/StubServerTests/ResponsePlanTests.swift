import Foundation
import XCTest

@testable import StubServer

final class ResponsePlanTests: XCTestCase {
    func testBodiesAndTheirDefaultContentTypes() throws {
        let fixture = try ConfigFixture()
        try fixture.write("logo.png", "PNG")
        try fixture.write("page.html", "<p>hi</p>")
        try fixture.write("data.bin", "raw")
        try fixture.write("gbk.txt", "text")
        let router = try fixture.router(
            """
            [
              {"request": {"uri": "/text"}, "response": {"text": "hello"}},
              {"request": {"uri": "/json"}, "response": {"json": {"b": 1, "a": [true, null, "x"]}}},
              {"request": {"uri": "/json-string"}, "response": {"json": "raw"}},
              {"request": {"uri": "/png"}, "response": {"file": "logo.png"}},
              {"request": {"uri": "/html"}, "response": {"file": "page.html"}},
              {"request": {"uri": "/bin"}, "response": {"file": "data.bin"}},
              {"request": {"uri": "/gbk"}, "response": {"file": {"name": "gbk.txt", "charset": "GBK"}}},
              {"request": {"uri": "/status"}, "response": {"status": "418"}},
              {"request": {"uri": "/empty"}, "response": {}}
            ]
            """)
        let text = router.answer("GET", "/text")
        XCTAssertEqual(text.status, 200)
        XCTAssertEqual(text.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertTrue(text.wasPrepared, "a static response is serialised once")
        XCTAssertNil(text.version, "answers with the request's version")
        let json = router.answer("GET", "/json")
        XCTAssertEqual(json.text, #"{"b":1,"a":[true,null,"x"]}"#, "compact, in key order")
        XCTAssertEqual(json.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(router.answer("GET", "/json-string").text, "raw")
        XCTAssertEqual(router.answer("GET", "/png").header("Content-Type"), "image/png")
        XCTAssertEqual(router.answer("GET", "/html").header("Content-Type"), "text/html")
        XCTAssertEqual(router.answer("GET", "/bin").header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(router.answer("GET", "/gbk").header("Content-Type"), "text/plain; charset=gbk")
        XCTAssertTrue(router.answer("GET", "/png").wasPrepared, "a literal file's response is serialised once per version of the file")
        let status = router.answer("GET", "/status")
        XCTAssertEqual(status.status, 418)
        XCTAssertTrue(status.body.isEmpty)
        XCTAssertTrue(status.headers.isEmpty)
        XCTAssertEqual(router.answer("GET", "/empty").status, 200)
    }

    func testFilesAreReadPerRequest() throws {
        let fixture = try ConfigFixture()
        try fixture.write("body.json", #"{"v":1}"#)
        let router = try fixture.router(#"[{"response": {"file": "body.json"}}]"#)
        XCTAssertEqual(router.answer("GET", "/").text, #"{"v":1}"#)
        try fixture.write("body.json", #"{"v":2}"#)
        XCTAssertEqual(router.answer("GET", "/").text, #"{"v":2}"#)
        try FileManager.default.removeItem(atPath: fixture.path("body.json"))
        let missing = router.answer("GET", "/")
        XCTAssertEqual(missing.status, 400, "moco answers 400 when a file is missing")
        XCTAssertTrue(missing.text.hasPrefix("stubserver: stubs.json#0 could not build its response: no file \"body.json\""), missing.text)
    }

    func testHeadersCookiesVersionLatencyAndStatusTogether() throws {
        let router = try ConfigFixture().router(
            """
            [{"response": {
                "text": "made",
                "status": 201,
                "headers": {"Location": {"template": "/orders/${req.queries['id']}"}, "content-type": "text/csv", "X-Count": 3},
                "cookies": {
                  "plain": "v1",
                  "pref": {"value": "dark", "path": "/", "domain": "example.test", "secure": "true", "httpOnly": true,
                           "maxAge": {"duration": 1, "unit": "hour"}, "sameSite": "Lax"},
                  "echo": {"template": "${req.queries['id']}"}
                },
                "version": "HTTP/1.0",
                "latency": {"duration": 1.5, "unit": "seconds"}
            }}]
            """)
        let response = router.answer("POST", "/?id=42")
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.header("Location"), "/orders/42")
        XCTAssertEqual(
            response.headers.values(for: "Content-Type"), ["text/csv"], "a user content type replaces the default, whatever its case")
        XCTAssertEqual(response.header("X-Count"), "3")
        let cookies = response.headers.values(for: "Set-Cookie")
        XCTAssertEqual(cookies.count, 3)
        XCTAssertEqual(cookies[0], "plain=v1")
        XCTAssertNotNil(
            cookies[1].range(
                of:
                    #"^pref=dark; Max-Age=3600; Expires=(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT; Path=/; Domain=example.test; Secure; HTTPOnly; SameSite=Lax$"#,
                options: .regularExpression), cookies[1])
        XCTAssertEqual(cookies[2], "echo=42")
        XCTAssertEqual(response.version, .http1_0)
        XCTAssertEqual(response.delay, .milliseconds(1500))
        XCTAssertEqual(router.answer("POST", "/?id=a%0D%0Ab").status, 400, "a template cannot smuggle a line break into a header")
    }

    func testHTTPDatesAreIMFFixdate() {
        XCTAssertEqual(SetCookieEncoder.httpDate(Date(timeIntervalSince1970: 784_111_777)), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(SetCookieEncoder.httpDate(Date(timeIntervalSince1970: 951_782_400)), "Tue, 29 Feb 2000 00:00:00 GMT")
    }

    func testSeqRepeatsTheLastAndCycleWraps() throws {
        let router = try ConfigFixture().router(
            """
            [
              {"request": {"uri": "/seq"}, "response": {"headers": {"X-Kind": "seq"}, "seq": [{"text": "one"}, {"text": "two", "status": 202}]}},
              {"request": {"uri": "/cycle"}, "response": {"cycle": [{"text": "a"}, {"text": "b"}, {"json": {"c": 3}}]}}
            ]
            """)
        XCTAssertEqual((0..<4).map { _ in router.answer("GET", "/seq").text }, ["one", "two", "two", "two"])
        let later = router.answer("GET", "/seq")
        XCTAssertEqual(later.status, 202)
        XCTAssertEqual(later.header("X-Kind"), "seq", "the session's own keys apply to every element")
        XCTAssertEqual((0..<7).map { _ in router.answer("GET", "/cycle").text }, ["a", "b", #"{"c":3}"#, "a", "b", #"{"c":3}"#, "a"])
        XCTAssertEqual(router.answer("GET", "/cycle").header("Content-Type"), "text/plain; charset=utf-8")
    }

    func testCycleIsExactUnderConcurrentRequests() throws {
        let router = try ConfigFixture().router(#"[{"response": {"cycle": [{"text": "0"}, {"text": "1"}, {"text": "2"}, {"text": "3"}]}}]"#)
        let counts = Counter()
        DispatchQueue.concurrentPerform(iterations: 400) { _ in
            counts.add(router.answer("GET", "/").text)
        }
        XCTAssertEqual(counts.snapshot, ["0": 100, "1": 100, "2": 100, "3": 100])
    }

    func testRedirectAndAttachment() throws {
        let fixture = try ConfigFixture()
        try fixture.write("report.csv", "a,b\n1,2\n")
        let router = try fixture.router(
            """
            [
              {"request": {"uri": "/old"}, "redirectTo": "/new"},
              {"request": {"uri": "/go"}, "redirectTo": {"template": "https://example.test/${req.queries['to']}"}},
              {"request": {"uri": "/download"}, "response": {"attachment": {"filename": "report.csv", "file": "report.csv"}}},
              {"request": {"uri": "/note"}, "response": {"attachment": {"filename": "note.txt", "text": "remember"}}}
            ]
            """)
        let redirect = router.answer("GET", "/old")
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(redirect.header("Location"), "/new")
        XCTAssertTrue(redirect.body.isEmpty)
        XCTAssertEqual(router.answer("GET", "/go?to=x").header("Location"), "https://example.test/x")
        let download = router.answer("GET", "/download")
        XCTAssertEqual(download.header("Content-Disposition"), "attachment; filename=report.csv")
        XCTAssertEqual(download.text, "a,b\n1,2\n")
        XCTAssertEqual(router.answer("GET", "/note").header("Content-Disposition"), "attachment; filename=note.txt")
        XCTAssertEqual(router.answer("GET", "/note").text, "remember")
    }

    func testFileContentAndFileNameTemplates() throws {
        let fixture = try ConfigFixture()
        try fixture.write("greeting.txt", "Hello ${req.queries['name']!'you'} (${site})")
        try fixture.write("stories/7.json", #"{"id":7}"#)
        let router = try fixture.router(
            """
            [
              {"request": {"uri": "/greet"}, "response": {"file": {"template": {"with": "greeting.txt", "vars": {"site": "DN"}}}}},
              {"request": {"uri": {"path": "/stories/{id}"}}, "response": {"file": {"name": {"template": "stories/${req.path.id}.json"}}}}
            ]
            """)
        XCTAssertEqual(router.answer("GET", "/greet?name=Ann").text, "Hello Ann (DN)")
        XCTAssertEqual(router.answer("GET", "/stories/7").text, #"{"id":7}"#)
        XCTAssertEqual(router.answer("GET", "/stories/7").header("Content-Type"), "application/json")
        XCTAssertEqual(router.answer("GET", "/stories/8").status, 400)
    }

    func testSwiftBuiltStubs() throws {
        let fixture = try ConfigFixture()
        try fixture.write("stories.json", #"{"stories":[]}"#)
        let router = try Router(stubs: [
            StubDefinition(
                request: .post("/oauth/token", forms: ["username": "qa@example.com", "password": "secret"]),
                response: .json(["access_token": "abc", "expires_in": 7200]),
                description: "login"),
            StubDefinition(
                request: .get("/api/v1/stories", queries: ["client_id": .exist(true)]),
                response: .file("stories.json").latency(.milliseconds(250)).header("X-Page", "1"),
                scope: StubScope(fileRoot: fixture.root)),
            StubDefinition(request: .get(.path("/hello/{name}")), response: .text(.template("hi ${req.path.name}"))),
            .redirect(.get("/"), to: "/api/v1/stories"),
            .catchAll(.json(["error": "not_found"], status: 404)),
        ])
        let login = router.answer(
            "POST", "/oauth/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "username=qa%40example.com&password=secret")
        XCTAssertEqual(login.text, #"{"access_token":"abc","expires_in":7200}"#)
        XCTAssertEqual(login.stub, StubReference(file: "stubs", index: 0))
        let stories = router.answer("GET", "/api/v1/stories?client_id=x")
        XCTAssertEqual(stories.text, #"{"stories":[]}"#)
        XCTAssertEqual(stories.delay, .milliseconds(250))
        XCTAssertEqual(stories.header("X-Page"), "1")
        XCTAssertEqual(router.answer("GET", "/hello/ann").text, "hi ann")
        XCTAssertEqual(router.answer("GET", "/").header("Location"), "/api/v1/stories")
        XCTAssertEqual(router.answer("GET", "/nope").status, 404)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func add(_ key: String) {
        lock.lock()
        counts[key, default: 0] += 1
        lock.unlock()
    }
    var snapshot: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}
