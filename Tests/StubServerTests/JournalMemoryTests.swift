import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// The journal is bounded in bytes as well as entries, counts against the server's memory
/// budget, and gives old bodies back first when the budget runs short.
final class JournalMemoryTests: XCTestCase {
    private func bigHeaders(_ bytes: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "X-Padding", value: String(repeating: "p", count: bytes))
        return headers
    }

    /// 10,000 requests with 64 KiB header blocks used to hold 4.1 GB; now the oldest go once
    /// the byte capacity is reached.
    func testByteCapacityDropsOldestEntries() {
        let journal = RequestJournal(capacity: 10_000, byteCapacity: 1 << 20)
        for index in 0..<200 {
            journal.record(
                request: HTTPRequest(method: "GET", target: "/\(index)", headers: bigHeaders(60 * 1024)), stub: nil, status: 200,
                duration: .zero)
        }
        XCTAssertLessThanOrEqual(journal.bytes, 1 << 20)
        XCTAssertGreaterThan(journal.count, 10)
        XCTAssertLessThan(journal.count, 20)
        XCTAssertEqual(journal.entries.last?.request.target, "/199")
        XCTAssertEqual(journal.droppedCount, 200 - journal.count)
        journal.clear()
        XCTAssertEqual(journal.bytes, 0)
    }

    func testAnEntryLargerThanTheWholeCapacityIsNotKept() {
        let journal = RequestJournal(capacity: 10, byteCapacity: 1000)
        journal.record(request: HTTPRequest(method: "GET", target: "/small"), stub: nil, status: 200, duration: .zero)
        journal.record(
            request: HTTPRequest(method: "GET", target: "/huge", headers: bigHeaders(5000)), stub: nil, status: 200, duration: .zero)
        XCTAssertEqual(journal.entries.map(\.request.target), ["/small"])
        XCTAssertEqual(journal.droppedCount, 1)
    }

    /// The budget counts journal bytes; asking for room drops the oldest bodies first and
    /// keeps the entries (and their sizes).
    func testBudgetPressureDropsOldestBodiesFirst() {
        let budget = MemoryBudget(limit: 300 * 1024, largeWork: 64 * 1024)
        let journal = RequestJournal(capacity: 100, byteCapacity: 10 << 20)
        journal.attach(to: budget)
        for index in 0..<4 {
            journal.record(
                request: HTTPRequest(method: "POST", target: "/\(index)", body: Array(repeating: 1, count: 60 * 1024)), stub: nil,
                status: 200, duration: .zero)
        }
        XCTAssertEqual(budget.inUse, journal.bytes)
        XCTAssertGreaterThan(budget.inUse, 240 * 1024)
        XCTAssertTrue(budget.admit(150 * 1024), "dropping the two oldest bodies makes room")
        let entries = journal.entries
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(entries.map(\.bodyDropped), [true, true, false, false])
        XCTAssertEqual(entries.map(\.bodySize), Array(repeating: 60 * 1024, count: 4))
        XCTAssertEqual(budget.inUse, journal.bytes)
        XCTAssertFalse(budget.admit(1 << 20), "more than the whole budget is refused")
        XCTAssertEqual(budget.refusedCount, 1)
        XCTAssertTrue(budget.admit(1000), "small work is always admitted")
    }

    /// An embedded server charges its journal to its budget.
    func testServerJournalCountsAgainstTheServerBudget() throws {
        let server = try StubServer(stubs: [.catchAll(.text("ok"))])
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(server.options.limits.maxMemoryBytes, 256 * 1024 * 1024)
        _ = try RawHTTPClient.exchange(
            port: server.port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "b", count: 5000))
        XCTAssertGreaterThanOrEqual(server.memory.inUse, 5000)
        // Once the connection has closed (its reserve and buffers given back) the journal is all.
        let deadline = Date().addingTimeInterval(10)
        while server.memory.inUse != server.journal.bytes && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(server.memory.inUse, server.journal.bytes)
    }
}
