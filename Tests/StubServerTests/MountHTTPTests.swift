import Foundation
import XCTest

@testable import StubServer

/// moco's `mount` over real HTTP: files under a URI prefix, sub-directories, content types,
/// includes/excludes, response keys beside it, fall-through, and never a byte from outside `dir`.
final class MountHTTPTests: XCTestCase {
    private var stubs: LiveStubs!
    private var outside: String!

    override func setUpWithError() throws {
        outside = FileManager.default.temporaryDirectory.path + "/mount-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("TOP SECRET".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
        stubs = try LiveStubs(
            """
            [
              {"mount": {"dir": "www", "uri": "/static", "excludes": ["*.tmp"], "headers": {"X-Mount": "www"}, "latency": 1}},
              {"mount": {"dir": "www", "uri": "/picked/", "includes": ["*.txt", "**/*.json"], "status": 203}},
              {"request": {"uri": {"startsWith": "/static/"}}, "response": {"text": "fallback"}},
              {"request": {"uri": {"startsWith": "/picked/"}}, "response": {"text": "not picked"}}
            ]
            """,
            files: [
                "www/a.txt": "hello", "www/index.html": "<h1>hi</h1>", "www/sub/b.json": #"{"b":1}"#, "www/skip.tmp": "temporary",
                "www/deep/er/c.css": "body{}", "www/noext": "plain", "top.txt": "next to the config, outside www",
            ])
        try FileManager.default.createSymbolicLink(atPath: stubs.fixture.path("www/link.txt"), withDestinationPath: outside + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: stubs.fixture.path("www/up"), withDestinationPath: outside)
    }

    override func tearDownWithError() throws {
        stubs = nil
        try? FileManager.default.removeItem(atPath: outside)
    }

    func testServesFilesWithContentTypesAndTheResponseKeysBesideIt() throws {
        let text = try stubs.send("GET", "/static/a.txt")
        XCTAssertEqual(text.status, 200)
        XCTAssertEqual(text.text, "hello")
        XCTAssertEqual(text.header("Content-Type"), "text/plain")
        XCTAssertEqual(text.header("X-Mount"), "www")
        XCTAssertEqual(try stubs.send("GET", "/static/index.html").header("Content-Type"), "text/html")
        let json = try stubs.send("GET", "/static/sub/b.json")
        XCTAssertEqual(json.text, #"{"b":1}"#)
        XCTAssertEqual(json.header("Content-Type"), "application/json")
        XCTAssertEqual(try stubs.send("GET", "/static/deep/er/c.css").header("Content-Type"), "text/css")
        XCTAssertEqual(try stubs.send("GET", "/static/noext").header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(try stubs.send("GET", "/static/a%2Etxt").text, "hello", "the path is percent-decoded")
    }

    func testMissingOrExcludedFilesFallThroughToLaterSessions() throws {
        XCTAssertEqual(try stubs.send("GET", "/static/missing.txt").text, "fallback")
        XCTAssertEqual(try stubs.send("GET", "/static/skip.tmp").text, "fallback", "excluded")
        XCTAssertEqual(try stubs.send("GET", "/static/sub").text, "fallback", "a directory is not a file")
        XCTAssertEqual(try stubs.send("GET", "/static/").text, "fallback")
        XCTAssertEqual(try stubs.send("GET", "/static").status, 400, "the prefix itself is no file")
    }

    func testIncludesPickFilesAndAnyResponseKeyApplies() throws {
        let picked = try stubs.send("GET", "/picked/a.txt")
        XCTAssertEqual(picked.status, 203)
        XCTAssertEqual(picked.text, "hello")
        XCTAssertEqual(try stubs.send("GET", "/picked/sub/b.json").text, #"{"b":1}"#, "**/ crosses directories")
        XCTAssertEqual(try stubs.send("GET", "/picked/index.html").text, "not picked")
        XCTAssertEqual(try stubs.send("GET", "/picked/deep/er/c.css").text, "not picked")
    }

    func testNeverServesOutsideTheDirectory() throws {
        for target in [
            "/static/../top.txt", "/static/%2e%2e/top.txt", "/static/..%2ftop.txt", "/static/sub/..%2f..%2ftop.txt",
            "/static/%2E%2E%2Fstubs.json", "/static/./a.txt", "/static//a.txt", "/static/link.txt", "/static/up/secret.txt",
            "/static/a.txt%00.png", "/static/%00", "/static/..\\top.txt",
            "/static/" + String(repeating: "../", count: 12) + "etc/passwd",
        ] {
            let response = try stubs.send("GET", target)
            XCTAssertFalse(response.text.contains("TOP SECRET"), target)
            XCTAssertFalse(response.text.contains("outside www"), target)
            XCTAssertFalse(response.text.contains("root:"), target)
            XCTAssertTrue(response.status == 400 || response.text == "fallback", "\(target): \(response.status) \(response.text)")
        }
    }

    func testContextAndFileRootApply() throws {
        let scoped = try LiveStubs(
            #"[{"context": "/ctx", "file_root": "assets", "include": "mounts.json"}]"#,
            files: ["assets/mounts.json": #"[{"mount": {"dir": "public", "uri": "/files"}}]"#, "assets/public/x.txt": "x"])
        XCTAssertEqual(try scoped.send("GET", "/ctx/files/x.txt").text, "x")
        XCTAssertEqual(try scoped.send("GET", "/files/x.txt").status, 400)
    }

    func testSwiftBuiltMountAndLoadTimeErrors() throws {
        let server = try StubServer(stubs: [
            .mount(
                MountDefinition(dir: stubs.fixture.path("www"), uri: "/s", includes: ["*.{txt,html}"]),
                response: .status(200).header("X", "1"))
        ])
        try server.start()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "GET /s/index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "<h1>hi</h1>")
        XCTAssertEqual(response.header("X"), "1")

        let fixture = try ConfigFixture()
        try fixture.write(
            "bad.json",
            """
            [
              {"mount": {"dir": "www", "uri": "/a", "text": "body"}},
              {"mount": {"dir": "www", "uri": "/b", "includes": ["{a,b"]}},
              {"mount": {"dir": "www", "uri": "/c"}, "response": {"status": 200}},
              {"mount": {"dir": "", "uri": "/d", "exclude": ["*.tmp"]}}
            ]
            """)
        let messages = fixture.diagnostics("bad.json").map { "\($0.path): \($0.message)" }
        XCTAssertEqual(
            messages,
            [
                "[0].mount: a mount serves its files as the body; remove text, file, json or attachment",
                "[1].mount.includes[0]: the glob \"{a,b\" has a '{' without '}'",
                "[2].response: a mount session cannot also have \"response\"; write the response keys (headers, status, latency…) inside the mount",
                "[3].mount.dir: expected a directory name, got an empty string",
                "[3].mount.exclude: unknown key; did you mean \"excludes\"?",
            ])
    }

    func testMissingMountDirectoryIsAWarning() throws {
        let fixture = try ConfigFixture()
        try fixture.write("m.json", #"[{"mount": {"dir": "nowhere", "uri": "/n"}}]"#)
        let loaded = try fixture.load("m.json")
        XCTAssertEqual(loaded.warnings.map(\.path), ["[0].mount.dir"])
    }
}
