import Foundation
import XCTest

@testable import SpecKit

private struct Story: Equatable {
    var id: Int
    var title: String
    var tags: Set<String>
    var meta: [String: Int]
    var author: Author?
}

private struct Author: Equatable {
    var name: String
}

private final class Node {
    var name = "root"
    var next: Node?
}

private enum State: Equatable {
    case live
    case failed(code: Int, reason: String)
}

/// The deterministic dump behind messages and the line diff behind `equal`.
final class ValueDumpAndDiffTests: XCTestCase {
    func testDumpSortsDictionaryKeysAndSetElements() {
        let story = Story(id: 1, title: "A", tags: ["z", "a", "m"], meta: ["votes": 3, "comments": 1], author: nil)
        XCTAssertEqual(
            ValueDump.line(story),
            #"Story(id: 1, title: "A", tags: Set(["a", "m", "z"]), meta: ["comments": 1, "votes": 3], author: nil)"#)
        XCTAssertEqual(
            ValueDump.lines(story),
            [
                "Story(",
                "  id: 1",
                #"  title: "A""#,
                "  tags: Set([",
                #"    "a""#,
                #"    "m""#,
                #"    "z""#,
                "  ])",
                "  meta: [",
                #"    "comments": 1"#,
                #"    "votes": 3"#,
                "  ]",
                "  author: nil",
                ")",
            ])
    }

    func testDumpIsTheSameOnEveryCall() {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<50).map { ("key\($0)", $0) })
        XCTAssertEqual(ValueDump.line(dictionary), ValueDump.line(Dictionary(uniqueKeysWithValues: dictionary.map { ($0, $1) })))
    }

    func testDumpHasNoAddressesAndCutsCycles() {
        let node = Node()
        node.next = node
        let text = ValueDump.line(node)
        XCTAssertEqual(text, "Node(name: \"root\", next: Node(<cycle>))")
        XCTAssertFalse(ValueDump.line(NSObject()).contains("0x0"))
    }

    func testDumpShowsEnumCasesAndOptionalsUnwrapped() {
        XCTAssertEqual(ValueDump.line(State.live), ".live")
        XCTAssertEqual(ValueDump.line(State.failed(code: 3, reason: "x")), #".failed(code: 3, reason: "x")"#)
        XCTAssertEqual(ValueDump.line(Optional(Author(name: "Ada")) as Any), #"Author(name: "Ada")"#)
    }

    func testLineDiffMarksOnlyChangedLinesAndFoldsDistantContext() {
        let expected = (1...20).map { "line \($0)" }
        var actual = expected
        actual[9] = "line ten"
        let diff = LineDiff.render(expected: expected, actual: actual)
        XCTAssertEqual(
            diff.components(separatedBy: "\n"),
            [
                "Difference (- expected, + actual):",
                "  …",
                "  line 7", "  line 8", "  line 9",
                "- line 10",
                "+ line ten",
                "  line 11", "  line 12", "  line 13",
                "  …",
            ])
    }

    func testLineDiffHandlesInsertionsAndDeletions() {
        let lines = LineDiff.lines(expected: ["a", "b", "c"], actual: ["a", "c", "d"])
        XCTAssertEqual(lines, [.same("a"), .removed("b"), .same("c"), .added("d")])
    }

    func testEqualOnLargeValuesShowsADiffInsteadOfTwoWallsOfText() throws {
        let base = Story(
            id: 1, title: "Launch day", tags: ["swift", "ios"], meta: ["votes": 42, "comments": 5], author: Author(name: "Ada"))
        var changed = base
        changed.author = Author(name: "Grace")
        let message = try equal(base).evaluate(changed).message(for: .to)
        let lines = message.components(separatedBy: "\n")
        XCTAssertTrue(lines[0].hasPrefix("expected to equal <Story(id: 1"), lines[0])
        XCTAssertLessThan(lines[0].count, 200, "the first line stays short")
        XCTAssertTrue(lines.contains("Difference (- expected, + actual):"), message)
        XCTAssertTrue(lines.contains(#"-     name: "Ada""#), message)
        XCTAssertTrue(lines.contains(#"+     name: "Grace""#), message)
        XCTAssertFalse(lines.contains { $0.contains("votes") && $0.hasPrefix("-") }, "unchanged fields are not marked")
    }

    func testMultiLineStringsAreDiffedLineByLine() throws {
        let message = try equal("one\ntwo\nthree").evaluate("one\n2\nthree").message(for: .to)
        XCTAssertTrue(message.hasSuffix("Difference (- expected, + actual):\n  one\n- two\n+ 2\n  three"), message)
    }

    func testValuesThatPrintIdenticallySaySo() throws {
        final class Identity: Equatable {
            let text = String(repeating: "x", count: 80)
            static func == (lhs: Identity, rhs: Identity) -> Bool { lhs === rhs }
        }
        let message = try equal(Identity()).evaluate(Identity()).message(for: .to)
        XCTAssertTrue(message.hasSuffix("\n(the values differ but print identically; compare their types or == implementation)"), message)
    }
}
