import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// What the engine's reply-kind tests observe from the server side.
final class ReplyProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private var producedBytes = 0

    func note(_ event: String) { lock.lock(); events.append(event); lock.unlock() }
    func produced(_ count: Int) { lock.lock(); producedBytes += count; lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return events }
    var bytes: Int { lock.lock(); defer { lock.unlock() }; return producedBytes }

    /// Waits (polling) until `predicate` holds; false after `timeout`.
    func wait(timeout: TimeInterval = 15, _ predicate: ([String]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if predicate(all) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return predicate(all)
    }
}

/// Answers each path with one kind of reply:
/// `/deferred/<ms>` fulfilled from another thread, `/deferred-now` fulfilled before returning,
/// `/never` never fulfilled, `/stream/<n>` n pieces, `/endless` 64 KiB pieces forever,
/// `/slow-stream` pieces 10 s apart, `/echo-upgrade` an echo protocol, `/reset`, `/garbage`,
/// anything else a plain 200 naming the path.
struct ReplyKindsResponder: HTTPResponder {
    let probe: ReplyProbe

    func respond(to request: HTTPRequest) -> HTTPReply {
        let path = String(request.rawPath)
        let probe = probe
        let sent: @Sendable (Int, Duration) -> Void = { status, _ in probe.note("sent \(path) \(status)") }
        if path.hasPrefix("/deferred/"), let ms = Int(path.dropFirst(10)) {
            let promise = HTTPReplyPromise()
            promise.onCancel { probe.note("cancelled \(path)") }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) {
                promise.fulfill(HTTPResponse(status: 201, body: Array("late \(path)".utf8)))
            }
            return HTTPReply(.deferred(promise), onSent: sent)
        }
        if path == "/deferred-now" {
            let promise = HTTPReplyPromise()
            promise.fulfill(HTTPResponse(status: 200, body: Array("now".utf8)))
            return HTTPReply(.deferred(promise), onSent: sent)
        }
        if path == "/never" {
            let promise = HTTPReplyPromise()
            promise.onCancel { probe.note("cancelled \(path)") }
            return HTTPReply(.deferred(promise), onSent: sent)
        }
        if path.hasPrefix("/stream/"), let count = Int(path.dropFirst(8)) {
            let pieces = (0..<count).map { HTTPStreamedResponse.Piece(Array("piece \($0)\n".utf8), pauseAfter: .milliseconds(20)) }
            return HTTPReply(
                .streamed(HTTPStreamedResponse(head: HTTPResponse(headers: ["Content-Type": "text/plain"]), pieces: pieces)), onSent: sent)
        }
        if path == "/endless" {
            let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            return HTTPReply(
                .streamed(
                    HTTPStreamedResponse(head: HTTPResponse()) { stream in
                        if stream.index == 0 { stream.onCancel { probe.note("cancelled /endless") } }
                        probe.produced(piece.count)
                        stream.write(piece)
                    }), onSent: sent)
        }
        if path == "/slow-stream" {
            return HTTPReply(
                .streamed(
                    HTTPStreamedResponse(head: HTTPResponse()) { stream in
                        if stream.index == 0 { stream.onCancel { probe.note("cancelled /slow-stream") } }
                        stream.schedule(after: stream.index == 0 ? .zero : .seconds(10)) { stream.write(Array("tick\n".utf8)) }
                    }), onSent: sent)
        }
        if path == "/echo-upgrade" {
            return HTTPReply(
                .upgraded(
                    HTTPUpgrade(head: HTTPResponse(status: 101, headers: ["Upgrade": "echo"])) {
                        EchoProtocol(probe: probe)
                    }), onSent: sent)
        }
        if path == "/reset" { return HTTPReply(.fault(.connectionReset), onSent: sent) }
        if path == "/garbage" { return HTTPReply(.fault(.bytesThenClose(Array("NOT HTTP\u{0}\u{1}".utf8))), onSent: sent) }
        return HTTPReply(.response(HTTPResponse(status: 200, body: Array("plain \(path)".utf8))), onSent: sent)
    }
}

/// Echoes every byte; "bye" closes; a stop says "stopping".
final class EchoProtocol: HTTPUpgradeHandler {
    let probe: ReplyProbe
    var channel: HTTPUpgradedChannel?
    init(probe: ReplyProbe) { self.probe = probe }
    func didStart(_ channel: HTTPUpgradedChannel) { self.channel = channel; probe.note("upgraded") }
    func didReceive(_ bytes: [UInt8]) {
        if bytes == Array("bye".utf8) { channel?.send(Array("ciao".utf8)); channel?.close(); return }
        channel?.send(bytes)
    }
    func didClose() { probe.note("upgrade closed"); channel = nil }
    func serverWillStop() { channel?.send(Array("stopping".utf8)); channel?.close() }
}

