import Foundation
import XCTest

@testable import StubServer

/// A scratch directory of config files, removed when the test ends.
final class ConfigFixture {
    let root: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        root = base + "/routing-fixture-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes `text` to `name` (relative to the root; directories are created) and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = root + "/" + name
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func path(_ name: String) -> String { root + "/" + name }

    /// Loads `name` as `-c` with the fixture root as the working directory.
    func load(_ name: String) throws -> LoadedConfig {
        try ConfigLoader.load(config: name, workingDirectory: root)
    }

    /// The diagnostics loading `name` produces (fails the test if it loads).
    func diagnostics(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> [ConfigDiagnostic] {
        do {
            _ = try load(name)
            XCTFail("expected \(name) not to load", file: file, line: line)
            return []
        } catch let error as ConfigError {
            return error.diagnostics
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return []
        }
    }

    /// A router for one config text (written as `stubs.json`).
    func router(_ config: String) throws -> Router {
        try write("stubs.json", config)
        return try load("stubs.json").router
    }
}

/// A response as the router produced it, whichever payload form it took.
struct RoutedResponse {
    var status: Int
    var version: HTTPVersion?
    var headers: HTTPHeaders
    var body: [UInt8]
    var delay: Duration
    var stub: StubReference?
    var wasPrepared: Bool

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name] }
}

extension Router {
    /// Routes a request built from parts and flattens the reply.
    func answer(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
        version: HTTPVersion = .http1_1, remoteAddress: String = "127.0.0.1", remotePort: Int = 50_000
    ) -> RoutedResponse {
        let request = HTTPRequest(
            method: method, target: target, version: version, headers: HTTPHeaders(headers), body: Array(body.utf8),
            remoteAddress: remoteAddress, remotePort: remotePort)
        let result = route(request)
        switch result.reply.payload {
        case .prepared(let prepared):
            let response = prepared.response
            return RoutedResponse(
                status: response.status, version: response.version, headers: response.headers, body: response.body,
                delay: result.reply.delay, stub: result.stub, wasPrepared: true)
        case .response(let response):
            return RoutedResponse(
                status: response.status, version: response.version, headers: response.headers, body: response.body,
                delay: result.reply.delay, stub: result.stub, wasPrepared: false)
        case .close, .deferred, .streamed, .upgraded, .fault:
            // Not a complete response: tests of these kinds talk to a live server.
            return RoutedResponse(
                status: result.reply.status, version: nil, headers: HTTPHeaders(), body: [], delay: result.reply.delay, stub: result.stub,
                wasPrepared: false)
        }
    }
}

/// Starts a real server for a config text and talks HTTP to it on 127.0.0.1.
final class LiveStubs {
    let fixture: ConfigFixture
    let server: StubServer

    init(_ config: String, files: [String: String] = [:]) throws {
        fixture = try ConfigFixture()
        for (name, text) in files { try fixture.write(name, text) }
        try fixture.write("stubs.json", config)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 2
        server = try StubServer(configFile: fixture.path("stubs.json"), options: options)
        try server.start()
    }

    deinit { server.stop() }

    /// One request on a fresh connection (`Host` and `Content-Length` added).
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [], version: String = "HTTP/1.1"
    ) throws -> RawHTTPResponse {
        var head = "\(method) \(target) \(version)\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let client = try RawHTTPClient(port: server.port)
        try client.send(Array(head.utf8) + body)
        return try client.readResponse(forHEAD: method == "HEAD")
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: String, version: String = "HTTP/1.1") throws
        -> RawHTTPResponse
    {
        try send(method, target, headers: headers, body: Array(body.utf8), version: version)
    }
}

/// A deterministic random source for reproducible property tests.
struct RoutingSeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
