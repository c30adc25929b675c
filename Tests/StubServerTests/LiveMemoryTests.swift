import Foundation
import XCTest

@testable import StubServer

/// Back-pressure, measured: clients that stop reading a long SSE stream or a dribbled body
/// must not make the server buffer what it has not sent.
final class LiveMemoryTests: XCTestCase {
    /// Resident set size of this process (the server runs in it), from /proc.
    private func residentBytes() throws -> Int {
        #if os(Linux)
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = Int(statm.split(separator: " ")[1]) ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        throw XCTSkip("reads /proc/self/statm")
        #endif
    }

    func testHundredClientsThatStopReadingDoNotGrowMemoryBy20MB() throws {
        // 400 events of 16 KiB (6.4 MB a stream) and a 4 MiB dribbled body: without
        // back-pressure 100 stalled clients would queue 640 MB and 400 MB.
        let event = String(repeating: "e", count: 16 * 1024)
        let events = (0..<400).map { _ in #"{"data": "\#(event)"}"# }.joined(separator: ",")
        let body = String(repeating: "d", count: 4 * 1024 * 1024)
        let live = try LiveStubs(
            """
            [{"request": {"uri": "/events"}, "response": {"sse": [\(events)]}},
             {"request": {"uri": "/dribble"}, "response": {"text": "\(body)", "dribble": {"chunks": 400, "duration": 2000}}},
             {"request": {"uri": "/ping"}, "response": {"text": "pong"}}]
            """)
        // Warm up: one full read of each, so lazily built state is in the baseline.
        XCTAssertEqual(try live.send("GET", "/events").chunks.count, 400)
        XCTAssertEqual(try live.send("GET", "/dribble").body.count, body.utf8.count)
        let baseline = try residentBytes()

        var stalled: [RawHTTPClient] = []
        for index in 0..<200 {
            // Default socket buffers: what the kernel holds is not the server's memory, and a
            // tiny receive window would make resuming crawl.
            let client = try RawHTTPClient(port: live.server.port)
            try client.send("GET \(index % 2 == 0 ? "/events" : "/dribble") HTTP/1.1\r\nHost: x\r\n\r\n")
            stalled.append(client)
        }
        // Let every stream run until its socket buffers are full.
        Thread.sleep(forTimeInterval: 3)
        let grown = try residentBytes() - baseline
        print("RSS grew by \(grown / 1024) KiB with 100 stalled SSE and 100 stalled dribble clients")
        XCTAssertLessThan(grown, 20 * 1024 * 1024, "RSS grew by \(grown / 1024 / 1024) MB")
        // The server still answers everyone else.
        XCTAssertEqual(try live.send("GET", "/ping").text, "pong")
        // And a stalled client that resumes reading gets its whole stream.
        let resumed = try stalled[0].readResponse()
        XCTAssertEqual(resumed.chunks.count, 400)
        XCTAssertEqual(resumed.chunks.first?.count, event.utf8.count + 8)
        let dribbled = try stalled[1].readResponse()
        XCTAssertEqual(dribbled.body.count, body.utf8.count)
        withExtendedLifetime(stalled) {}
    }
}
