import XCTest

@testable import StubServer

final class ConfigLoaderTests: XCTestCase {
    func testMixedFileOfSettingsEntriesAndSessionsResolvesIncludesNextToIt() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "Stubs/settings.json",
            """
            [
              {"include": "login_conf.json"},
              {"request": {"uri": "/ping"}, "response": {"text": "pong"}}
            ]
            """)
        try fixture.write("Stubs/login_conf.json", #"[{"request": {"uri": "/login"}, "response": {"file": "token.json"}}]"#)
        try fixture.write("Stubs/token.json", #"{"token":"t"}"#)
        let loaded = try fixture.load("Stubs/settings.json")
        let login = loaded.router.answer("GET", "/login")
        XCTAssertEqual(login.text, #"{"token":"t"}"#)
        XCTAssertEqual(login.stub?.description, "Stubs/login_conf.json#0")
        XCTAssertEqual(loaded.router.answer("GET", "/ping").stub?.description, "Stubs/settings.json#1")
        XCTAssertEqual(loaded.watchedFiles, [fixture.path("Stubs/settings.json"), fixture.path("Stubs/login_conf.json")])
    }

    func testWorkingDirectoryRelativeNamesStillWorkAsInMoco() throws {
        // moco resolves includes and files against the working directory: Stubs/… from the repo root.
        let fixture = try ConfigFixture()
        try fixture.write("Stubs/settings.json", #"[{"include": "Stubs/api.json"}]"#)
        try fixture.write("Stubs/api.json", #"[{"request": {"uri": "/a"}, "response": {"file": "Stubs/bodies/a.txt"}}]"#)
        try fixture.write("Stubs/bodies/a.txt", "from the working directory")
        let router = try fixture.load("Stubs/settings.json").router
        XCTAssertEqual(router.answer("GET", "/a").text, "from the working directory")
    }

    func testIncludeGlobsLoadInSortedOrderAndSkipTheIncludingFile() throws {
        let fixture = try ConfigFixture()
        try fixture.write("conf/all.json", #"[{"include": "*.json"}]"#)
        try fixture.write("conf/b.json", #"[{"request": {"uri": "/x"}, "response": {"text": "b"}}]"#)
        try fixture.write("conf/a.json", #"[{"request": {"uri": "/x"}, "response": {"text": "a"}}]"#)
        try fixture.write("conf/notes.txt", "not json")
        let router = try fixture.load("conf/all.json").router
        XCTAssertEqual(router.answer("GET", "/x").text, "a", "a.json loads before b.json, so it wins")
        XCTAssertEqual(router.stubCount, 2)
    }

    func testTopLevelGlobLoadsEveryMatch() throws {
        let fixture = try ConfigFixture()
        try fixture.write("conf/one.json", #"[{"request": {"uri": "/1"}, "response": {"text": "one"}}]"#)
        try fixture.write("conf/two.json", #"[{"request": {"uri": "/2"}, "response": {"text": "two"}}]"#)
        let loaded = try fixture.load("conf/*.json")
        XCTAssertEqual(loaded.router.answer("GET", "/2").text, "two")
        XCTAssertEqual(loaded.watchedFiles.count, 2)
    }

    func testContextPrefixesEveryKindOfUriAndFencesCatchAlls() throws {
        let fixture = try ConfigFixture()
        try fixture.write("settings.json", #"[{"context": "/billing", "include": "billing.json"}]"#)
        try fixture.write(
            "billing.json",
            """
            [
              {"request": {"uri": "/invoices"}, "response": {"text": "equal"}},
              {"request": {"uri": {"match": "/invoices/\\\\d+"}}, "response": {"text": "regex"}},
              {"request": {"uri": {"startsWith": "/refunds"}}, "response": {"text": "prefix"}},
              {"request": {"uri": {"path": "/customers/{id}"}}, "response": {"text": {"template": "customer ${req.path.id}"}}},
              {"request": {"uri": {"endsWith": ".csv"}}, "response": {"text": "suffix"}},
              {"request": {"method": "DELETE"}, "response": {"text": "no uri"}},
              {"response": {"status": 404, "text": "billing fallback"}}
            ]
            """)
        let router = try fixture.load("settings.json").router
        XCTAssertEqual(router.answer("GET", "/billing/invoices").text, "equal")
        XCTAssertEqual(router.answer("GET", "/invoices").status, 400, "without the context nothing matches")
        XCTAssertEqual(router.answer("GET", "/billing/invoices/42").text, "regex")
        XCTAssertEqual(router.answer("GET", "/billing/refunds/7").text, "prefix")
        XCTAssertEqual(router.answer("GET", "/billing/customers/c-9").text, "customer c-9")
        XCTAssertEqual(router.answer("GET", "/billing/export.csv").text, "suffix")
        XCTAssertEqual(router.answer("GET", "/elsewhere/export.csv").status, 400)
        XCTAssertEqual(router.answer("DELETE", "/billing/anything").text, "no uri")
        XCTAssertEqual(router.answer("DELETE", "/shipping/anything").status, 400)
        XCTAssertEqual(router.answer("GET", "/billing/unknown").text, "billing fallback")
        let outside = router.answer("GET", "/other")
        XCTAssertEqual(outside.status, 400)
        XCTAssertNil(outside.stub, "the catch-all only answers inside its context")
    }

    func testFileRootAppliesToIncludesAndFiles() throws {
        let fixture = try ConfigFixture()
        try fixture.write("settings.json", #"[{"file_root": "fixtures", "include": "api.json"}]"#)
        try fixture.write("fixtures/api.json", #"[{"request": {"uri": "/a"}, "response": {"file": "a.txt"}}]"#)
        try fixture.write("fixtures/a.txt", "rooted")
        try fixture.write("a.txt", "not this one")
        XCTAssertEqual(try fixture.load("settings.json").router.answer("GET", "/a").text, "rooted")

        try fixture.write("bad.json", #"[{"file_root": "nowhere", "include": "api.json"}]"#)
        XCTAssertEqual(fixture.diagnostics("bad.json").first?.message, #"no directory "nowhere" (looked in . and the working directory)"#)
    }

    func testSettingsRequestAndResponseApplyToEveryIncludedSession() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "settings.json",
            """
            [{"request": {"headers": {"X-Api-Key": "k"}},
              "response": {"headers": {"X-Stub": "1", "Content-Type": "application/vnd.api+json"}, "latency": 5},
              "include": "api.json"}]
            """)
        try fixture.write(
            "api.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"text": "a", "headers": {"X-Stub": "2"}}},
              {"response": {"text": "fallback"}}
            ]
            """)
        let router = try fixture.load("settings.json").router
        let hit = router.answer("GET", "/a", headers: [("X-Api-Key", "k")])
        XCTAssertEqual(hit.text, "a")
        XCTAssertEqual(hit.headers.values(for: "X-Stub"), ["2"], "the session overrides the settings header")
        XCTAssertEqual(hit.header("Content-Type"), "application/vnd.api+json", "a settings Content-Type suppresses the default")
        XCTAssertEqual(hit.delay, .milliseconds(5))
        XCTAssertEqual(router.answer("GET", "/a").status, 400, "without the key nothing matches, not even the catch-all")
        XCTAssertEqual(router.answer("GET", "/zzz", headers: [("X-Api-Key", "k")]).text, "fallback")
    }

    func testEnvironmentKeepsOnlyMatchingEntriesCaseInsensitively() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "settings.json",
            """
            [
              {"env": "local", "include": "local.json"},
              {"env": "remote", "include": "remote.json"},
              {"include": "shared.json"}
            ]
            """)
        try fixture.write("local.json", #"[{"request": {"uri": "/where"}, "response": {"text": "local"}}]"#)
        try fixture.write("remote.json", #"[{"request": {"uri": "/where"}, "response": {"text": "remote"}}]"#)
        try fixture.write("shared.json", #"[{"request": {"uri": "/shared"}, "response": {"text": "shared"}}]"#)
        let remote = try ConfigLoader.load(settings: "settings.json", environment: "REMOTE", workingDirectory: fixture.root).router
        XCTAssertEqual(remote.answer("GET", "/where").text, "remote")
        XCTAssertEqual(remote.answer("GET", "/shared").status, 400, "entries without env are dropped under -e (moco)")
        let all = try ConfigLoader.load(settings: "settings.json", environment: nil, workingDirectory: fixture.root).router
        XCTAssertEqual(all.answer("GET", "/where").text, "local")
        XCTAssertEqual(all.answer("GET", "/shared").text, "shared")
    }

    func testIncludeCyclesAreReported() throws {
        let fixture = try ConfigFixture()
        try fixture.write("a.json", #"[{"include": "b.json"}]"#)
        try fixture.write("b.json", #"[{"include": "a.json"}]"#)
        XCTAssertEqual(
            fixture.diagnostics("a.json").map(\.description),
            [#"b.json: [0].include: "a.json" includes a file that is already being loaded (an include cycle) (line 1, column 14)"#])
    }

    func testNestedIncludesComposeContexts() throws {
        let fixture = try ConfigFixture()
        try fixture.write("settings.json", #"[{"context": "/api", "include": "v1/settings.json"}]"#)
        try fixture.write("v1/settings.json", #"[{"context": "v1", "include": "stories.json"}]"#)
        try fixture.write("v1/stories.json", #"[{"request": {"uri": "stories"}, "response": {"text": "stories"}}]"#)
        XCTAssertEqual(try fixture.load("settings.json").router.answer("GET", "/api/v1/stories").text, "stories")
    }

    func testStringsAreTrimmedAsMocoDoes() throws {
        let router = try ConfigFixture().router(
            #"[{"request": {"uri": "  /spaced  ", "method": " get "}, "response": {"text": "  spaced reply  "}}]"#)
        XCTAssertEqual(router.answer("GET", "/spaced").text, "spaced reply")
    }

    func testRequestFileMatchersAreWatched() throws {
        let fixture = try ConfigFixture()
        try fixture.write("body.txt", "expected body")
        try fixture.write("stubs.json", #"[{"request": {"file": "body.txt"}, "response": {"text": "same"}}]"#)
        let loaded = try fixture.load("stubs.json")
        XCTAssertEqual(loaded.watchedFiles, [fixture.path("stubs.json"), ConfinedFiles.realPath(fixture.path("body.txt"))!])
        XCTAssertEqual(loaded.router.answer("POST", "/", body: "expected body").text, "same")
    }

    func testTheSampleStubsLoad() throws {
        let loaded = try ConfigLoader.load(config: "Stubs/settings.json", workingDirectory: Self.repositoryRoot)
        // The DesignerNews sample keeps adding endpoints: check the original ones are still there.
        let names = loaded.watchedFiles.map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(names.first, "settings.json")
        XCTAssertTrue(Set(["login_conf.json", "stories_conf.json"]).isSubset(of: Set(names)), "\(names)")
        XCTAssertGreaterThanOrEqual(loaded.router.stubCount, 14)
    }

    static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
