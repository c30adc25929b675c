import Foundation
import XCTest

@testable import StubServer

/// Upgraded (websocket-style) connections under the engine's bounds: they count against the
/// connection cap and make room when silent, and a peer that stops reading cannot make the
/// server queue without bound.
final class HTTPUpgradedLimitsTests: XCTestCase {
    private var server: HTTPServer!
    private let probe = ReplyProbe()

    private func start(_ configure: (inout HTTPServerLimits) -> Void) throws {
        var limits = HTTPServerLimits()
        configure(&limits)
        var configuration = HTTPServer.Configuration(limits: limits)
        configuration.eventLoopCount = 2
        server = HTTPServer(configuration: configuration, responder: FloodingResponder(probe: probe))
        try server.start()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func upgrade() throws -> RawHTTPClient {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: flood\r\nConnection: Upgrade\r\n\r\n")
        XCTAssertEqual(try client.readHead().status, 101)
        return client
    }

    /// At the cap, an upgraded connection silent for the keep-alive idle time makes room for a
    /// new client; one with recent traffic keeps its slot. Before, upgraded connections were
    /// never evicted, so the new client was closed at once.
    func testSilentUpgradedConnectionMakesRoomAtTheConnectionCap() throws {
        try start {
            $0.maxConnections = 2
            $0.idleTimeout = .milliseconds(400)
        }
        let silent = try upgrade()
        let chatty = try upgrade()
        // Keep one talking while the other stays silent past the idle time.
        for round in 0..<8 {
            try chatty.send("ping\(round)")
            XCTAssertEqual(try chatty.readBytes(5), Array("ping\(round)".utf8))
            Thread.sleep(forTimeInterval: 0.1)
        }
        let response = try RawHTTPClient.exchange(port: server.port, "GET /plain HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertNotNil(silent.closeKind(timeout: 5), "the silent upgraded connection is the one evicted")
        try chatty.send("still")
        XCTAssertEqual(try chatty.readBytes(5), Array("still".utf8), "the connection in use keeps its slot")
    }

    /// A recently active upgraded connection is not a candidate: at the cap with only those,
    /// a new client is refused rather than cutting a live conversation.
    func testActiveUpgradedConnectionsAreNotEvicted() throws {
        try start {
            $0.maxConnections = 1
            $0.idleTimeout = .seconds(30)
        }
        let active = try upgrade()
        let newcomer = try RawHTTPClient(port: server.port)
        XCTAssertTrue(newcomer.waitForClose(timeout: 5), "over the cap with nothing idle: refused")
        try active.send("hello")
        XCTAssertEqual(try active.readBytes(5), Array("hello".utf8))
    }

    /// A peer that stops reading is closed once `outputHighWaterMark` bytes wait for it, instead
    /// of the server queueing everything its handler sends. Before, all 32 MiB were queued.
    func testPeerThatStopsReadingIsClosedOnceItsQueueIsFull() throws {
        try start { $0.outputHighWaterMark = 256 * 1024 }
        let client = try RawHTTPClient(port: server.port, receiveBuffer: 16 * 1024)
        try client.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: flood\r\n\r\n")
        XCTAssertEqual(try client.readHead().status, 101)
        try client.send("flood")
        XCTAssertTrue(probe.wait { $0.contains("flooded") }, "\(probe.all)")
        XCTAssertTrue(probe.wait(timeout: 10) { $0.contains("closed") }, "a peer that never reads is closed: \(probe.all)")
        XCTAssertLessThan(server.memory.inUse, 4 * 1024 * 1024, "nothing is left queued for it")
        let received = (try? client.readUntilClose()) ?? []
        XCTAssertLessThan(received.count, FloodingProtocol.floodBytes / 2, "it was closed long before the flood was queued")
    }

    /// A burst from one upgraded client is handed to its handler in slices, so the loop serves
    /// other connections in between. Before, a whole 64 KiB read went to the handler at once
    /// (a websocket broadcast fans each message out to every member), and a plain request on
    /// the same loop waited for all of it.
    func testABurstOnOneUpgradedConnectionDoesNotHoldTheLoop() throws {
        var configuration = HTTPServer.Configuration()
        configuration.eventLoopCount = 1
        server = HTTPServer(configuration: configuration, responder: FloodingResponder(probe: probe))
        try server.start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: flood\r\n\r\n")
        XCTAssertEqual(try client.readHead().status, 101)
        try client.send([UInt8](repeating: UInt8(ascii: "~"), count: 256 * 1024)) // "~": slow work per byte
        XCTAssertTrue(probe.wait { _ in self.probe.bytes > 0 }, "the handler started")
        let response = try RawHTTPClient.exchange(port: server.port, "GET /plain HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertLessThan(probe.bytes, 48 * 1024, "the plain request was served after a slice, not after the whole read")
    }
}

/// `/upgrade` switches to `FloodingProtocol`; anything else is a plain 200.
private struct FloodingResponder: HTTPResponder {
    let probe: ReplyProbe

    func respond(to request: HTTPRequest) -> HTTPReply {
        guard request.rawPath == "/upgrade" else { return HTTPReply(.response(HTTPResponse(status: 200, body: Array("plain".utf8)))) }
        let probe = probe
        return HTTPReply(
            .upgraded(
                HTTPUpgrade(head: HTTPResponse(status: 101, headers: ["Upgrade": "flood"])) {
                    FloodingProtocol(probe: probe)
                }))
    }
}

/// Echoes bytes; bytes starting with `~` are slow work (10 µs each); `flood` sends `floodBytes`
/// in 64 KiB pieces at once, as a burst of broadcasts to a member that does not read would.
private final class FloodingProtocol: HTTPUpgradeHandler {
    static let floodBytes = 32 * 1024 * 1024
    let probe: ReplyProbe
    var channel: HTTPUpgradedChannel?
    init(probe: ReplyProbe) { self.probe = probe }
    func didStart(_ channel: HTTPUpgradedChannel) { self.channel = channel }
    func didReceive(_ bytes: [UInt8]) {
        if bytes.first == UInt8(ascii: "~") {
            // Slow work: 10 µs a byte, as a broadcast to many members costs per message.
            for _ in bytes {
                let end = DispatchTime.now().uptimeNanoseconds + 10_000
                while DispatchTime.now().uptimeNanoseconds < end {}
            }
            probe.produced(bytes.count)
            return
        }
        guard bytes == Array("flood".utf8) else { channel?.send(bytes); return }
        let piece = [UInt8](repeating: UInt8(ascii: "f"), count: 64 * 1024)
        for _ in 0..<(Self.floodBytes / piece.count) {
            guard let channel else { break }
            channel.send(piece)
        }
        probe.note("flooded")
    }
    func didClose() { probe.note("closed"); channel = nil }
}
