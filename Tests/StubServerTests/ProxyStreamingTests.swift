import Foundation
import XCTest

@testable import StubServer

/// A proxied body is relayed as the upstream sends it: server-sent events pass through one by
/// one (no `Content-Length` after the last event), and a body larger than the upstream client
/// would collect streams through. Over real sockets, upstream included.
final class ProxyStreamingTests: XCTestCase {
    /// The upstream sends one event, then waits 30 s before the next: a buffering proxy
    /// answers nothing within the client's 15 s read timeout; a relaying one passes the first
    /// event on at once, chunked.
    func testProxiedServerSentEventsPassThroughAsTheyArrive() throws {
        let upstream = try LiveStubs(
            """
            [{"request": {"uri": "/events"}, "response": {"sse": [
              {"event": "message", "data": "Hello", "delay": {"duration": 30, "unit": "second"}},
              {"event": "message", "data": "World"}
            ]}}]
            """)
        let proxy = try LiveStubs(
            #"[{"request": {"uri": "/sse-proxy"}, "response": {"proxy": "http://127.0.0.1:\#(upstream.server.port)/events"}}]"#)
        let client = try RawHTTPClient(port: proxy.server.port)
        try client.send("GET /sse-proxy HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        let head = try client.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream")
        XCTAssertNil(head.header("Content-Length"), "the end of an event stream is not known in advance")
        XCTAssertEqual(head.header("Transfer-Encoding"), "chunked")
        let first = try XCTUnwrap(try client.readChunk())
        let text = String(decoding: first, as: UTF8.self)
        XCTAssertTrue(text.contains("data: Hello"), text)
        XCTAssertFalse(text.contains("World"), "the second event is not sent yet")
    }

    /// A short event stream arrives whole, in order, and ends with the upstream's end.
    func testAProxiedEventStreamEndsWhenTheUpstreamEnds() throws {
        let upstream = try LiveStubs(
            """
            [{"request": {"uri": "/events"}, "response": {"sse": [{"data": "a", "delay": 20}, {"data": "b", "delay": 20}, {"data": "c"}]}}]
            """)
        let proxy = try LiveStubs(
            #"[{"request": {"uri": "/p"}, "response": {"proxy": "http://127.0.0.1:\#(upstream.server.port)/events", "headers": {"X-Via": "stub"}}}]"#
        )
        let client = try RawHTTPClient(port: proxy.server.port)
        try client.send("GET /p HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let head = try client.readHead()
        XCTAssertEqual(head.header("X-Via"), "stub", "the session's own headers still apply")
        var body: [UInt8] = []
        while let chunk = try client.readChunk() { body += chunk }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "data: a\n\ndata: b\n\ndata: c\n\n")
        // The connection serves the next request after the stream.
        try client.send("GET /p HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try client.readHead().status, 200)
    }

    /// The upstream client collects at most `maxResponseBytes` of a body; a relayed body is
    /// handed on in pieces and may be any size.
    func testARelayedBodyIsNotLimitedToWhatTheClientCollects() throws {
        let size = 4 * 1024 * 1024
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let upstream = try ScriptedTCPServer { _ in
            Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8) + payload
        }
        var configuration = UpstreamClient.Configuration()
        configuration.maxResponseBytes = 1024 * 1024
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }

        let buffered = expectation(description: "buffered call answered")
        let bufferedResult = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        client.send(try UpstreamRequest(method: "GET", url: "http://127.0.0.1:\(upstream.port)/big")) { result in
            bufferedResult.value = result
            buffered.fulfill()
        }
        wait(for: [buffered], timeout: 20)
        guard case .failure? = bufferedResult.value else {
            return XCTFail("collected whole, the body is over the limit: \(String(describing: bufferedResult.value))")
        }

        var request = try UpstreamRequest(method: "GET", url: "http://127.0.0.1:\(upstream.port)/big")
        let body = UpstreamBodyStream()
        request.bodyStream = body
        let received = LockedBox<[UInt8]>([])
        let headBox = LockedBox<UpstreamResponse?>(nil)
        let ended = expectation(description: "the relayed body ended")
        @Sendable func pull() {
            body.next { event in
                switch event {
                case .bytes(let bytes):
                    received.value += bytes
                    pull()
                case .end: ended.fulfill()
                case .failed(let reason):
                    XCTFail(reason)
                    ended.fulfill()
                }
            }
        }
        let headArrived = expectation(description: "the head arrived")
        client.send(request) { result in
            headBox.value = try? result.get()
            headArrived.fulfill()
        }
        wait(for: [headArrived], timeout: 20)
        // A consumer that does not pull: the connection stops reading once the buffer is full
        // (TCP holds the rest), so what waits here stays bounded.
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertGreaterThan(body.bufferedByteCount, 0)
        XCTAssertLessThanOrEqual(body.bufferedByteCount, UpstreamBodyStream.highWaterMark + 64 * 1024)
        pull()
        wait(for: [ended], timeout: 30)
        XCTAssertEqual(headBox.value?.status, 200)
        XCTAssertEqual(headBox.value?.body, [], "the completion gets the head alone")
        XCTAssertEqual(received.value.count, size)
        XCTAssertTrue(received.value == payload)
    }
}
