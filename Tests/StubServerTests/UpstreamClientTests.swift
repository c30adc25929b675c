import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

final class UpstreamClientTests: XCTestCase {
    private func call(_ client: UpstreamClient, _ request: UpstreamRequest, timeout: TimeInterval = 20) -> Result<
        UpstreamResponse, UpstreamError
    >? {
        let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = expectation(description: "upstream answered")
        client.send(request) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return box.value
    }

    private func get(_ url: String, headers: HTTPHeaders = HTTPHeaders(), client: UpstreamClient = .shared) throws -> Result<
        UpstreamResponse, UpstreamError
    >? {
        call(client, try UpstreamRequest(method: "GET", url: url, headers: headers))
    }

    func testGetsStatusHeadersAndBodyFromAStubServer() throws {
        let upstream = try StubServer(stubs: [
            StubDefinition(
                request: .get("/hello"), response: .json(["greeting": "hi"], status: 201, headers: [ResponseHeader("X-Up", "1")]))
        ])
        try upstream.start()
        defer { upstream.stop() }
        let response = try XCTUnwrap(try get("http://127.0.0.1:\(upstream.port)/hello")?.get())
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.headers["X-Up"], "1")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"greeting":"hi"}"#)
    }

    func testPostsABodyAndSendsHostAndContentLength() throws {
        let upstream = try startEchoServer()
        defer { upstream.stop() }
        let request = try UpstreamRequest(
            method: "POST", url: "http://127.0.0.1:\(upstream.port)/echo?q=1", headers: ["X-A": "b"], body: Array("payload".utf8))
        let response = try XCTUnwrap(call(.shared, request)?.get())
        let text = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("POST /echo?q=1 HTTP/1.1 body=7"), text)
        XCTAssertTrue(text.contains("Host=127.0.0.1:\(upstream.port)"), text)
        XCTAssertTrue(text.contains("Content-Length=7"), text)
        XCTAssertTrue(text.contains("X-A=b"), text)
    }

    func testRemovesHopByHopFieldsTowardTheUpstream() throws {
        let upstream = try startEchoServer()
        defer { upstream.stop() }
        let headers: HTTPHeaders = [
            "Connection": "X-Secret, keep-alive", "X-Secret": "1", "Keep-Alive": "timeout=5", "TE": "trailers",
            "Proxy-Connection": "keep-alive", "Upgrade": "websocket", "X-Kept": "yes",
        ]
        let response = try XCTUnwrap(try get("http://127.0.0.1:\(upstream.port)/h", headers: headers)?.get())
        let text = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(text.contains("X-Kept=yes"), text)
        for name in ["X-Secret", "Keep-Alive", "TE=", "Proxy-Connection", "Upgrade", "Connection="] {
            XCTAssertFalse(text.contains(name), "\(name) was forwarded: \(text)")
        }
    }

    func testDechunksAndRemovesHopByHopFieldsFromTheResponse() throws {
        let upstream = try ScriptedTCPServer { _ in
            Array(
                ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close, X-Conn-Only\r\nX-Conn-Only: 1\r\n"
                    + "Keep-Alive: timeout=1\r\nX-End: 2\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n").utf8)
        }
        defer { upstream.stop() }
        let response = try XCTUnwrap(try get("http://127.0.0.1:\(upstream.port)/c")?.get())
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello, world")
        XCTAssertEqual(response.headers["X-End"], "2")
        for name in ["Transfer-Encoding", "Connection", "X-Conn-Only", "Keep-Alive"] {
            XCTAssertNil(response.headers[name], "\(name) was kept")
        }
    }

    func testReadsACloseDelimitedBody() throws {
        let upstream = try ScriptedTCPServer { _ in Array("HTTP/1.0 200 OK\r\nX-A: 1\r\n\r\nuntil the end".utf8) }
        defer { upstream.stop() }
        let response = try XCTUnwrap(try get("http://127.0.0.1:\(upstream.port)/")?.get())
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "until the end")
        XCTAssertEqual(response.version, .http1_0)
    }

    func testDoesNotFollowRedirects() throws {
        let upstream = try StubServer(stubs: [
            .redirect(.get("/old"), to: "/new"),
            StubDefinition(request: .get("/new"), response: .text("new")),
        ])
        try upstream.start()
        defer { upstream.stop() }
        let response = try XCTUnwrap(try get("http://127.0.0.1:\(upstream.port)/old")?.get())
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["Location"], "/new")
        XCTAssertEqual(upstream.journal.requests(path: "/new").count, 0)
    }

    func testRefusedConnectionIsUnreachable() throws {
        let port = try ScriptedTCPServer.closedPort()
        let result = try get("http://127.0.0.1:\(port)/x")
        guard case .failure(.refused(let endpoint))? = result else { return XCTFail("expected refused, got \(String(describing: result))") }
        XCTAssertEqual(endpoint, "127.0.0.1:\(port)")
        XCTAssertTrue(UpstreamError.refused(endpoint).description.hasPrefix("upstream unreachable: 127.0.0.1:\(port): Connection refused"))
    }

    /// Issue 26, point 10: an upstream that accepted the connection and closed it was called
    /// "unreachable"; it reached us, so it is reported as having closed the connection.
    func testAnUpstreamThatAcceptsAndClosesIsNotCalledUnreachable() throws {
        let closing = try ScriptedTCPServer { _ in [] }
        defer { closing.stop() }
        let result = try get("http://127.0.0.1:\(closing.port)/x")
        guard case .failure(let error)? = result, case .closed = error else {
            return XCTFail("expected closed, got \(String(describing: result))")
        }
        XCTAssertTrue(
            error.description.hasPrefix("upstream closed the connection before answering: 127.0.0.1:\(closing.port): "), error.description)
    }

    func testReadTimeoutWhenTheUpstreamNeverAnswers() throws {
        let silent = try ScriptedTCPServer()
        defer { silent.stop() }
        var configuration = UpstreamClient.Configuration()
        configuration.readTimeout = .milliseconds(300)
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }
        let result = try get("http://127.0.0.1:\(silent.port)/hang", client: client)
        guard case .failure(let error)? = result else { return XCTFail("expected a failure, got \(String(describing: result))") }
        XCTAssertEqual(error, .readTimeout(.milliseconds(300)))
    }

    func testConnectTimeoutWhenTheBacklogIsFull() throws {
        // A listener with a full accept queue drops further SYNs, so connect never completes.
        let full = try ScriptedTCPServer(backlog: 0)
        defer { full.stop() }
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        var configuration = UpstreamClient.Configuration()
        configuration.connectTimeout = .milliseconds(300)
        configuration.readTimeout = .seconds(30)
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }
        for _ in 0..<4 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(full.port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(fd)
        }
        Thread.sleep(forTimeInterval: 0.2)
        let result = try get("http://127.0.0.1:\(full.port)/x", client: client)
        guard case .failure(let error)? = result else { return XCTFail("expected a failure, got \(String(describing: result))") }
        // Some kernels complete the handshake anyway; then the read timeout must not be what fires first.
        XCTAssertEqual(error, .connectTimeout(.milliseconds(300)))
    }

    func testKeepsConnectionsAliveAndBoundsThePool() throws {
        let upstream = try StubServer(stubs: [
            StubDefinition(request: .get("/slow"), response: .text("slow").latency(.milliseconds(150))),
            StubDefinition(request: .get("/fast"), response: .text("fast")),
        ])
        try upstream.start()
        defer { upstream.stop() }
        var configuration = UpstreamClient.Configuration()
        configuration.maxConnectionsPerUpstream = 2
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }
        for _ in 0..<5 { XCTAssertEqual(try get("http://127.0.0.1:\(upstream.port)/fast", client: client)?.map(\.status), .success(200)) }
        XCTAssertEqual(
            Set(upstream.journal.requests(path: "/fast").map(\.request.remotePort)).count, 1, "sequential calls reuse one connection")

        let group = DispatchGroup()
        let statuses = LockedBox<[Int]>([])
        for _ in 0..<8 {
            group.enter()
            client.send(try UpstreamRequest(method: "GET", url: "http://127.0.0.1:\(upstream.port)/slow")) { result in
                statuses.value.append((try? result.get().status) ?? -1)
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(statuses.value, Array(repeating: 200, count: 8))
        XCTAssertLessThanOrEqual(Set(upstream.journal.requests(path: "/slow").map(\.request.remotePort)).count, 2)
        XCTAssertLessThanOrEqual(client.openConnectionCount(to: UpstreamEndpoint(host: "127.0.0.1", port: upstream.port)), 2)
    }

    func testCancelClosesTheCallAndReportsCancelled() throws {
        let silent = try ScriptedTCPServer()
        defer { silent.stop() }
        let client = UpstreamClient()
        defer { client.shutdown() }
        let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = expectation(description: "completed")
        let call = client.send(try UpstreamRequest(method: "GET", url: "http://127.0.0.1:\(silent.port)/")) { result in
            box.value = result
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.1)
        call.cancel()
        wait(for: [done], timeout: 10)
        guard case .failure(.cancelled)? = box.value else { return XCTFail("got \(String(describing: box.value))") }
        XCTAssertEqual(client.openConnectionCount(to: UpstreamEndpoint(host: "127.0.0.1", port: silent.port)), 0)
    }

    func testRejectsMalformedURLsAndResponses() throws {
        XCTAssertThrowsError(try UpstreamRequest(method: "GET", url: "ftp://x/y"))
        XCTAssertThrowsError(try UpstreamRequest(method: "GET", url: "http:///nohost"))
        XCTAssertThrowsError(try UpstreamRequest(method: "GET", url: "http://h:99999/"))
        let garbage = try ScriptedTCPServer { _ in Array("NOT HTTP AT ALL\r\n\r\n".utf8) }
        defer { garbage.stop() }
        guard case .failure(.malformedResponse)? = try get("http://127.0.0.1:\(garbage.port)/") else {
            return XCTFail("expected malformed")
        }
    }
}

