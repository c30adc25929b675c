import Foundation
import XCTest

@testable import StubServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class ServerEmbeddingTests: XCTestCase {
    /// A spec that starts the server with a relative path from the wrong folder must learn where
    /// it looked, not just "no such file".
    func testAMissingConfigFileSaysWhereItLooked() {
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertThrowsError(try StubServer(configFile: "Stubs/not-there.json")) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("looked for \(cwd)/Stubs/not-there.json"), text)
            XCTAssertTrue(text.contains("working directory \(cwd)"), text)
        }
    }

    func testStartServesOnAnEphemeralLoopbackPortAndRecordsTheJournal() throws {
        let server = StubServer(routing: ScriptedRouting())
        try server.start()
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")

        let hit = try RawHTTPClient.exchange(port: server.port, "POST /stub/3?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
        XCTAssertEqual(hit.text, "scripted 3")
        let miss = try RawHTTPClient.exchange(port: server.port, "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(miss.status, 400)

        // The client has its answer, so the journal already holds the exchange.
        let entries = server.journal.entries
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries[0].stub, StubReference(file: "scripted", index: 3))
        XCTAssertEqual(entries[0].status, 200)
        XCTAssertEqual(entries[0].request.body, Array("hi".utf8))
        XCTAssertEqual(entries[0].request.remoteAddress, "127.0.0.1")
        XCTAssertNil(entries[1].stub)
        XCTAssertEqual(entries[1].status, 400)
        XCTAssertEqual(server.journal.requests(method: "POST", path: "/stub/3").count, 1)
        XCTAssertEqual(server.journal.count(matching: .get("/nothing")), 1)
    }

    func testRefusedRequestsAreJournaledAndLogged() throws {
        let lines = LineLog()
        var options = StubServer.Options()
        options.limits.maxBodyBytes = 10
        options.logger = { lines.append($0.description) }
        let server = StubServer(routing: ScriptedRouting(), options: options)
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "POST /stub/1 HTTP/1.1\r\nContent-Length: 11\r\n\r\n").status, 413)
        let entry = try XCTUnwrap(server.journal.last)
        XCTAssertEqual(entry.status, 413)
        XCTAssertNil(entry.stub)
        XCTAssertNotNil(entry.rejection)
        XCTAssertEqual(server.journal.unmatched.count, 1)
        XCTAssertEqual(server.journal.requests(method: "POST").count, 0, "refusals are not requests a stub saw")
        XCTAssertTrue(lines.all.first?.hasPrefix("POST /stub/1 413 refused: request body larger than 10 bytes") ?? false, "\(lines.all)")
    }

    func testJournalCapacityComesFromOptions() throws {
        var options = StubServer.Options()
        options.journalCapacity = 5
        let server = StubServer(routing: ScriptedRouting(), options: options)
        try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        for index in 0..<12 {
            try client.send("GET /stub/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readResponse()
        }
        XCTAssertEqual(server.journal.count, 5)
        XCTAssertEqual(server.journal.entries.map { $0.stub?.index }, [7, 8, 9, 10, 11])
    }

    func testReplacingTheRoutesKeepsTheListenerAndConnections() throws {
        let server = StubServer(routing: ScriptedRouting(label: "first"))
        try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /stub/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "first 1")
        server.routesForTesting.replace(with: ScriptedRouting(label: "second"))
        try client.send("GET /stub/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "second 1", "the same keep-alive connection sees the new routes")
    }

    func testURLSessionRoundTripThroughTheFacade() throws {
        let server = StubServer(routing: ScriptedRouting())
        try server.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let done = expectation(description: "response")
        nonisolated(unsafe) var status = 0
        nonisolated(unsafe) var body = ""
        session.dataTask(with: server.baseURL.appendingPathComponent("stub/7")) { data, response, _ in
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            body = String(decoding: data ?? Data(), as: UTF8.self)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, "scripted 7")
        XCTAssertEqual(server.journal.count(matching: .get("/stub/7")), 1)
    }

    func testStopIsCleanWhileARequestWaitsOnLatency() throws {
        let arrived = DispatchSemaphore(value: 0)
        let server = StubServer(routing: ScriptedRouting(onRoute: { _ in arrived.signal() }))
        try server.start()
        let port = server.port
        let client = try RawHTTPClient(port: port)
        try client.send("GET /slow/200 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(arrived.wait(timeout: .now() + 30), .success)
        server.stop()
        XCTAssertEqual(try client.readResponse().text, "slow")
        XCTAssertEqual(server.journal.last?.stub, StubReference(file: "scripted", index: 99))
        XCTAssertThrowsError(try RawHTTPClient(port: port))
    }
}

final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
