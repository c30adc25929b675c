import Foundation
import StubServerTestSupport
import XCTest

@testable import HTTPEngine
@testable import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubserver validate` and `start` with proxy, failover, playback, record, replay and events.
final class CLIUpstreamTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func testValidateAcceptsEveryUpstreamKey() throws {
        try directory.write(
            "live.json",
            #"""
            [
              {"request": {"uri": "/a"}, "response": {"proxy": "http://127.0.0.1:9/a"}},
              {"request": {"uri": "/b"}, "response": {"proxy": {"url": {"template": "http://127.0.0.1:9/${req.queries['t']}"}, "failover": "fo.json"}}},
              {"request": {"uri": "/c"}, "response": {"proxy": {"url": "http://127.0.0.1:9/c", "failover": {"file": "fo.json", "status": [502, "503"]}}}},
              {"request": {"uri": {"startsWith": "/d"}}, "response": {"proxy": {"from": "/d", "to": "http://127.0.0.1:9/", "playback": "pb.json"}}},
              {"proxy": {"from": "/legacy", "to": "http://127.0.0.1:9/v1", "failover": "fo.json"}},
              {"request": {"uri": "/rec"}, "response": {"record": {"group": "g", "identifier": {"template": "${req.queries['id']}"}, "tape": "tape.json"}}},
              {"request": {"uri": "/rep"}, "response": {"replay": {"group": "g", "identifier": "x", "modifier": {"json": {"ok": true}}}}},
              {"request": {"uri": "/rep2"}, "response": {"replay": "name"}},
              {"request": {"uri": "/e"}, "response": {"text": "e"},
               "on": {"complete": {"async": "true", "latency": {"duration": 1, "unit": "second"}, "post": {"url": "http://127.0.0.1:9/hook", "json": {"a": 1}, "headers": {"X-A": "1"}}}}}
            ]
            """#)
        // Saved files that exist: a missing one is a warning (see MocoExamplesTests).
        try directory.write("fo.json", "[]")
        try directory.write("pb.json", "[]")
        let result = try StubServerProcess.run(["validate", "-c", "live.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 0, "\(result.stderr)")
        XCTAssertEqual(result.stdout, ["live.json: ok (9 sessions from 1 file)"])
    }

    func testValidateRejectsMalformedShapesWithPathLineAndColumn() throws {
        try directory.write(
            "bad.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"proxy": {"url": "http://x.test/", "to": "http://y.test/"}}},
              {"proxy": {"url": "http://x.test/"}},
              {"request": {"uri": "/c"}, "response": {"proxy": {"from": "/c"}}},
              {"request": {"uri": "/d"}, "response": {"record": {"group": 3}}},
              {"request": {"uri": "/e"}, "response": {"text": "e"}, "on": {"complete": {"latency": 5, "get": {"url": "http://x.test/"}}}}
            ]
            """)
        let result = try StubServerProcess.run(["validate", "-c", "bad.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        let expected = [
            "bad.json: [0].response.proxy: use either \"url\" or \"from\" with \"to\", not both (line 2, column 52)",
            "bad.json: [1].proxy.url: ",
            "bad.json: [2].response.proxy: \"from\" needs \"to\"",
            "bad.json: [3].response.record.group: expected a string",
            "bad.json: [4].on.complete.latency: latency applies to async events only",
        ]
        for prefix in expected {
            XCTAssertTrue(result.stderr.contains { $0.hasPrefix("stubserver: error: " + prefix) }, "missing \(prefix) in \(result.stderr)")
        }
        XCTAssertTrue(
            result.stderr.allSatisfy { $0.range(of: #"\(line \d+, column \d+\)$"#, options: .regularExpression) != nil }, "\(result.stderr)"
        )
    }

    func testProxiedExchangesAreLoggedAndQuietSilencesThem() throws {
        let backend = try StubServer(stubs: [StubDefinition(request: .get("/up"), response: .text("up"))])
        try backend.start()
        defer { backend.stop() }
        try directory.write("conf.json", #"[{"request": {"uri": "/p"}, "response": {"proxy": "http://127.0.0.1:\#(backend.port)/up"}}]"#)
        for quiet in [false, true] {
            let process = try StubServerProcess(
                ["start", "-p", "0", "-c", "conf.json"] + (quiet ? ["-q"] : []), workingDirectory: directory.url)
            let port = try process.waitForPort()
            let response = try RawHTTPClient.exchange(port: port, "GET /p HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(response.text, "up")
            if !quiet { XCTAssertNotNil(process.waitForLine { $0.hasPrefix("GET /p 200 conf.json#0 ") }, "\(process.stdout)") }
            process.send(signal: SIGTERM)
            XCTAssertEqual(process.waitForExit(), 0)
            if quiet { XCTAssertEqual(process.stdout.filter { $0.contains("/p ") }, []) }
        }
    }

    func testAPlaybackFileIsValidJSONAfterTheProcessIsKilledMidTraffic() throws {
        let backend = try StubServer(stubs: [StubDefinition(request: nil, response: .text(String(repeating: "x", count: 4000)))])
        try backend.start()
        defer { backend.stop() }
        try directory.write("conf.json", #"[{"proxy": {"from": "/", "to": "http://127.0.0.1:\#(backend.port)/", "playback": "pb.json"}}]"#)
        let process = try StubServerProcess(["start", "-p", "0", "-q", "-c", "conf.json"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        let stop = LockedBox(false)
        let sent = LockedBox(0)
        let traffic = Thread {
            var index = 0
            while !stop.value {
                _ = try? RawHTTPClient.exchange(port: port, "GET /item/\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                index += 1
                sent.value = index
            }
        }
        traffic.start()
        let file = directory.url.appendingPathComponent("pb.json").path
        let deadline = Date().addingTimeInterval(20)
        while (sent.value < 150 || !FileManager.default.fileExists(atPath: file)) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.send(signal: SIGKILL)
        stop.value = true
        _ = process.waitForExit()
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [Any], "pb.json is not complete JSON after SIGKILL")
        XCTAssertGreaterThan(entries.count, 0)
    }
}
