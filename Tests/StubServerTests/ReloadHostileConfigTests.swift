import Foundation
import XCTest

@testable import StubServer

/// Configurations a careless or hostile edit can produce. Loading any of them is an error with
/// a message; reloading any of them into a running server keeps the last good one serving.
enum HostileConfigs {
    static let good = #"[{"request": {"uri": "/ok"}, "response": {"text": "good"}}]"#

    /// (name, stubs.json text). Numbers past every fixed-width range, deep nesting, bad bytes,
    /// include cycles, huge and negative values where durations and statuses go.
    static var all: [(String, String)] {
        func session(_ response: String) -> String { #"[{"request": {"uri": "/ok"}, "response": \#(response)}]"# }
        var cases: [(String, String)] = [
            ("latency 1e308", session(#"{"text": "x", "latency": 1e308}"#)),
            ("latency -1e308", session(#"{"text": "x", "latency": -1e308}"#)),
            ("latency 1e999", session(#"{"text": "x", "latency": 1e999}"#)),
            ("latency string 1e308", session(#"{"text": "x", "latency": "1e308"}"#)),
            ("latency NaN string", session(#"{"text": "x", "latency": "NaN"}"#)),
            ("latency Infinity string", session(#"{"text": "x", "latency": "Infinity"}"#)),
            ("latency 1e300 days", session(#"{"text": "x", "latency": {"duration": 1e300, "unit": "day"}}"#)),
            ("latency 1e12 days", session(#"{"text": "x", "latency": {"duration": 1e12, "unit": "days"}}"#)),
            ("latency 2^63 ns", session(#"{"text": "x", "latency": {"duration": 9223372036854775808, "unit": "nanosecond"}}"#)),
            ("latency Int64.max ms", session(#"{"text": "x", "latency": 9223372036854775807}"#)),
            ("cookie maxAge 1e308", session(#"{"text": "x", "cookies": {"a": {"value": "b", "maxAge": 1e308}}}"#)),
            (
                "cookie maxAge 1e300 days",
                session(#"{"text": "x", "cookies": {"a": {"value": "b", "maxAge": {"duration": 1e300, "unit": "day"}}}}"#)
            ),
            ("status 1e308", session(#"{"text": "x", "status": 1e308}"#)),
            ("status -1", session(#"{"text": "x", "status": -1}"#)),
            ("status 2^64", session(#"{"text": "x", "status": 18446744073709551616}"#)),
            ("status string huge", session(#"{"text": "x", "status": "99999999999999999999999"}"#)),
            ("seq of huge latencies", session(#"{"seq": [{"text": "a", "latency": 1e308}, {"text": "b"}]}"#)),
            ("deep nesting", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            ("deep object nesting", String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)),
            ("truncated", #"[{"request": {"uri": "/ok"}, "response": {"text": "#),
            ("empty file", ""),
            ("null", "null"),
            ("number", "1e308"),
            ("bad regex", #"[{"request": {"uri": {"match": "(((("}}, "response": {"text": "x"}}]"#),
            ("include itself", #"[{"include": "stubs.json"}]"#),
            ("include missing", #"[{"include": "nowhere/*.json"}]"#),
            ("huge number literal", session(#"{"text": "x", "latency": 1\#(String(repeating: "0", count: 5000))}"#)),
            ("template syntax", session(#"{"text": {"template": "${req.json.items[req.json.i"}}"#)),
            ("unknown keys", session(#"{"txt": "x", "latencyy": 1}"#)),
        ]
        cases.append(("NUL bytes", "[\u{0}\u{0}]"))
        return cases
    }
}

final class ReloadHostileConfigTests: XCTestCase {
    /// Each hostile edit is reported and the good routes keep answering. `latency: 1e308`
    /// used to end the process (`Int64(Double)` trapped in the loader).
    func testEveryHostileConfigReloadsIntoARunningServerWithoutHarm() throws {
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", HostileConfigs.good)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 1
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }

        for (name, text) in HostileConfigs.all {
            try fixture.write("stubs.json", text)
            do {
                try server.reload()
                // A few are valid but extreme (a 292-year latency): serving them must not crash
                // either; their request is not made here since it would wait.
                if name.hasPrefix("latency") || name.hasPrefix("seq") { continue }
                XCTFail("\(name): expected the reload to be refused")
            } catch let error as ConfigError {
                XCTAssertFalse(error.diagnostics.isEmpty, name)
                XCTAssertFalse("\(error)".isEmpty, name)
            } catch {
                XCTFail("\(name): expected a ConfigError, got \(error)")
            }
            try fixture.write("stubs.json", HostileConfigs.good)
            try server.reload()
            let response = try RawHTTPClient.get(port: server.port, "/ok")
            XCTAssertEqual(response.status, 200, name)
            XCTAssertEqual(response.text, "good", name)
        }
    }

    /// Refused edits keep the *last good* routes, not the first ones.
    func testABrokenEditKeepsTheLastGoodConfiguration() throws {
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", HostileConfigs.good)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 1
        let server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        try fixture.write("stubs.json", #"[{"request": {"uri": "/ok"}, "response": {"text": "second"}}]"#)
        try server.reload()
        try fixture.write("stubs.json", #"[{"request": {"uri": "/ok"}, "response": {"text": "x", "latency": 1e308}}]"#)
        XCTAssertThrowsError(try server.reload()) { error in
            XCTAssertTrue("\(error)".contains("response.latency"), "\(error)")
        }
        XCTAssertEqual(try RawHTTPClient.get(port: server.port, "/ok").text, "second")
    }

    /// Durations past Int64 nanoseconds are config errors naming the path, not traps.
    func testOutOfRangeDurationsAreConfigErrors() throws {
        let fixture = try ConfigFixture()
        try fixture.write("a.json", #"[{"request": {"uri": "/a"}, "response": {"text": "x", "latency": 1e308}}]"#)
        XCTAssertEqual(fixture.diagnostics("a.json").first?.path, "[0].response.latency")
        try fixture.write(
            "b.json", #"[{"request": {"uri": "/b"}, "response": {"text": "x", "latency": {"duration": 1e300, "unit": "day"}}}]"#)
        XCTAssertEqual(fixture.diagnostics("b.json").first?.path, "[0].response.latency.duration")
        try fixture.write(
            "c.json", #"[{"request": {"uri": "/c"}, "response": {"text": "x", "cookies": {"a": {"value": "b", "maxAge": 1e308}}}}]"#)
        XCTAssertEqual(fixture.diagnostics("c.json").first?.path, "[0].response.cookies.a.maxAge")
    }

    /// A very long Max-Age built in Swift still renders a date instead of trapping.
    func testHugeCookieMaxAgeFromSwiftRendersADate() throws {
        let cookie = ResponseCookie(name: "a", value: .literal("b"), maxAge: .seconds(Int64.max / 2))
        let text = SetCookieEncoder.encode(name: "a", value: "b", cookie: cookie, now: Date())
        XCTAssertTrue(text.contains("Expires=") && text.contains("9999"), text)
    }
}
