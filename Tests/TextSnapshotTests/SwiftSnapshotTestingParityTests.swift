import Foundation
import TextSnapshot
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The strategies and record scopes people coming from swift-snapshot-testing reach for.
final class SwiftSnapshotTestingParityTests: XCTestCase {
    private func loginRequest() -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com/oauth/token?z=1&a=2&m=it's")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        request.setValue("session=1", forHTTPHeaderField: "Cookie")
        request.httpBody = Data("email=a%40b.co&password=it's".utf8)
        return request
    }

    func testCurlIsAPastableCommandWithSortedHeadersAndQuery() throws {
        let text = try Snapshotting<URLRequest>.curl.snapshot(loginRequest())
        XCTAssertEqual(
            text,
            #"""
            curl \
              --request POST \
              --header 'Authorization: Bearer abc' \
              --header 'Content-Type: application/x-www-form-urlencoded' \
              --cookie 'session=1' \
              --data 'email=a%40b.co&password=it'\''s' \
              'https://api.example.com/oauth/token?a=2&m=it'\''s&z=1'
            """#)
        var get = URLRequest(url: URL(string: "https://example.com/stories")!)
        get.httpMethod = "GET"
        XCTAssertEqual(try Snapshotting<URLRequest>.curl.snapshot(get), "curl \\\n  'https://example.com/stories'")
        get.httpMethod = "HEAD"
        XCTAssertEqual(try Snapshotting<URLRequest>.curl.snapshot(get), "curl \\\n  --head \\\n  'https://example.com/stories'")
    }

    func testRawShowsMethodURLHeadersAndBody() throws {
        XCTAssertEqual(
            try Snapshotting<URLRequest>.raw.snapshot(loginRequest()),
            """
            POST https://api.example.com/oauth/token?a=2&m=it's&z=1
            Authorization: Bearer abc
            Content-Type: application/x-www-form-urlencoded
            Cookie: session=1

            email=a%40b.co&password=it's
            """)
        var json = URLRequest(url: URL(string: "https://example.com/v1/upvotes")!)
        json.httpMethod = "POST"
        json.httpBody = Data(#"{"vote":{"story":7,"dir":"up"}}"#.utf8)
        XCTAssertEqual(
            try Snapshotting<URLRequest>.raw(pretty: true).snapshot(json),
            """
            POST https://example.com/v1/upvotes

            {
              "vote" : {
                "dir" : "up",
                "story" : 7
              }
            }
            """)
        json.httpBody = Data([0xff, 0xfe])
        XCTAssertEqual(try Snapshotting<URLRequest>.raw.snapshot(json), "POST https://example.com/v1/upvotes\n\n(2 bytes, not UTF-8: fffe)")
    }

    func testDumpOrdersDictionariesAndSetsTheSameEveryRun() throws {
        struct Basket { var tags: Set<String>; var counts: [String: Int] }
        let texts = try (0..<5).map { _ in
            try Snapshotting<Basket>.dump.snapshot(
                Basket(tags: Set(["swift", "ios", "bdd", "xctest"]), counts: ["b": 2, "a": 1, "c": 3, "d": 4]))
        }
        XCTAssertEqual(Set(texts).count, 1)
        XCTAssertEqual(
            texts[0],
            """
            ▿ Basket
              ▿ tags: 4 members
                - "bdd"
                - "ios"
                - "swift"
                - "xctest"
              ▿ counts: 4 key/value pairs
                - "a": 1
                - "b": 2
                - "c": 3
                - "d": 4
            """)
    }

    func testJSONSortsKeysOfEncodables() throws {
        struct Story: Encodable { var title = "Launch"; var id = 7; var author = ["name": "Ada", "handle": "ada"] }
        XCTAssertEqual(
            try Snapshotting<Story>.json.snapshot(Story()),
            """
            {
              "author" : {
                "handle" : "ada",
                "name" : "Ada"
              },
              "id" : 7,
              "title" : "Launch"
            }
            """)
    }

    func testRecordMissingWritesOnlyMissingReferences() throws {
        let sandbox = try makeSandbox()
        try sandbox.write("old\n", to: "SwiftSnapshotTestingParityTests/testRecordMissingWritesOnlyMissingReferences.existing.txt")
        let failures = sandbox.run {
            withSnapshotTesting(record: .missing) {
                [verifySnapshot(of: "new", as: .lines, named: "existing"), verifySnapshot(of: "fresh", as: .lines, named: "missing")]
            }
        }
        XCTAssertEqual(failures.map { $0?.kind }, [.mismatch, .recorded])
        XCTAssertEqual(
            try sandbox.read("SwiftSnapshotTestingParityTests/testRecordMissingWritesOnlyMissingReferences.existing.txt"), "old\n")
        XCTAssertEqual(
            try sandbox.read("SwiftSnapshotTestingParityTests/testRecordMissingWritesOnlyMissingReferences.missing.txt"), "fresh\n")
    }

    func testRecordFailedAlsoOverwritesMismatchesAndLeavesMatchesAlone() throws {
        let sandbox = try makeSandbox()
        let folder = "SwiftSnapshotTestingParityTests/testRecordFailedAlsoOverwritesMismatchesAndLeavesMatchesAlone"
        try sandbox.write("old\n", to: folder + ".changed.txt")
        try sandbox.write("same\n", to: folder + ".same.txt")
        let failures = sandbox.run {
            withSnapshotTesting(record: .failed) {
                [
                    verifySnapshot(of: "new", as: .lines, named: "changed"),
                    verifySnapshot(of: "same", as: .lines, named: "same"),
                    verifySnapshot(of: "fresh", as: .lines, named: "missing"),
                ]
            }
        }
        XCTAssertEqual(failures.map { $0?.kind }, [.recorded, nil, .recorded])
        XCTAssertEqual(try sandbox.read(folder + ".changed.txt"), "new\n")
        XCTAssertEqual(try sandbox.read(folder + ".missing.txt"), "fresh\n")
    }

    func testWithSnapshotTestingScopesNestAndACallsRecordWins() throws {
        let sandbox = try makeSandbox()
        let name = "SwiftSnapshotTestingParityTests/testWithSnapshotTestingScopesNestAndACallsRecordWins"
        try sandbox.write("old\n", to: name + ".a.txt")
        let kinds = sandbox.run {
            withSnapshotTesting(record: .never) {
                [
                    verifySnapshot(of: "x", as: .lines, named: "b")?.kind,
                    withSnapshotTesting(record: .failed) { verifySnapshot(of: "new", as: .lines, named: "a")?.kind },
                    withSnapshotTesting { verifySnapshot(of: "y", as: .lines, named: "c")?.kind },
                    verifySnapshot(of: "z", as: .lines, named: "d", record: .missing)?.kind,
                ]
            }
        }
        XCTAssertEqual(kinds, [.missingReference, .recorded, .missingReference, .recorded])
    }

    func testAsyncScope() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let kind = await withSnapshotSettings({
            $0.environment = [:]; $0.snapshotRoot = sandbox.root; $0.artifactsDirectory = sandbox.artifacts
        }) {
            { () async -> SnapshotFailure.Kind? in
                await withSnapshotTesting(record: .never) {
                    await Task.yield()
                    return verifySnapshot(of: "x", as: .lines, named: "async")?.kind
                }
            }
        }()
        XCTAssertEqual(kind, .missingReference)
    }

    /// Issue 26, point 14: swift-snapshot-testing writes `.lines` (and `.dump`, …) references without a
    /// final newline. Such a reference matches when that newline is the only difference, in every
    /// record mode that compares, and is left as it is; any other difference still fails.
    func testAReferenceRecordedBySwiftSnapshotTestingWithoutAFinalNewlineMatches() throws {
        let sandbox = try makeSandbox()
        let name = "SwiftSnapshotTestingParityTests/testAReferenceRecordedBySwiftSnapshotTestingWithoutAFinalNewlineMatches"
        try sandbox.write("line one\nline two", to: name + ".migrated.txt")
        XCTAssertNil(sandbox.run { verifySnapshot(of: "line one\nline two", as: .lines, named: "migrated") })
        sandbox.nextRun()
        XCTAssertNil(sandbox.run(record: .failed) { verifySnapshot(of: "line one\nline two", as: .lines, named: "migrated") })
        XCTAssertEqual(try sandbox.read(name + ".migrated.txt"), "line one\nline two", "a matching reference is not rewritten")
        sandbox.nextRun()
        let changed = sandbox.run { verifySnapshot(of: "line one\nline 2", as: .lines, named: "migrated") }
        XCTAssertEqual(changed?.kind, .mismatch)
    }
}