final class HTTPReplyKindsTests: XCTestCase {
    private var server: HTTPServer!
    private let probe = ReplyProbe()

    private func start(_ configure: (inout HTTPServerLimits) -> Void = { _ in }) throws {
        var limits = HTTPServerLimits()
        configure(&limits)
        var configuration = HTTPServer.Configuration(limits: limits)
        configuration.eventLoopCount = 2
        server = HTTPServer(configuration: configuration, responder: ReplyKindsResponder(probe: probe))
        try server.start()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    // MARK: Deferred

    func testDeferredReplyIsAnsweredWhenFulfilledFromAnotherThread() throws {
        try start()
        let response = try RawHTTPClient.exchange(port: server.port, "GET /deferred/50 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.text, "late /deferred/50")
        XCTAssertTrue(probe.wait { $0.contains("sent /deferred/50 201") }, "\(probe.all)")
    }

    func testPipelinedRequestsBehindDeferredRepliesAreAnsweredInOrder() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send(
            "GET /deferred/150 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /first HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /deferred/10 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /deferred-now HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /last HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        XCTAssertEqual(try client.readResponse().text, "late /deferred/150")
        XCTAssertEqual(try client.readResponse().text, "plain /first")
        XCTAssertEqual(try client.readResponse().text, "late /deferred/10")
        XCTAssertEqual(try client.readResponse().text, "now")
        XCTAssertEqual(try client.readResponse().text, "plain /last")
    }

    func testDeferredReplyWaitsForItsLatencyToo() throws {
        final class Delayed: HTTPResponder {
            func respond(to request: HTTPRequest) -> HTTPReply {
                let promise = HTTPReplyPromise()
                promise.fulfill(HTTPResponse(status: 202))
                return HTTPReply(.deferred(promise), delay: .milliseconds(200))
            }
        }
        let delayed = HTTPServer(responder: Delayed())
        try delayed.start()
        defer { delayed.stop() }
        let before = Date()
        XCTAssertEqual(try RawHTTPClient.exchange(port: delayed.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 202)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(before), 0.19)
    }

    func testClientThatDisconnectsCancelsTheDeferredWork() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.05)
        close(client.fd)
        XCTAssertTrue(probe.wait { $0.contains("cancelled /never") }, "\(probe.all)")
        XCTAssertTrue(probe.wait { $0.contains("sent /never 0") }, "the journal hears of the abandoned exchange: \(probe.all)")
    }

