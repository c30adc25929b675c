import Foundation
import StubServerTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `stubserver start` process under abuse: floods of the shutdown port, hostile edits.
final class CLIHardeningTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        try directory.write("conf.json", #"[{"request": {"uri": "/hello"}, "response": {"text": "v1"}}]"#)
    }

    private func start() throws -> (process: StubServerProcess, port: Int, shutdownPort: Int) {
        let process = try StubServerProcess(["start", "-p", "0", "-c", "conf.json", "-q"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        let line = try XCTUnwrap(process.waitForLine { $0.hasPrefix("Shutdown port is ") })
        return (process, port, try XCTUnwrap(Int(line.dropFirst("Shutdown port is ".count))))
    }

    /// Silent connections to the shutdown port, plus a thread that keeps opening more.
    private final class Flood: @unchecked Sendable {
        private let lock = NSLock()
        private var clients: [RawHTTPClient] = []
        private var running = true

        init(port: Int, initial: Int) {
            for _ in 0..<initial { if let client = try? RawHTTPClient(port: port, timeout: 1) { clients.append(client) } }
            Thread.detachNewThread { [self] in
                while isRunning {
                    guard let client = try? RawHTTPClient(port: port, timeout: 1) else { Thread.sleep(forTimeInterval: 0.005); continue }
                    lock.lock()
                    clients.append(client)
                    if clients.count > 600 { clients.removeFirst(100) }
                    lock.unlock()
                }
            }
        }

        var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }
        var count: Int { lock.lock(); defer { lock.unlock() }; return clients.count }

        func stop() {
            lock.lock(); running = false; clients = []; lock.unlock()
        }
    }

    /// Before, each shutdown-port connection held a global-pool thread for 5 s and SIGTERM's
    /// handler ran on that pool: 20 silent connections delayed exit by 9 s, a flood by 45 s.
    func testSIGTERMExitsWithinTheGracefulStopTimeUnderAShutdownPortFlood() throws {
        let (process, port, shutdownPort) = try start()
        let flood = Flood(port: shutdownPort, initial: 200)
        defer { flood.stop() }
        XCTAssertGreaterThanOrEqual(flood.count, 100)
        XCTAssertEqual(try RawHTTPClient.get(port: port, "/hello").text, "v1", "the flood does not touch the HTTP port")
        let signalled = Date()
        process.send(signal: SIGTERM)
        let status = process.waitForExit(timeout: 60)
        let elapsed = Date().timeIntervalSince(signalled)
        XCTAssertEqual(status, 0)
        // Graceful stop is 2 s; the issue's bound is 3 s.
        XCTAssertLessThan(elapsed, 3, "SIGTERM took \(elapsed) s under a shutdown-port flood")
        print("SIGTERM under a shutdown-port flood of \(flood.count) connections: exited in \(String(format: "%.3f", elapsed)) s")
    }

    /// The real shutdown request gets through a flood of silent ones.
    func testShutdownCommandWorksDuringAFlood() throws {
        let (process, _, shutdownPort) = try start()
        let flood = Flood(port: shutdownPort, initial: 200)
        defer { flood.stop() }
        let shutdown = try StubServerProcess.run(["shutdown", "-s", "\(shutdownPort)"])
        XCTAssertEqual(shutdown.status, 0, "\(shutdown.stderr)")
        XCTAssertEqual(process.waitForExit(), 0)
    }

    #if os(Linux)
    /// Before, one accept burst took every waiting connection: 128 silent ones queued behind the
    /// real request pushed it out unread (with its key in the socket), the server kept running,
    /// and `stubserver shutdown` still exited 0. The burst is made certain here by stopping the
    /// server while the connections queue up.
    func testAShutdownRequestQueuedBeforeABurstOfSilentClientsStillStopsTheServer() throws {
        let (process, _, shutdownPort) = try start()
        let pid = process.process.processIdentifier
        func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0 }
        let idle = descriptors()
        // The server holds 128 silent clients: its limit.
        var silent: [RawHTTPClient] = []
        for _ in 0..<ShutdownPortLimit.maxClients { silent.append(try RawHTTPClient(port: shutdownPort)) }
        let deadline = Date().addingTimeInterval(30)
        while descriptors() < idle + ShutdownPortLimit.maxClients && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertGreaterThanOrEqual(descriptors(), idle + ShutdownPortLimit.maxClients, "the server did not take the silent clients")
        // Stopped, the server accepts nothing: the request and 128 more wait in the listen queue.
        kill(pid, SIGSTOP)
        var resumed = false
        defer { if !resumed { kill(pid, SIGCONT) } }
        let request = try RawHTTPClient(port: shutdownPort)
        try request.send("_SHUTDOWN_MOCO_KEY\n")
        for _ in 0..<ShutdownPortLimit.maxClients { silent.append(try RawHTTPClient(port: shutdownPort, timeout: 1)) }
        kill(pid, SIGCONT)
        resumed = true
        XCTAssertEqual(process.waitForExit(), 0, "the queued shutdown request was dropped")
        silent.removeAll()
    }
    #endif

    /// Before, any close of its connection counted as "stopped": a port that dropped the request
    /// before the key arrived (as a flood's eviction does) made `stubserver shutdown` exit 0
    /// with the server still running. Here a stand-in port closes the first connection unread,
    /// takes the key on the second, then stops listening.
    func testShutdownCommandSendsAgainWhenItsRequestWasDroppedUnread() throws {
        let port = try DroppingShutdownPort()
        let result = try StubServerProcess.run(["shutdown", "-s", "\(port.port)"])
        XCTAssertEqual(result.status, 0, "\(result.stderr)")
        XCTAssertEqual(port.received, "_SHUTDOWN_MOCO_KEY\n", "the key never reached the port")
    }

    /// A hot edit to `"latency": 1e308` used to end the process; it is reported and the last
    /// good configuration keeps serving.
    func testHostileHotEditKeepsTheServerRunning() throws {
        let (process, port, _) = try start()
        try directory.write("conf.json", #"[{"request": {"uri": "/hello"}, "response": {"text": "v2", "latency": 1e308}}]"#)
        XCTAssertNotNil(process.waitForLine { $0.contains("configuration is broken") }, "\(process.stdout) \(process.stderr)")
        XCTAssertNotNil(process.waitForLine { $0.contains("response.latency") }, "\(process.stderr)")
        XCTAssertTrue(process.process.isRunning)
        XCTAssertEqual(try RawHTTPClient.get(port: port, "/hello").text, "v1")
        try directory.write("conf.json", #"[{"request": {"uri": "/hello"}, "response": {"text": "v3"}}]"#)
        XCTAssertNotNil(process.waitForLine { $0.contains("configuration reloaded") })
        XCTAssertEqual(try RawHTTPClient.get(port: port, "/hello").text, "v3")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }
}

/// `ShutdownPort.maxClients` (in the CLI target, which tests cannot import).
private enum ShutdownPortLimit {
    static let maxClients = 128
}

/// A shutdown port that closes its first connection without reading, reads the key from the
/// second, then closes the listener and that connection (as a server that stopped).
private final class DroppingShutdownPort: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var text = ""
    private let done = DispatchSemaphore(value: 0)

    var received: String {
        _ = done.wait(timeout: .now() + 30)
        lock.lock(); defer { lock.unlock() }
        return text
    }

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { throw NSError(domain: "DroppingShutdownPort", code: Int(errno)) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    private func serve() {
        defer { done.signal() }
        let first = accept(listener, nil, nil)
        guard first >= 0 else { return }
        close(first) // dropped before a byte was read
        let second = accept(listener, nil, nil)
        guard second >= 0 else { return }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while !bytes.contains(UInt8(ascii: "\n")) {
            let count = chunk.withUnsafeMutableBytes { recv(second, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        lock.lock(); text = String(decoding: bytes, as: UTF8.self); lock.unlock()
        close(listener) // stopped: the port refuses from now on
        close(second)
    }
}
