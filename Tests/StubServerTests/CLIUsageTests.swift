import Foundation
import StubServer
import StubServerTestSupport
import XCTest

/// Exit codes and messages of the `stubserver` command that need no configuration.
final class CLIUsageTests: XCTestCase {
    private func assertUsageError(
        _ arguments: [String], says reason: String, hint: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try StubServerProcess.run(arguments)
        XCTAssertEqual(result.status, 64, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr, ["stubserver: error: \(reason)", "Run '\(hint)' for usage."], file: file, line: line)
        XCTAssertEqual(result.stdout, [], file: file, line: line)
    }

    func testUsageErrorsExit64WithOneLineReasonAndHelpHint() throws {
        try assertUsageError([], says: "missing subcommand", hint: "stubserver --help")
        try assertUsageError(["serve"], says: "unknown subcommand 'serve'", hint: "stubserver --help")
        try assertUsageError(["start"], says: "missing '-c <config>' or '-g <settings>'", hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "-g", "b.json"], says: "'-c' and '-g' cannot be used together", hint: "stubserver start --help")
        try assertUsageError(["start", "-c", "a.json", "-e", "dev"], says: "'-e' needs '-g <settings>'", hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "-p", "http"], says: "invalid port 'http' for '-p': expected a number from 0 to 65535",
            hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "-p", "70000"], says: "invalid port '70000' for '-p': expected a number from 0 to 65535",
            hint: "stubserver start --help")
        try assertUsageError(["start", "-c", "a.json", "--verbose"], says: "unknown option '--verbose'", hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "--threads", "0"], says: "invalid value '0' for '--threads': expected a number from 1 to 1024",
            hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "--threads", "all"], says: "invalid value 'all' for '--threads': expected a number from 1 to 1024",
            hint: "stubserver start --help")
        try assertUsageError(["start", "-c"], says: "missing value for '-c'", hint: "stubserver start --help")
        try assertUsageError(["start", "-c", "a.json", "extra"], says: "unexpected argument 'extra'", hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "--max-memory", "lots"],
            says: "invalid size 'lots' for '--max-memory': expected bytes or a number with K, M or G, e.g. 256M",
            hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "--max-memory", "10K"], says: "size '10K' for '--max-memory' is out of range: expected at least 1M",
            hint: "stubserver start --help")
        try assertUsageError(
            ["start", "-c", "a.json", "--max-memory", "99999999999999G"],
            says: "size '99999999999999G' for '--max-memory' is out of range: expected at least 1M", hint: "stubserver start --help")
        try assertUsageError(["shutdown"], says: "missing '-s <shutdown-port>'", hint: "stubserver shutdown --help")
        try assertUsageError(["validate"], says: "missing '-c <config>' or '-g <settings>'", hint: "stubserver validate --help")
    }

    func testHelpIsAvailableEverywhereAndExitsZero() throws {
        for arguments in [
            ["--help"], ["-h"], ["start", "--help"], ["start", "-h", "-c", "x"], ["shutdown", "--help"], ["validate", "-h"],
            ["version", "--help"],
        ] {
            let result = try StubServerProcess.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stdout.contains { $0.hasPrefix("USAGE: stubserver") }, "\(arguments): \(result.stdout)")
        }
        let start = try StubServerProcess.run(["start", "--help"]).stdout.joined(separator: "\n")
        for option in [
            "-p, --port", "-c, --config", "-g, --settings", "-e, --env", "-s, --shutdown-port", "--host", "--threads", "--max-memory",
            "-q, --quiet",
        ] {
            XCTAssertTrue(start.contains(option), "start --help lacks \(option)")
        }
    }

    func testVersionPrintsTheVersion() throws {
        let result = try StubServerProcess.run(["version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.count, 1)
        XCTAssertTrue(result.stdout[0].hasPrefix("stubserver "), result.stdout[0])
    }

    /// The changelog's newest release is the version the tool prints.
    func testTheChangelogsNewestVersionIsTheOneVersionPrints() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try XCTUnwrap(changelog.split(separator: "\n").first { $0.hasPrefix("## ") }, changelog)
        let newest = heading.dropFirst(3).split(separator: " ").first.map(String.init)
        let printed = try StubServerProcess.run(["version"]).stdout.first
        XCTAssertEqual(printed, "stubserver \(newest ?? "?")", "CHANGELOG.md's first release heading is \(heading)")
        XCTAssertEqual(newest, StubServer.version)
    }

    func testShutdownWithNothingListeningIsARuntimeError() throws {
        // A port we just freed: nothing listens there.
        let listener = RawPortReservation()
        let port = listener.port
        listener.release()
        let result = try StubServerProcess.run(["shutdown", "-s", "\(port)"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.count, 1)
        XCTAssertTrue(result.stderr[0].hasPrefix("stubserver: error: nothing is listening on shutdown port \(port)"), result.stderr[0])
    }

    func testMissingConfigFileIsARuntimeErrorNamingTheFile() throws {
        let result = try StubServerProcess.run(["start", "-p", "0", "-c", "/definitely/not/here.json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.stderr.isEmpty)
        XCTAssertTrue(result.stderr.allSatisfy { $0.hasPrefix("stubserver: error: /definitely/not/here.json") }, "\(result.stderr)")
        XCTAssertFalse(result.stdout.contains { $0.hasPrefix("Server is started") })
    }
}

/// Binds an ephemeral port on 127.0.0.1 to learn a free port number.
final class RawPortReservation {
    let port: Int
    private var fd: Int32

    init() {
        let server = HTTPServerPortProbe()
        fd = server.fd
        port = server.port
    }

    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}

private struct HTTPServerPortProbe {
    let fd: Int32
    let port: Int

    init() {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        listen(fd, 1)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }
}