    func testUnfulfilledDeferredReplyTimesOutWith504AndIsCancelled() throws {
        try start { $0.replyTimeout = .milliseconds(200) }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 504)
        XCTAssertTrue(response.text.contains("not ready"), response.text)
        XCTAssertTrue(probe.wait { $0.contains("cancelled /never") }, "\(probe.all)")
        // The connection keeps serving.
        try client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "plain /after")
    }

    func testGracefulStopCancelsADeferredReplyThatNeverComes() throws {
        try start { $0.stopTimeout = .milliseconds(200) }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.05)
        server.stop()
        XCTAssertTrue(client.waitForClose(timeout: 10))
        XCTAssertTrue(probe.wait { $0.contains("cancelled /never") }, "\(probe.all)")
    }

    // MARK: Streamed

    func testStreamedBodyIsChunkedOnePiecePerChunkThenKeepsTheConnection() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /stream/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(response.header("Content-Length"))
        XCTAssertEqual(response.chunks.map { String(decoding: $0, as: UTF8.self) }, ["piece 0\n", "piece 1\n", "piece 2\n"])
        XCTAssertTrue(probe.wait { $0.contains("sent /stream/3 200") }, "\(probe.all)")
        try client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "plain /after")
    }

    func testStreamedPiecesArriveOverTime() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /slow-stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(try client.readChunk().map { String(decoding: $0, as: UTF8.self) }, "tick\n")
        // The next piece is 10 s away: nothing more arrives for a while.
        XCTAssertNil(client.closeKind(timeout: 0.3))
        XCTAssertTrue(client.unread.isEmpty)
    }

    func testHTTP10GetsACloseDelimitedStream() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /stream/2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.version, "HTTP/1.0")
        XCTAssertNil(response.header("Transfer-Encoding"))
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertEqual(response.text, "piece 0\npiece 1\n")
    }

    func testHeadOfAStreamHasNoBody() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("HEAD /stream/2 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse(forHEAD: true)
        XCTAssertEqual(response.status, 200)
        try client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "plain /after")
    }

    func testAReaderThatStopsReadingStopsTheProducer() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        // A small receive buffer so the kernel cannot absorb much either.
        var size: Int32 = 16 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        try client.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(probe.wait { _ in self.probe.bytes > 0 })
        Thread.sleep(forTimeInterval: 0.5)
        let settled = probe.bytes
        Thread.sleep(forTimeInterval: 0.5)
        // Nothing read: production stops once the socket buffers are full (a few MB at most).
        XCTAssertEqual(probe.bytes, settled, "the producer kept going for a reader that reads nothing")
        XCTAssertLessThan(settled, 16 * 1024 * 1024)
        // Reading resumes production.
        _ = try client.readHead()
        for _ in 0..<200 { _ = try client.readChunk() }
        XCTAssertGreaterThan(probe.bytes, settled)
        close(client.fd)
        XCTAssertTrue(probe.wait { $0.contains("cancelled /endless") }, "\(probe.all)")
        XCTAssertTrue(probe.wait { $0.contains("sent /endless 200") }, "\(probe.all)")
    }

    func testSilentProducerEndsTheStreamAtTheReplyTimeout() throws {
        try start { $0.replyTimeout = .milliseconds(300) }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /slow-stream HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readHead()
        _ = try client.readChunk()
        XCTAssertNotNil(client.closeKind(timeout: 10), "the stream should be cut")
        XCTAssertTrue(probe.wait { $0.contains("cancelled /slow-stream") }, "\(probe.all)")
    }

    func testGracefulStopEndsAStreamWithinTheStopTimeout() throws {
        try start { $0.stopTimeout = .milliseconds(300) }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /slow-stream HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readHead()
        let before = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(before), 5)
        XCTAssertNotNil(client.closeKind(timeout: 5))
    }

    // MARK: Upgraded

    func testUpgradedConnectionIsHandedToTheProtocolHandler() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /echo-upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nearly")
        let head = try client.readHead()
        XCTAssertEqual(head.statusLine, "HTTP/1.1 101 Switching Protocols")
        XCTAssertEqual(head.header("Connection"), "Upgrade")
        XCTAssertEqual(head.header("Upgrade"), "echo")
        XCTAssertNil(head.header("Content-Length"))
        XCTAssertEqual(try client.readBytes(5), Array("early".utf8))
        try client.send("GET / HTTP/1.1\r\n\r\n") // no longer HTTP: echoed as bytes
        XCTAssertEqual(String(decoding: try client.readBytes(18), as: UTF8.self), "GET / HTTP/1.1\r\n\r\n")
        try client.send("bye")
        XCTAssertEqual(try client.readBytes(4), Array("ciao".utf8))
        XCTAssertEqual(client.closeKind(), false)
        XCTAssertTrue(probe.wait { $0.contains("upgrade closed") && $0.contains("sent /echo-upgrade 101") }, "\(probe.all)")
    }

    func testUpgradedHandlerHearsOfAClientThatLeaves() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /echo-upgrade HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readHead()
        close(client.fd)
        XCTAssertTrue(probe.wait { $0.contains("upgrade closed") }, "\(probe.all)")
    }

    func testGracefulStopAsksTheUpgradedHandlerToSayGoodbye() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /echo-upgrade HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readHead()
        XCTAssertTrue(probe.wait { $0.contains("upgraded") })
        server.stop()
        XCTAssertEqual(try client.readBytes(8), Array("stopping".utf8))
        XCTAssertNotNil(client.closeKind(timeout: 5))
    }

    func testIdleUpgradedConnectionIsClosed() throws {
        try start { $0.upgradedIdleTimeout = .milliseconds(200) }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /echo-upgrade HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readHead()
        XCTAssertNotNil(client.closeKind(timeout: 10))
        XCTAssertTrue(probe.wait { $0.contains("upgrade closed") }, "\(probe.all)")
    }

    // MARK: Faults

    func testConnectionResetFaultSendsAReset() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.closeKind(), true, "expected ECONNRESET")
        XCTAssertTrue(client.unread.isEmpty)
        XCTAssertTrue(probe.wait { $0.contains("sent /reset 0") }, "\(probe.all)")
    }

    func testBytesThenCloseFaultSendsExactlyThoseBytes() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /garbage HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readUntilClose(), Array("NOT HTTP\u{0}\u{1}".utf8))
    }

    func testAnswersBeforeAFaultAreStillDelivered() throws {
        try start()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /garbage HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "plain /first")
        XCTAssertEqual(try client.readUntilClose(), Array("NOT HTTP\u{0}\u{1}".utf8))
    }
}
