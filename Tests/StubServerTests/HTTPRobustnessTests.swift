import Foundation
import XCTest

@testable import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A seeded generator so a failing fuzz case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The server never crashes on a client's bytes and keeps answering well-formed requests
/// while it is being abused.
final class HTTPRobustnessTests: XCTestCase {
    static let corpus: [String] = [
        "GET /stub/1 HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /stub/2?a=1&b=%20 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "POST /stub/3 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
        "POST /stub/4 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwiki\r\n5;x=y\r\npedia\r\n0\r\nT: v\r\n\r\n",
        "PUT /stub/5 HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
        "HEAD /stub/6 HTTP/1.1\r\nHost: x\r\n\r\nGET /stub/7 HTTP/1.1\r\nHost: x\r\n\r\n",
        "DELETE /nothing HTTP/1.1\r\nHost: x\r\nCookie: a=b; c=d\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET http://example.com/stub/8 HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "GET /slow/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /stub/9 HTTP/1.1\r\n\r\n",
    ]

    static func mutate(_ input: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        let interesting: [[UInt8]] = [
            "\r\n", "\n", "\r", " ", ":", "0", "-1", "ffffffffffffffff", "\0", "chunked",
            "Content-Length: ", "Transfer-Encoding: chunked\r\n", "HTTP/1.1", "%", "\u{FF}",
        ].map { Array($0.utf8) }
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<8, using: &random) {
            case 0 where !bytes.isEmpty: // flip a byte
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1: // insert something interesting
                bytes.insert(contentsOf: interesting.randomElement(using: &random)!, at: Int.random(in: 0...bytes.count, using: &random))
            case 2 where !bytes.isEmpty: // truncate
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            case 3 where !bytes.isEmpty: // delete a range
                let start = Int.random(in: 0..<bytes.count, using: &random)
                bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...8, using: &random)))
            case 4: // duplicate the whole thing (pipelining)
                bytes += bytes
            case 5: // random garbage
                bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            case 6 where !bytes.isEmpty: // a very long run of one byte
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.insert(contentsOf: [UInt8](repeating: bytes[at], count: Int.random(in: 100...20_000, using: &random)), at: at)
            default: // splice with another corpus entry
                let other = Array(corpus.randomElement(using: &random)!.utf8)
                bytes =
                    Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
                    + other.suffix(Int.random(in: 0...other.count, using: &random))
            }
        }
        return bytes
    }

    private func assertServes(_ port: Int, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let response = try RawHTTPClient.exchange(port: port, "GET /stub/42 HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(response.text, "scripted 42", file: file, line: line)
        } catch {
            XCTFail("a well-formed request was not answered: \(error)", file: file, line: line)
        }
    }

    func testTenThousandRandomAndMutatedRequestsNeverStopTheServer() throws {
        var options = StubServer.Options()
        options.limits.maxBodyBytes = 64 * 1024
        options.limits.headerReadTimeout = .seconds(2)
        let server = StubServer(routing: ScriptedRouting(), options: options)
        try server.start()
        defer { server.stop() }
        let port = server.port
        let workers = 4
        let perWorker = 2500
        let problems = LineLog()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var random = SplitMix64(seed: 0x5EED_0000 + UInt64(worker))
            for index in 0..<perWorker {
                let base = Array(Self.corpus.randomElement(using: &random)!.utf8)
                let bytes = Int.random(in: 0..<10, using: &random) == 0 ? base : Self.mutate(base, using: &random)
                do {
                    let client = try RawHTTPClient(port: port, timeout: 10)
                    try? client.send(bytes)
                    client.shutdownWrite()
                    // Whatever the server answers, it must end the exchange on its own.
                    if !client.waitForClose(timeout: 10) {
                        problems.append("worker \(worker) case \(index): connection not closed; sent \(bytes.prefix(80))")
                    }
                } catch {
                    problems.append("worker \(worker) case \(index): \(error)")
                }
            }
        }
        XCTAssertEqual(problems.all.prefix(5), [])
        assertServes(port)
        XCTAssertGreaterThan(server.journal.count, 1000, "well-formed cases were served and journaled")
    }

    func testAThousandIdleConnectionsDoNotStopServiceToOthers() throws {
        raiseDescriptorLimit(to: 4096)
        let server = StubServer(routing: ScriptedRouting())
        try server.start()
        defer { server.stop() }
        var idle: [RawHTTPClient] = []
        for _ in 0..<1000 {
            idle.append(try RawHTTPClient(port: server.port))
        }
        idle[0..<10].forEach { try? $0.send("GET /stub/") } // a few half-sent heads among them
        assertServes(server.port)
        // The idle connections themselves are still usable.
        for client in idle[500..<505] {
            try client.send("GET /stub/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().text, "scripted 7")
        }
        assertServes(server.port)
    }

    private func raiseDescriptorLimit(to wanted: UInt64) {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, UInt64(limit.rlim_cur) < wanted else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        setrlimit(resource, &limit)
    }
}
