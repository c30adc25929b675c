import Foundation
import XCTest

@testable import StubServer

/// Bad and hostile configurations: each is a load-time error (or warning) naming the file and
/// the JSON path, quickly — never a trap at the first request, never a hang.
final class ConfigHostileTests: XCTestCase {
    func testUnrepresentableDurationsAreLoadTimeErrors() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "durations.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"latency": {"duration": 99999999999999999999, "unit": "second"}}},
              {"request": {"uri": "/b"}, "response": {"latency": 1e308}},
              {"request": {"uri": "/c"}, "response": {"latency": {"duration": 1e300, "unit": "nanosecond"}}},
              {"request": {"uri": "/d"}, "response": {"latency": "9223372036854775807"}},
              {"request": {"uri": "/e"}, "response": {"cookies": {"s": {"value": "v", "maxAge": {"duration": 9223372036854775807, "unit": "day"}}}}},
              {"request": {"uri": "/f"}, "response": {"seq": [{"latency": {"duration": 1e20, "unit": "hour"}}]}},
              {"request": {"uri": "/g"}, "response": {"latency": {"duration": 36500, "unit": "days"}}}
            ]
            """)
        let messages = fixture.diagnostics("durations.json").map { "\($0.path): \($0.message)" }
        let limit = "a duration is at most 100 years (3153600000 seconds)"
        XCTAssertEqual(
            messages,
            [
                "[0].response.latency.duration: 99999999999999999999 second is too long; \(limit)",
                "[1].response.latency: 1e308 milliseconds is too long; \(limit)",
                "[2].response.latency.duration: 1e300 nanosecond is too long; \(limit)",
                "[3].response.latency: 9223372036854775807 milliseconds is too long; \(limit)",
                "[4].response.cookies.s.maxAge.duration: 9223372036854775807 day is too long; \(limit)",
                "[5].response.seq[0].latency.duration: 1e20 hour is too long; \(limit)",
            ], "100 years exactly is allowed")
    }

    func testTheLongestAllowedValuesServeWithoutTrapping() throws {
        let stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/cookie"}, "response": {"cookies": {"s": {"value": "v", "maxAge": {"duration": 36500, "unit": "day"}}}}},
              {"request": {"uri": "/index"}, "response": {"text": {"template": "${req.json.a[99999999999999999999999]!'none'} ${req.json.a[0]}"}}}
            ]
            """)
        let cookie = try stubs.send("GET", "/cookie")
        XCTAssertEqual(cookie.status, 200)
        XCTAssertTrue(cookie.header("Set-Cookie")?.contains("Max-Age=3153600000") ?? false, "\(cookie.headers)")
        let index = try stubs.send("POST", "/index", headers: [("Content-Type", "application/json")], body: #"{"a": [1]}"#)
        XCTAssertEqual(index.text, "none 1", "a huge index is missing, not a trap")
    }

    func testEveryProblemInASessionIsReported() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "both.json", #"[{"request": {"uri": {"match": "("}}, "response": {"status": 999, "text": {"template": "${nope}"}}}]"#)
        let paths = fixture.diagnostics("both.json").map(\.path)
        XCTAssertEqual(Set(paths), ["[0].request.uri", "[0].response.status", "[0].response.text.template"])
    }

    func testTwoBodiesUnknownVariablesAndDirectivesStayLoadTimeErrors() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "t.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"text": "a", "json": {"b": 1}}},
              {"request": {"uri": "/b"}, "response": {"text": "a", "file": "b.txt"}},
              {"request": {"uri": "/c"}, "response": {"text": {"template": "${user}"}}},
              {"request": {"uri": "/d"}, "response": {"text": {"template": "<#if req.method == 'GET'>get</#if>"}}},
              {"request": {"uri": "/e"}, "response": {"headers": {"X": {"template": "<@greet/>"}}}}
            ]
            """)
        let messages = fixture.diagnostics("t.json").map { "\($0.path): \($0.message)" }
        XCTAssertEqual(messages.count, 5, "\(messages)")
        XCTAssertTrue(messages[0].hasPrefix("[0].response: a response has one body"))
        XCTAssertTrue(messages[1].hasPrefix("[1].response: a response has one body"))
        XCTAssertTrue(messages[2].hasPrefix("[2].response.text.template: template error"), messages[2])
        XCTAssertTrue(messages[3].contains("FreeMarker directives (<#if>, <#list>, <@macro>) are not supported"), messages[3])
        XCTAssertTrue(messages[4].contains("FreeMarker macro calls"), messages[4])
    }

    func testSymlinkLoopsAndPathologicalGlobsFailFast() throws {
        let fixture = try ConfigFixture()
        try fixture.write("tree/a/x.json", "[]")
        try FileManager.default.createSymbolicLink(atPath: fixture.path("tree/a/loop"), withDestinationPath: fixture.path("tree"))
        try fixture.write("loop.json", #"[{"include": "tree/**/*.json"}]"#)
        let started = Date()
        let loop = fixture.diagnostics("loop.json")
        XCTAssertEqual(loop.map(\.path), ["[0].include"])
        XCTAssertTrue(loop.first?.message.contains("a symlink loop") ?? false, "\(loop)")
        XCTAssertEqual(loop.first?.file, "loop.json")

        let longName = String(repeating: "a", count: 200)
        for index in 0..<40 { try fixture.write("long/\(longName)\(index)", "[]") }
        let stars = Array(repeating: "*a", count: 24).joined() + "*b"
        try fixture.write("stars.json", #"[{"include": "long/\#(stars)"}]"#)
        let pathological = fixture.diagnostics("stars.json")
        XCTAssertEqual(pathological.map(\.path), ["[0].include"])
        XCTAssertTrue(pathological.first?.message.hasPrefix("no file matches") ?? false, "\(pathological)")
        // Generous bound (the machine is shared); the old matcher took well over 20 s here.
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)

        XCTAssertThrowsError(try ConfigLoader.load(config: "tree/**/*.json", workingDirectory: fixture.root)) { error in
            XCTAssertTrue("\(error)".contains("a symlink loop"), "\(error)")
        }
    }

    func testGlobMatcherIsLinearAndJavaLike() throws {
        let name = String(repeating: "a", count: 5000)
        let pattern = try GlobPattern(Array(repeating: "*a", count: 30).joined() + "*b", slashes: false)
        XCTAssertFalse(pattern.matches(name))
        XCTAssertTrue(try GlobPattern("**/*.css").matches("a/b/c.css"))
        XCTAssertFalse(try GlobPattern("**/*.css").matches("c.css"), "as in Java, **/ needs a directory")
        XCTAssertFalse(try GlobPattern("*.css").matches("a/c.css"))
        XCTAssertTrue(try GlobPattern("*.{css,js}").matches("x.js"))
        XCTAssertTrue(try GlobPattern("[a-c]?.txt").matches("bz.txt"))
        XCTAssertFalse(try GlobPattern("[!a-c]?.txt").matches("bz.txt"))
        XCTAssertTrue(try GlobPattern("\\*.txt").matches("*.txt"))
        XCTAssertThrowsError(try GlobPattern(String(repeating: "{a,b}", count: 9)))
    }

    func testAFileIncludedTwiceLoadsOnceWithAWarning() throws {
        let fixture = try ConfigFixture()
        try fixture.write("api.json", #"[{"request": {"uri": "/x"}, "response": {"text": "x"}}]"#)
        try fixture.write(
            "settings.json",
            """
            [
              {"include": "api.json"},
              {"include": "api.json"},
              {"include": "*.json"},
              {"context": "/v2", "include": "api.json"}
            ]
            """)
        let loaded = try fixture.load("settings.json")
        XCTAssertEqual(loaded.sessionCount, 2, "once at the root and once under /v2")
        XCTAssertEqual(loaded.warnings.map(\.path), ["[1].include", "[2].include"])
        XCTAssertTrue(loaded.warnings[0].message.contains("is already loaded (by settings.json [0].include)"), loaded.warnings[0].message)
        XCTAssertEqual(loaded.router.answer("GET", "/v2/x").text, "x")
    }

    func testUnknownEnvironmentIsAnError() throws {
        let fixture = try ConfigFixture()
        try fixture.write("a.json", "[]")
        try fixture.write("settings.json", #"[{"env": "local", "include": "a.json"}, {"env": "Remote", "include": "a.json"}]"#)
        XCTAssertNoThrow(try ConfigLoader.load(settings: "settings.json", environment: "REMOTE", workingDirectory: fixture.root))
        XCTAssertThrowsError(try ConfigLoader.load(settings: "settings.json", environment: "lokal", workingDirectory: fixture.root)) {
            error in
            XCTAssertEqual(
                "\(error)", #"settings.json: -e "lokal": no settings entry has this env; did you mean "local"? (envs: local, remote)"#)
        }
    }

    func testResponseFilesThatAreMissingOrEscapeAreWarnings() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "conf/stubs.json",
            """
            [
              {"request": {"uri": "/missing"}, "response": {"file": "missing.json"}},
              {"request": {"uri": "/escape"}, "response": {"file": "../../../../../../etc/passwd"}},
              {"request": {"uri": "/seq"}, "response": {"seq": [{"file": "gone.txt"}]}},
              {"request": {"uri": "/template"}, "response": {"file": {"name": {"template": "${req.uri}.json"}}}},
              {"resource": {"name": "r", "get": [{"id": "1", "response": {"file": "nope.json"}}]}}
            ]
            """)
        let loaded = try ConfigLoader.load(config: "conf/stubs.json", workingDirectory: fixture.root)
        XCTAssertEqual(
            loaded.warnings.map(\.path),
            [
                "[0].response.file", "[1].response.file", "[2].response.seq[0].file", "[4].resource.get[0].response.file",
            ])
        XCTAssertTrue(loaded.warnings[1].message.contains("climbs out of the file root"), loaded.warnings[1].message)
        XCTAssertEqual(loaded.warnings[0].position?.line, 2)
    }

    func testWorkingDirectoryWinsOverTheConfigDirectoryWithAWarning() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "conf/stubs.json",
            #"[{"request": {"uri": "/f"}, "response": {"file": "body.txt"}}, {"request": {"uri": "/g"}, "response": {"file": "only-here.txt"}}]"#
        )
        try fixture.write("conf/body.txt", "next to the config")
        try fixture.write("conf/only-here.txt", "only next to the config")
        try fixture.write("body.txt", "working directory")
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        let server = try StubServer(configFile: fixture.path("conf/stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        let body = try RawHTTPClient.exchange(port: server.port, "GET /f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(String(decoding: body.body, as: UTF8.self), "working directory", "as in moco")
        let only = try RawHTTPClient.exchange(port: server.port, "GET /g HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(String(decoding: only.body, as: UTF8.self), "only next to the config")
        XCTAssertEqual(server.warnings.count, 1)
        let warning = try XCTUnwrap(server.warnings.first)
        XCTAssertEqual(warning.path, "[0].response.file")
        XCTAssertTrue(
            warning.message.contains(fixture.root + "/body.txt") && warning.message.contains(fixture.root + "/conf/body.txt"),
            warning.message)
    }

    func testAConfigGlobPicksUpNewFilesOnTheNextReload() throws {
        let fixture = try ConfigFixture()
        try fixture.write("conf/a.json", #"[{"request": {"uri": "/a"}, "response": {"text": "a"}}]"#)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        let server = try StubServer(configFile: "conf/*.json", options: options)
        try server.start()
        defer { server.stop() }
        func get(_ path: String) throws -> RawHTTPResponse {
            try RawHTTPClient.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        XCTAssertEqual(try get("/b").status, 400)
        try fixture.write("conf/b.json", #"[{"request": {"uri": "/b"}, "response": {"text": "b"}}]"#)
        try server.reload()
        XCTAssertEqual(String(decoding: try get("/b").body, as: UTF8.self), "b")
        XCTAssertTrue(server.watchedFiles.contains(fixture.path("conf/b.json")))
    }
}

/// Configs built to exhaust the loader's stack or time.
final class ConfigExhaustionTests: XCTestCase {
    func testDeeplyNestedTemplatesAreErrorsNotStackOverflows() throws {
        let fixture = try ConfigFixture()
        let parens = String(repeating: "(", count: 100_000) + "req.method" + String(repeating: ")", count: 100_000)
        let chain = "req.json" + String(repeating: "[0]", count: 100_000)
        try fixture.write(
            "deep.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"text": {"template": "${\(parens)}"}}},
              {"request": {"uri": "/b"}, "response": {"text": {"template": "${\(chain)}"}}}
            ]
            """)
        let messages = fixture.diagnostics("deep.json").map { "\($0.path): \($0.message)" }
        XCTAssertEqual(messages.count, 2)
        XCTAssertTrue(messages.allSatisfy { $0.contains("the expression nests deeper than 64 levels") }, "\(messages)")
        let fine = try ConfigFixture()
        try fine.write("ok.json", #"[{"request": {"uri": "/a"}, "response": {"text": {"template": "${((req.json.a.b[0]))!'x'}"}}}]"#)
        XCTAssertNoThrow(try fine.load("ok.json"))
    }

    func testIncludesThatMultiplyAreBounded() throws {
        let fixture = try ConfigFixture()
        for level in 0..<20 {
            try fixture.write(
                "f\(level).json",
                #"[{"context": "/x", "include": "f\#(level + 1).json"}, {"context": "/y", "include": "f\#(level + 1).json"}]"#)
        }
        try fixture.write("f20.json", #"[{"request": {"uri": "/leaf"}, "response": {"text": "leaf"}}]"#)
        // The cap, not the clock, is what bounds the work (tests assert no timings): 2^20 loads
        // stop at the 5,001st with one diagnostic.
        let diagnostics = fixture.diagnostics("f0.json")
        XCTAssertEqual(diagnostics.count, 1, "\(diagnostics.prefix(3))")
        XCTAssertTrue(diagnostics.first?.message.hasPrefix("more than 5000 files loaded") ?? false, "\(diagnostics)")
    }
}
