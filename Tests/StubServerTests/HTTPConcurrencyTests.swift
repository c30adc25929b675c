import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class HTTPConcurrencyTests: XCTestCase {
    func testLatencyOnOneConnectionDoesNotBlockOthersOnTheSameLoop() throws {
        let server = try startEchoServer(loops: 1)
        defer { server.stop() }
        let slow = try RawHTTPClient(port: server.port)
        try slow.send("GET /delay/3000 HTTP/1.1\r\nHost: x\r\n\r\n")
        // While the delayed reply is pending, other connections on the only loop are served.
        for index in 0..<5 {
            let response = try RawHTTPClient.exchange(port: server.port, "GET /fast/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(response.status, 200)
        }
        slow.setTimeout(0.05)
        XCTAssertThrowsError(try slow.readResponse(), "the delayed reply must still be pending")
        slow.setTimeout(15)
        XCTAssertTrue(try slow.readResponse().text.hasPrefix("GET /delay/3000 "))
    }

    func testStopFinishesInFlightRequestsThenFreesThePort() throws {
        let arrived = DispatchSemaphore(value: 0)
        let server = try startEchoServer(onRequest: { if $0.target.hasPrefix("/delay/") { arrived.signal() } })
        let port = server.port
        let busy = try RawHTTPClient(port: port)
        try busy.send("GET /delay/300 HTTP/1.1\r\nHost: x\r\n\r\n")
        let idle = try RawHTTPClient(port: port)
        try idle.send("GET /warm HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try idle.readResponse().status, 200)
        XCTAssertEqual(arrived.wait(timeout: .now() + 30), .success, "the delayed request reached the responder")

        server.stop()

        // The in-flight request was answered, told the connection closes, then closed.
        let answered = try busy.readResponse()
        XCTAssertEqual(answered.status, 200)
        XCTAssertEqual(answered.header("Connection"), "close")
        XCTAssertTrue(busy.waitForClose())
        XCTAssertTrue(idle.waitForClose(), "idle keep-alive connections are closed on stop")
        // The port is free: nothing accepts there, and another server can bind it.
        XCTAssertThrowsError(try RawHTTPClient(port: port))
        let again = HTTPServer(configuration: .init(port: port), responder: EchoResponder())
        XCTAssertNoThrow(try again.start())
        again.stop()
    }

    func testStopBoundsTheWaitForSlowReplies() throws {
        var limits = HTTPServerLimits()
        limits.stopTimeout = .milliseconds(100)
        let arrived = DispatchSemaphore(value: 0)
        let server = try startEchoServer(limits: limits, onRequest: { _ in arrived.signal() })
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /delay/60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(arrived.wait(timeout: .now() + 30), .success)
        server.stop() // returns after the bounded wait, not after a minute
        XCTAssertTrue(client.waitForClose(timeout: 5))
    }

    func testManyStartsAndStops() throws {
        for _ in 0..<25 {
            let server = try startEchoServer()
            XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
            server.stop()
        }
    }

    #if os(Linux)
    func testStartAndStopLeakNoDescriptors() throws {
        func openDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }
        // Warm up lazily created process-wide descriptors first.
        let warm = try startEchoServer()
        _ = try RawHTTPClient.exchange(port: warm.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        warm.stop()
        let before = openDescriptors()
        for _ in 0..<20 {
            let server = try startEchoServer()
            _ = try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            server.stop()
        }
        XCTAssertLessThanOrEqual(openDescriptors(), before + 2, "each start/stop must release its sockets, epoll and eventfd descriptors")
    }
    #endif

    func testConcurrentClientsAllGetTheirOwnAnswers() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        let port = server.port
        let failures = RejectionLog()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            do {
                let client = try RawHTTPClient(port: port)
                for request in 0..<50 {
                    try client.send("GET /w\(worker)/r\(request) HTTP/1.1\r\nHost: x\r\n\r\n")
                    let response = try client.readResponse()
                    if !response.text.hasPrefix("GET /w\(worker)/r\(request) ") {
                        failures.append(HTTPRejection(status: response.status, reason: response.text, remoteAddress: "", remotePort: 0))
                    }
                }
            } catch {
                failures.append(HTTPRejection(status: -1, reason: "\(error)", remoteAddress: "", remotePort: 0))
            }
        }
        XCTAssertEqual(failures.all.map(\.reason), [])
    }

    func testURLSessionRoundTripWithBody() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/session?q=1")!)
        request.httpMethod = "POST"
        request.httpBody = Data("name=value".utf8)
        let done = expectation(description: "response")
        nonisolated(unsafe) var result: (Data?, URLResponse?, Error?)
        session.dataTask(with: request) { data, response, error in
            result = (data, response, error)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 30)
        XCTAssertNil(result.2)
        let http = try XCTUnwrap(result.1 as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(http.value(forHTTPHeaderField: "X-Body"), "name=value")
        let text = String(decoding: result.0 ?? Data(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("POST /session?q=1 HTTP/1.1 body=10"), text)
    }
}
