import Foundation
import XCTest
import YAML

/// Random mutations of a corpus of YAML documents: the reader must return a value or throw a
/// `YAMLSyntaxError` with a line and column, never trap or hang. Deterministic (fixed seed) and
/// bounded in count, so a failure reproduces.
final class YAMLFuzzTests: XCTestCase {
    static let corpus: [String] = [
        "openapi: 3.1.0\ninfo: {title: Pets, version: '1.0'}\npaths:\n  /pets/{id}:\n    get:\n      parameters:\n      - name: id\n        in: path\n        required: true\n        schema: {type: integer, format: int64}\n      responses:\n        '200':\n          description: A pet\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Pet'}\n",
        "a: |\n  literal\n   text\n\nb: >-\n  folded\n  text\nc: \"esc \\u00e9 \\x41\\\n  cont\"\nd: 'it''s'\n",
        "- &a [1, 2, {k: v}]\n- *a\n- ? explicit\n  : value\n- !!str 12\n- !!int 0x1F\n- .inf\n- ~\n",
        "%YAML 1.2\n%TAG !e! tag:e.com:\n--- !e!thing\nx: [a, b,\n  c]\n...\n--- # c\n- {a: 1, b: [2, 3]}\n",
        "key:    # comment\n  - a\n  -   b\n  - - c\n    - d\nother: {\"json\": true, \"n\": -1.5e3}\n",
    ]

    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    }

    static let interesting: [UInt8] = Array(":-?[]{},#&*!|>'\"%@` \t\n\r\\.0x~".utf8) + [0xC3, 0xA9, 0xFF, 0x00]

    static func mutate(_ input: [UInt8], with random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(4) {
            let position = random.below(bytes.count + 1)
            switch random.below(6) {
            case 0 where !bytes.isEmpty && position < bytes.count:
                bytes[position] = interesting[random.below(interesting.count)]
            case 1:
                bytes.insert(interesting[random.below(interesting.count)], at: position)
            case 2 where position < bytes.count:
                bytes.removeSubrange(position..<min(bytes.count, position + 1 + random.below(8)))
            case 3 where position < bytes.count:
                let end = min(bytes.count, position + 1 + random.below(40))
                bytes.insert(contentsOf: bytes[position..<end], at: random.below(bytes.count + 1))
            case 4 where position < bytes.count:
                bytes[position] = UInt8(truncatingIfNeeded: random.next())
            default:
                bytes.insert(contentsOf: Array(String(repeating: " ", count: random.below(6)).utf8), at: position)
            }
        }
        return bytes
    }

    func testMutatedDocumentsNeverTrap() throws {
        var corpus = Self.corpus.map { Array($0.utf8) }
        if let root = YAMLTestSuiteTests.suiteDirectory {
            for name in YAMLTestSuiteTests.caseDirectories(in: root).prefix(400) {
                if let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).appendingPathComponent("in.yaml").path)
                {
                    corpus.append([UInt8](data))
                }
            }
        }
        var random = SplitMix64(state: 0x5EED_0025)
        var accepted = 0
        var refused = 0
        for _ in 0..<6_000 {
            let input = Self.mutate(corpus[random.below(corpus.count)], with: &random)
            do {
                for document in try YAMLReader.parseStream(input) { _ = try document.jsonValue() }
                accepted += 1
            } catch {
                XCTAssertGreaterThanOrEqual(error.line, 1)
                XCTAssertGreaterThanOrEqual(error.column, 1)
                XCTAssertLessThanOrEqual(error.offset, input.count)
                refused += 1
            }
        }
        XCTAssertEqual(accepted + refused, 6_000)
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(accepted, 0)
    }
}
