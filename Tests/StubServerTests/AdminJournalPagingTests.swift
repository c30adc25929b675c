import Foundation
import XCTest

@testable import StubServer

/// Journal listings come in pages (`limit`, `offset`, a default page size, a byte cap), so one
/// listing cannot build a reply the size of the whole journal.
final class AdminJournalPagingTests: XCTestCase {
    private func fill(_ server: StubServer, count: Int, bodyBytes: Int = 0) throws {
        let client = try RawHTTPClient(port: server.port)
        let body = String(repeating: "b", count: bodyBytes)
        for index in 0..<count {
            try client.send("POST /item/\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            XCTAssertEqual(try client.readResponse().status, 200)
        }
    }

    private func get(_ server: StubServer, _ target: String) throws -> (status: Int, json: JSONValue?, bytes: Int) {
        let response = try RawHTTPClient.get(port: server.port, target)
        return (response.status, try? JSONValue(parsing: response.body), response.body.count)
    }

    private func sequences(_ json: JSONValue?) -> [Int] {
        json?["requests"]?.arrayValue?.compactMap { $0["sequence"]?.intValue } ?? []
    }

    /// Before, a listing returned every entry, and `offset` was ignored.
    func testListingsArePagedWithADefaultPageSize() throws {
        let server = try StubServer(stubs: [StubDefinition(request: RequestPattern(method: "POST"), response: .text("ok"))])
        try server.start()
        defer { server.stop() }
        try fill(server, count: 250)

        let newest = try get(server, "/__admin/requests")
        XCTAssertEqual(newest.status, 200)
        XCTAssertEqual(sequences(newest.json).count, JournalPage.defaultLimit, "the default page")
        XCTAssertEqual(newest.json?["total"]?.intValue, 250)
        XCTAssertEqual(newest.json?["offset"]?.intValue, 150)
        XCTAssertEqual(newest.json?["next"], .null)
        XCTAssertEqual(sequences(newest.json), Array(sequences(newest.json).sorted()), "oldest first within a page")

        var seen: [Int] = []
        var offset: Int? = 0
        while let start = offset {
            let page = try get(server, "/__admin/requests?offset=\(start)&limit=80")
            seen += sequences(page.json)
            offset = page.json?["next"]?.intValue
        }
        XCTAssertEqual(seen.count, 250)
        XCTAssertEqual(Set(seen).count, 250, "pages neither overlap nor skip")
        XCTAssertEqual(sequences(try get(server, "/__admin/requests?limit=5").json).count, 5, "limit alone still means the newest N")

        XCTAssertEqual(try get(server, "/__admin/requests?limit=5000").status, 400)
        XCTAssertEqual(try get(server, "/__admin/requests?offset=-1").status, 400)
    }

    /// Large bodies end a page early; the reply says where the next one starts.
    func testAPageStopsAtItsByteCap() throws {
        let server = try StubServer(stubs: [StubDefinition(request: RequestPattern(method: "POST"), response: .text("ok"))])
        try server.start()
        defer { server.stop() }
        try fill(server, count: 200, bodyBytes: 60 * 1024)
        let page = try get(server, "/__admin/requests?offset=0&limit=1000")
        XCTAssertEqual(page.status, 200)
        let count = sequences(page.json).count
        XCTAssertGreaterThan(count, 0)
        XCTAssertLessThan(count, 200, "12 MB of bodies do not fit one page")
        XCTAssertEqual(page.json?["next"]?.intValue, count)
        XCTAssertLessThan(page.bytes, JournalPage.maxBytes + 1024 * 1024)
    }
}
