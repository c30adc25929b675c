import Foundation
import StubServerTestSupport
import XCTest

/// `validate` and `start` on moco configurations: warnings, `--strict`, `-e` typos, the session
/// count, `--content-length`, and hostile configs that must exit 1 quickly.
final class CLIConfigCheckTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        try directory.write(
            "conf.json",
            """
            [
              {"request": {"uri": "/hello"}, "response": {"text": "hi"}},
              {"request": {"uri": "/later"}, "response": {"file": "later.json"}},
              {"resource": {"name": "items", "get": [{"id": "1", "response": {"json": {"id": 1}}}]}}
            ]
            """)
    }

    func testValidateCountsSessionsAndPrintsWarnings() throws {
        let result = try StubServerProcess.run(["validate", "-c", "conf.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 0, "\(result.stderr)")
        XCTAssertEqual(result.stdout, ["conf.json: ok (3 sessions from 1 file, 1 warning)"])
        XCTAssertEqual(result.stderr.count, 1)
        XCTAssertTrue(
            result.stderr[0].hasPrefix(#"stubserver: warning: conf.json: [1].response.file: no file "later.json""#), result.stderr[0])
        XCTAssertTrue(result.stderr[0].hasSuffix("(line 3, column 55)"), result.stderr[0])
    }

    func testStrictTurnsWarningsIntoErrors() throws {
        let result = try StubServerProcess.run(["validate", "--strict", "-c", "conf.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.first?.contains("[1].response.file") ?? false, "\(result.stderr)")
        XCTAssertTrue(result.stderr.first?.hasSuffix("(an error with --strict)") ?? false, "\(result.stderr)")

        try directory.write("later.json", "{}")
        let clean = try StubServerProcess.run(["validate", "--strict", "-c", "conf.json"], workingDirectory: directory.url)
        XCTAssertEqual(clean.status, 0, "\(clean.stderr)")
        XCTAssertEqual(clean.stdout, ["conf.json: ok (3 sessions from 1 file)"])
    }

    func testUnknownEnvironmentExits1() throws {
        try directory.write("settings.json", #"[{"env": "local", "include": "conf.json"}]"#)
        let result = try StubServerProcess.run(["validate", "-g", "settings.json", "-e", "prod"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, [#"stubserver: error: settings.json: -e "prod": no settings entry has this env (envs: local)"#])
        let start = try StubServerProcess.run(["start", "-p", "0", "-g", "settings.json", "-e", "prod"], workingDirectory: directory.url)
        XCTAssertEqual(start.status, 1)
    }

    func testHostileConfigsExit1WithFileAndPath() throws {
        try directory.write(
            "latency.json", #"[{"request": {"uri": "/x"}, "response": {"latency": {"duration": 99999999999999999999, "unit": "second"}}}]"#)
        try FileManager.default.createDirectory(atPath: directory.path + "/tree/a", withIntermediateDirectories: true)
        try directory.write("tree/a/x.json", "[]")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/tree/a/back", withDestinationPath: directory.path + "/tree")
        try directory.write("loop.json", #"[{"include": "tree/**/*.json"}]"#)
        for (config, path) in [("latency.json", "[0].response.latency.duration"), ("loop.json", "[0].include")] {
            for command in [["validate", "-c", config], ["start", "-p", "0", "-c", config]] {
                let result = try StubServerProcess.run(command, workingDirectory: directory.url)
                XCTAssertEqual(result.status, 1, "\(command)")
                XCTAssertTrue(
                    result.stderr.first?.hasPrefix("stubserver: error: \(config): \(path): ") ?? false, "\(command): \(result.stderr)")
            }
        }
    }

    func testStartPrintsWarningsAndEnforcesContentLength() throws {
        let process = try StubServerProcess(
            ["start", "-p", "0", "-c", "conf.json", "--content-length", "10"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        defer { process.send(signal: SIGTERM); _ = process.waitForExit() }
        XCTAssertNotNil(process.waitForLine { $0.contains("warning: conf.json: [1].response.file") }, "\(process.stderr)")
        func post(_ body: String) throws -> RawHTTPResponse {
            try RawHTTPClient.exchange(
                port: port, "POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        }
        XCTAssertEqual(try post("0123456789").status, 200)
        XCTAssertEqual(try post("0123456789A").status, 413)
        let usage = try StubServerProcess.run(["start", "-c", "conf.json", "--content-length", "lots"], workingDirectory: directory.url)
        XCTAssertEqual(usage.status, 64)
    }
}
