import Foundation
import StubServerTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `stubserver start` process end to end: serving, logging, reload, stopping, exit codes.
final class CLIServerTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        try directory.write(
            "conf.json",
            """
            [
              {"request": {"method": "post", "uri": "/oauth/token", "forms": {"username": "qa@example.com"}},
               "response": {"json": {"access_token": "abc123"}}},
              {"request": {"uri": "/hello"}, "response": {"text": "v1"}}
            ]
            """)
    }

    private func start(_ extra: [String] = [], config: String = "conf.json") throws -> (StubServerProcess, Int) {
        let process = try StubServerProcess(["start", "-p", "0", "-c", config] + extra, workingDirectory: directory.url)
        let port = try process.waitForPort()
        return (process, port)
    }

    private func get(_ port: Int, _ path: String) throws -> RawHTTPResponse {
        try RawHTTPClient.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
    }

    func testServesLogsOneLinePerRequestAndStopsOnSIGTERM() throws {
        let (process, port) = try start()
        XCTAssertNotNil(process.waitForLine { $0.hasPrefix("Shutdown port is ") })
        let token = try RawHTTPClient.exchange(
            port: port,
            "POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 23\r\n\r\nusername=qa@example.com"
        )
        XCTAssertEqual(token.status, 200)
        XCTAssertEqual(token.text, #"{"access_token":"abc123"}"#)
        XCTAssertEqual(try get(port, "/missing").status, 400)

        let matched = process.waitForLine { $0.hasPrefix("POST /oauth/token 200 conf.json#0 ") }
        XCTAssertNotNil(matched, "\(process.stdout)")
        XCTAssertNotNil(matched?.range(of: #" \d+\.\dms$"#, options: .regularExpression), matched ?? "")
        XCTAssertNotNil(process.waitForLine { $0.hasPrefix("GET /missing 400 no match ") }, "\(process.stdout)")

        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
        XCTAssertTrue(process.stdout.contains("Server stopped."))
        XCTAssertThrowsError(try get(port, "/hello"), "the port is closed after a graceful stop")
    }

    /// Issue 26, point 8: after moco's start line (still first), the URL and how much was loaded.
    func testTheStartBannerSaysHowManyStubsFromHowManyFilesAndTheURL() throws {
        try directory.write("more.json", #"[{"request": {"uri": "/more"}, "response": {"text": "m"}}]"#)
        let (process, port) = try start(config: "*.json")
        XCTAssertEqual(process.stdout.first, "Server is started at \(port)")
        XCTAssertEqual(process.waitForLine { $0.hasPrefix("Serving ") }, "Serving 3 stubs from 2 files on http://127.0.0.1:\(port)")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testThreadsChoosesTheNumberOfEventLoops() throws {
        let (process, port) = try start(["--threads", "3"])
        XCTAssertEqual(process.waitForLine { $0.hasPrefix("Event loops: ") }, "Event loops: 3 (--threads)")
        XCTAssertEqual(try get(port, "/hello").text, "v1")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    /// Pinned to one CPU, the server starts one loop, not one per machine core.
    func testOneEventLoopPerUsableCPU() throws {
        let taskset = URL(fileURLWithPath: "/usr/bin/taskset")
        guard FileManager.default.isExecutableFile(atPath: taskset.path) else { throw XCTSkip("no taskset on this machine") }
        let process = try StubServerProcess(
            ["-c", "0", StubServerProcess.binary.path, "start", "-p", "0", "-c", "conf.json"],
            workingDirectory: directory.url, executable: taskset
        )
        let port = try process.waitForPort()
        XCTAssertEqual(process.waitForLine { $0.hasPrefix("Event loops: ") }, "Event loops: 1 (one per usable CPU)")
        XCTAssertEqual(try get(port, "/hello").text, "v1")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    /// Request lines are written off the event loop: a stdout nobody reads (a full pipe) must
    /// not stall serving. Thousands of log lines overflow the 64 KiB pipe buffer.
    func testAStdoutNobodyReadsDoesNotStallServing() throws {
        let process = Process()
        process.executableURL = StubServerProcess.binary
        process.arguments = ["start", "-p", "0", "-c", "conf.json"]
        process.currentDirectoryURL = directory.url
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Read only until the port is printed, then never again.
        var text = ""
        while !text.contains("Shutdown port is ") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { return XCTFail("the server exited: \(text)") }
            text += String(decoding: data, as: UTF8.self)
        }
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("Server is started at ") })
        let port = try XCTUnwrap(Int(line.dropFirst("Server is started at ".count)))

        let client = try RawHTTPClient(port: port, timeout: 10)
        for index in 0..<4000 {
            try client.send("GET /hello?n=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            guard response.text == "v1" else { return XCTFail("request \(index): \(response.status) \(response.text)") }
        }
        // Drain the pipe so the server can flush its log and stop.
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while !out.fileHandleForReading.availableData.isEmpty {}
            drained.signal()
        }
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(drained.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testSIGINTStopsGracefully() throws {
        let (process, port) = try start()
        XCTAssertEqual(try get(port, "/hello").text, "v1")
        process.send(signal: SIGINT)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testQuietPrintsNoRequestLines() throws {
        let (process, port) = try start(["-q"])
        XCTAssertEqual(try get(port, "/hello").text, "v1")
        XCTAssertEqual(try get(port, "/nope").status, 400)
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
        XCTAssertEqual(process.stdout.filter { $0.contains("/hello") || $0.contains("/nope") }, [])
        XCTAssertTrue(process.stdout.contains { $0.hasPrefix("Server is started at ") })
    }

    func testShutdownCommandStopsTheServerThroughTheShutdownPort() throws {
        let reservation = RawPortReservation()
        let shutdownPort = reservation.port
        reservation.release()
        let (process, port) = try start(["-s", "\(shutdownPort)"])
        XCTAssertEqual(process.waitForLine { $0.hasPrefix("Shutdown port is ") }, "Shutdown port is \(shutdownPort)")
        XCTAssertEqual(try get(port, "/hello").status, 200)

        let shutdown = try StubServerProcess.run(["shutdown", "-s", "\(shutdownPort)"])
        XCTAssertEqual(shutdown.status, 0, "\(shutdown.stderr)")
        XCTAssertEqual(process.waitForExit(), 0)
        XCTAssertThrowsError(try get(port, "/hello"))
    }

    func testShutdownKeyWithoutNewlineAlsoStops() throws {
        let (process, _) = try start()
        let line = try XCTUnwrap(process.waitForLine { $0.hasPrefix("Shutdown port is ") })
        let shutdownPort = try XCTUnwrap(Int(line.dropFirst("Shutdown port is ".count)))
        let client = try RawHTTPClient(port: shutdownPort)
        try client.send("_SHUTDOWN_MOCO_KEY")
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testWrongShutdownKeyIsIgnored() throws {
        let (process, port) = try start()
        let line = try XCTUnwrap(process.waitForLine { $0.hasPrefix("Shutdown port is ") })
        let shutdownPort = try XCTUnwrap(Int(line.dropFirst("Shutdown port is ".count)))
        let client = try RawHTTPClient(port: shutdownPort)
        try client.send("please stop\n")
        XCTAssertTrue(client.waitForClose())
        XCTAssertEqual(try get(port, "/hello").text, "v1", "a wrong key must not stop the server")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testPortInUseIsARuntimeError() throws {
        let (first, port) = try start()
        defer { first.send(signal: SIGTERM); _ = first.waitForExit() }
        let result = try StubServerProcess.run(["start", "-p", "\(port)", "-c", "conf.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, ["stubserver: error: port \(port) on 127.0.0.1 is already in use"])
    }

    func testBrokenConfigurationPrintsEveryDiagnosticAndExits1() throws {
        try directory.write(
            "broken.json",
            """
            [
              {"request": {"metod": "get", "uri": "/a"}, "response": {"text": "a"}},
              {"request": {"uri": "/b"}, "response": {"txt": "b"}}
            ]
            """)
        let result = try StubServerProcess.run(["start", "-p", "0", "-c", "broken.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.count, 2, "\(result.stderr)")
        XCTAssertTrue(result.stderr[0].hasPrefix("stubserver: error: broken.json: [0].request.metod: "), result.stderr[0])
        XCTAssertTrue(result.stderr[1].hasPrefix("stubserver: error: broken.json: [1].response.txt: "), result.stderr[1])
        XCTAssertFalse(result.stdout.contains { $0.hasPrefix("Server is started") })

        let validate = try StubServerProcess.run(["validate", "-c", "broken.json"], workingDirectory: directory.url)
        XCTAssertEqual(validate.status, 1)
        XCTAssertEqual(validate.stderr, result.stderr)
    }

    func testValidateAcceptsAGoodConfiguration() throws {
        let result = try StubServerProcess.run(["validate", "-c", "conf.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 0, "\(result.stderr)")
        XCTAssertEqual(result.stdout, ["conf.json: ok (2 sessions from 1 file)"])
    }

    func testHotReloadSwapsRoutesKeepsConnectionsAndSurvivesABrokenEdit() throws {
        try directory.write("body.json", #"{"version": 1}"#)
        try directory.write("settings.json", #"[{"include": "included.json"}]"#)
        try directory.write("included.json", #"[{"request": {"uri": "/hello"}, "response": {"text": "v1"}}]"#)
        let (process, port) = try start(config: "settings.json")
        let kept = try RawHTTPClient(port: port)
        try kept.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try kept.readResponse().text, "v1")

        // An edit of an included file reloads; the open keep-alive connection sees the new routes.
        try directory.write("included.json", #"[{"request": {"uri": "/hello"}, "response": {"text": "v2"}}]"#)
        XCTAssertNotNil(
            process.waitForLine { $0.contains("included.json changed; configuration reloaded") }, "\(process.stdout) \(process.stderr)")
        try kept.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try kept.readResponse().text, "v2")

        // A broken edit keeps the last good configuration and says why (file and JSON path).
        try directory.write("included.json", #"[{"request": {"uri": "/hello"}, "respons": {"text": "v3"}}]"#)
        XCTAssertNotNil(
            process.waitForLine { $0.contains("included.json changed but the configuration is broken; still serving the last good one") },
            "\(process.stderr)")
        XCTAssertNotNil(process.waitForLine { $0.contains("included.json: [0].respons") }, "\(process.stderr)")
        XCTAssertEqual(try get(port, "/hello").text, "v2")

        // Fixing it reloads again.
        try directory.write("included.json", #"[{"request": {"uri": "/hello"}, "response": {"text": "v4"}}]"#)
        let deadline = Date().addingTimeInterval(30)
        var text = ""
        while Date() < deadline {
            text = try get(port, "/hello").text
            if text == "v4" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(text, "v4")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testNonLoopbackHostPrintsAWarning() throws {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "conf.json", "--host", "0.0.0.0"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        XCTAssertNotNil(
            process.waitForLine { $0.hasPrefix("stubserver: warning: listening on 0.0.0.0 exposes your stubs") }, "\(process.stderr)")
        XCTAssertEqual(try get(port, "/hello").text, "v1")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    #if os(Linux)
    /// Out of descriptors, `accept` fails with EMFILE: the server must back off and carry on,
    /// never stop accepting for good.
    func testRunningOutOfDescriptorsIsNotFatal() throws {
        let prlimit = "/usr/bin/prlimit"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: prlimit), "needs util-linux prlimit")
        let process = try StubServerProcess(
            ["--nofile=48:48", StubServerProcess.binary.path, "start", "-p", "0", "-c", "conf.json"],
            workingDirectory: directory.url, executable: URL(fileURLWithPath: prlimit)
        )
        let port = try process.waitForPort()
        var hogs: [RawHTTPClient] = []
        for _ in 0..<60 { hogs.append(try RawHTTPClient(port: port)) } // more than the server can accept
        let waiting = try RawHTTPClient(port: port)
        try waiting.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        hogs.removeAll() // descriptors come free; the backed-off listener resumes
        XCTAssertEqual(try waiting.readResponse().text, "v1")
        XCTAssertEqual(try get(port, "/hello").text, "v1")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }
    #endif

    func testInvalidHostIsARuntimeError() throws {
        let result = try StubServerProcess.run(
            ["start", "-p", "0", "-c", "conf.json", "--host", "example.com"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr.last, "stubserver: error: invalid host \"example.com\": expected a numeric IPv4 or IPv6 address such as 127.0.0.1"
        )
    }
}
