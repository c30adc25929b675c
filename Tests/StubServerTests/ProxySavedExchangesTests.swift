import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// `failover` and `playback`: exchanges saved to JSON files and replayed.
final class ProxySavedExchangesTests: XCTestCase {
    private func text(_ response: RawHTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    private func savedEntries(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    private func waitForWrites(_ live: LiveStubs) {
        (live.server.routesForTesting.routing as? Router)?.runtime.waitForWrites()
    }

    func testFailoverSavesEachExchangeOnceAndReplaysWhenTheUpstreamIsDown() throws {
        let backend = try StubServer(stubs: [
            StubDefinition(request: .get("/stories"), response: .json(["id": 1], headers: [ResponseHeader("X-Up", "yes")]))
        ])
        try backend.start()
        let live = try LiveStubs(
            #"[{"request": {"uri": "/stories"}, "response": {"proxy": {"url": "http://127.0.0.1:\#(backend.port)/stories", "failover": "failover.json"}}}]"#
        )
        XCTAssertEqual(text(try live.send("GET", "/stories?page=1")), #"{"id":1}"#)
        XCTAssertEqual(text(try live.send("GET", "/stories?page=1")), #"{"id":1}"#)
        XCTAssertEqual(text(try live.send("GET", "/stories?page=2")), #"{"id":1}"#)
        waitForWrites(live)
        let file = live.fixture.path("failover.json")
        let entries = try savedEntries(file)
        XCTAssertEqual(entries.count, 2, "one entry per distinct request")

        backend.stop()
        let replayed = try live.send("GET", "/stories?page=1")
        XCTAssertEqual(replayed.status, 200)
        XCTAssertEqual(text(replayed), #"{"id":1}"#)
        XCTAssertEqual(replayed.header("X-Up"), "yes")
        let unknown = try live.send("GET", "/stories?page=9")
        XCTAssertEqual(unknown.status, 502)
        XCTAssertTrue(text(unknown).contains("nothing saved"), text(unknown))
    }

    func testFailoverReplaysOnTheListedStatuses() throws {
        let backend = try StubServer(stubs: [
            StubDefinition(request: .get("/flaky"), response: .seq([.text("fresh"), .status(503), .status(500)]))
        ])
        try backend.start()
        defer { backend.stop() }
        let live = try LiveStubs(
            #"[{"request": {"uri": "/flaky"}, "response": {"proxy": {"url": "http://127.0.0.1:\#(backend.port)/flaky", "failover": {"file": "fo.json", "status": [503]}}}}]"#
        )
        XCTAssertEqual(text(try live.send("GET", "/flaky")), "fresh")
        let second = try live.send("GET", "/flaky")
        XCTAssertEqual(second.status, 200, "503 is listed: the saved answer is replayed")
        XCTAssertEqual(text(second), "fresh")
        XCTAssertEqual(try live.send("GET", "/flaky").status, 500, "500 is not listed: passed on")
    }

    func testFailoverDefaultStatusIs400() throws {
        let backend = try StubServer(stubs: [StubDefinition(request: .get("/x"), response: .seq([.text("ok"), .status(400)]))])
        try backend.start()
        defer { backend.stop() }
        let live = try LiveStubs(
            #"[{"request": {"uri": "/x"}, "response": {"proxy": {"url": "http://127.0.0.1:\#(backend.port)/x", "failover": "fo.json"}}}]"#)
        XCTAssertEqual(text(try live.send("GET", "/x")), "ok")
        let second = try live.send("GET", "/x")
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(text(second), "ok")
    }

    func testPlaybackAnswersFromTheFileFirstThenAsksTheUpstreamAndSaves() throws {
        let backend = try StubServer(stubs: [StubDefinition(request: .get("/live"), response: .text("from upstream"))])
        try backend.start()
        defer { backend.stop() }
        let saved =
            #"[{"request": {"method": "GET", "uri": "/saved", "version": "HTTP/1.1"}, "response": {"status": 201, "headers": {"X-Saved": ["1"]}, "content": "from file"}}]"#
        let live = try LiveStubs(
            #"[{"request": {"uri": {"match": "/(saved|live)"}}, "response": {"proxy": {"from": "/", "to": "http://127.0.0.1:\#(backend.port)/", "playback": "pb.json"}}}]"#,
            files: ["pb.json": saved])
        let fromFile = try live.send("GET", "/saved")
        XCTAssertEqual(fromFile.status, 201)
        XCTAssertEqual(text(fromFile), "from file")
        XCTAssertEqual(fromFile.header("X-Saved"), "1")
        XCTAssertEqual(backend.journal.count, 0, "a playback hit never reaches the upstream")

        XCTAssertEqual(text(try live.send("GET", "/live")), "from upstream")
        XCTAssertEqual(text(try live.send("GET", "/live")), "from upstream")
        XCTAssertEqual(backend.journal.count, 1, "the second /live came from the file")
        waitForWrites(live)
        XCTAssertEqual(try savedEntries(live.fixture.path("pb.json")).count, 2)
    }

    func testSavedFilesAreReplacedAtomically() throws {
        // Every write goes to a temporary file renamed over the target: a reader polling the
        // file while it is rewritten always sees complete JSON.
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("fo.json").path
        let file = try SavedExchangeFile(path: path)
        let stop = LockedBox(false)
        let problems = LockedBox<[String]>([])
        let reader = Thread {
            while !stop.value {
                guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { continue }
                if (try? JSONSerialization.jsonObject(with: data)) == nil {
                    problems.value.append(String(decoding: data.prefix(80), as: UTF8.self))
                }
            }
        }
        reader.start()
        for index in 0..<300 {
            file.save(
                request: HTTPRequest(method: "GET", target: "/item/\(index)", body: Array(repeating: UInt8(ascii: "x"), count: 2000)),
                response: UpstreamResponse(status: 200, body: Array("body \(index)".utf8)))
            file.flush()
        }
        stop.value = true
        file.waitForWrites()
        XCTAssertEqual(problems.value, [])
        XCTAssertEqual(try savedEntries(path).count, 300)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [])
    }

    func testACorruptSavedFileIsALoadTimeError() throws {
        let fixture = try ConfigFixture()
        try fixture.write("fo.json", "{not json")
        try fixture.write(
            "a.json", #"[{"request": {"uri": "/a"}, "response": {"proxy": {"url": "http://127.0.0.1:1/", "failover": "fo.json"}}}]"#)
        let diagnostics = fixture.diagnostics("a.json")
        XCTAssertTrue(diagnostics.contains { $0.path == "[0].response.proxy.failover" && $0.message.contains("fo.json") }, "\(diagnostics)")
    }
}