#if canImport(Darwin)
/// The URLSession path used for `https` upstreams on Apple platforms, exercised over plain HTTP
/// on 127.0.0.1: same rules, no redirects followed. (Linux speaks TLS itself: UpstreamTLSTests.)
final class FoundationUpstreamTests: XCTestCase {
    func testDoesNotFollowRedirectsAndReturnsTheBody() throws {
        let upstream = try StubServer(stubs: [
            .redirect(.get("/old"), to: "/new"),
            StubDefinition(request: .get("/new"), response: .text("new")),
            StubDefinition(request: .post("/echo"), response: .text(.template("${req.content}"), status: 201)),
        ])
        try upstream.start()
        defer { upstream.stop() }
        func send(_ request: UpstreamRequest) -> Result<UpstreamResponse, UpstreamError>? {
            let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
            let done = expectation(description: "answered")
            _ = FoundationUpstream.shared.send(request, timeout: .seconds(20), limit: 1 << 20) { result in
                box.value = result
                done.fulfill()
            }
            wait(for: [done], timeout: 30)
            return box.value
        }
        let redirect = try XCTUnwrap(send(try UpstreamRequest(method: "GET", url: "http://127.0.0.1:\(upstream.port)/old"))?.get())
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(upstream.journal.requests(path: "/new").count, 0)
        let echo = try XCTUnwrap(
            send(
                try UpstreamRequest(
                    method: "POST", url: "http://127.0.0.1:\(upstream.port)/echo", headers: ["Connection": "X-Drop", "X-Drop": "1"],
                    body: Array("hi".utf8)))?.get())
        XCTAssertEqual(echo.status, 201)
        XCTAssertEqual(String(decoding: echo.body, as: UTF8.self), "hi")
        XCTAssertNil(upstream.journal.last?.request.headers["X-Drop"])
    }
}
#endif
