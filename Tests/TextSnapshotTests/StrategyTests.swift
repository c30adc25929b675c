import Foundation
import TextSnapshot
import XCTest

final class StrategyTests: XCTestCase {
    struct User: Codable {
        var name: String
        var tags: Set<String>
        var scores: [String: Int]
        var joined: Date
        var avatar: URL?
    }

    final class Node {
        var name: String
        var next: Node?
        init(name: String) { self.name = name }
    }

    enum Status { case active, banned(reason: String) }

    func testLinesAndDescription() throws {
        XCTAssertEqual(try Snapshotting<String>.lines.snapshot("a\nb"), "a\nb")
        XCTAssertEqual(try Snapshotting<Int>.description.snapshot(42), "42")
        XCTAssertEqual(Snapshotting<String>.lines.pathExtension, "txt")
    }

    func testPullbackDerivesAStrategy() throws {
        let upper = Snapshotting<String>.lines.pullback { (value: Int) in String(repeating: "#", count: value) }
        XCTAssertEqual(try upper.snapshot(3), "###")
        XCTAssertEqual(upper.pathExtension, "txt")
    }

    func testDumpSortsUnorderedCollectionsAndWritesDatesInUTC() throws {
        let user = User(
            name: "Ada", tags: ["swift", "bdd", "ios", "linux"], scores: ["b": 2, "a": 1, "c": 3],
            joined: Date(timeIntervalSince1970: 1_700_000_000), avatar: nil)
        let dump = try Snapshotting<User>.dump.snapshot(user)
        XCTAssertEqual(
            dump,
            """
            ▿ User
              - name: "Ada"
              ▿ tags: 4 members
                - "bdd"
                - "ios"
                - "linux"
                - "swift"
              ▿ scores: 3 key/value pairs
                - "a": 1
                - "b": 2
                - "c": 3
              - joined: 2023-11-14T22:13:20Z
              - avatar: nil
            """)
        // Stable: the same value dumps identically however the hash seed orders the set.
        for _ in 0..<20 {
            let copy = User(
                name: "Ada", tags: Set(["linux", "ios", "bdd", "swift"].shuffled()), scores: ["c": 3, "a": 1, "b": 2],
                joined: user.joined, avatar: nil)
            XCTAssertEqual(try Snapshotting<User>.dump.snapshot(copy), dump)
        }
    }

    func testDumpHasNoAddressesAndCutsCycles() throws {
        let first = Node(name: "first")
        let second = Node(name: "second")
        first.next = second
        second.next = first
        let dump = try Snapshotting<Node>.dump.snapshot(first)
        XCTAssertEqual(
            dump,
            """
            ▿ Node
              - name: "first"
              ▿ next: Node
                - name: "second"
                - next: Node (cycle)
            """)
        let objectDump = DeterministicDump.dump(NSObject())
        XCTAssertNil(objectDump.range(of: "0x[0-9a-fA-F]{4,}", options: .regularExpression), objectDump)
    }

    func testDumpShowsEnumCases() {
        XCTAssertEqual(DeterministicDump.dump(Status.active), "- Status.active")
        XCTAssertEqual(DeterministicDump.dump(Status.banned(reason: "spam")), "▿ Status.banned\n  - reason: \"spam\"")
    }

    func testJSONHasSortedKeysAndIsStable() throws {
        let user = User(
            name: "Ada", tags: ["b", "a"], scores: ["z": 1, "a": 2], joined: Date(timeIntervalSince1970: 0),
            avatar: URL(string: "https://example.com/a.png"))
        let json = try Snapshotting<User>.json.snapshot(user)
        XCTAssertEqual(Snapshotting<User>.json.pathExtension, "json")
        let keys = json.components(separatedBy: "\n").filter { $0.hasPrefix("  \"") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(
            keys.map { String($0.prefix(while: { $0 != ":" })) }.map { $0.trimmingCharacters(in: .whitespaces) },
            ["\"avatar\"", "\"joined\"", "\"name\"", "\"scores\"", "\"tags\""])
        XCTAssertTrue(json.contains("https://example.com/a.png"), json)
        XCTAssertTrue(json.contains("1970-01-01T00:00:00Z"), json)
        XCTAssertTrue(json.contains("\"a\" : 2") || json.contains("\"a\": 2"), json)
    }

    func testScreenStrategyRendersInTheGivenContext() throws {
        let strategy = Snapshotting<TextNode>.screen(device: .phone4inch, language: .ja)
        let text = try strategy.snapshot(.text("こんにちは"))
        let lines = text.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "# screen lang=ja device=phone4inch 40x35 orientation=portrait dir=ltr")
        XCTAssertEqual(lines[2], "│ こんにちは" + String(repeating: " ", count: 26) + " │")
    }

    func testScreenRenderableTypesSeeTheirContext() throws {
        struct Greeting: ScreenRenderable {
            func screen(in context: SnapshotContext) -> TextNode {
                .text("\(context.language.rawValue) \(context.grid) \(SnapshotContext.current?.device.rawValue ?? "none")")
            }
        }
        let text = try Snapshotting<Greeting>.screen(device: .pad, language: .de).snapshot(Greeting())
        XCTAssertTrue(text.components(separatedBy: "\n")[2].hasPrefix("│ de 96x64 pad "), text)
    }
}
