import Foundation
import RehearsalJSON
import XCTest
import YAML

/// Runs the official yaml-test-suite cases (github.com/yaml/yaml-test-suite, `data` layout) when
/// the data is present: every valid case must give the JSON of its in.json (a stream of values
/// for multi-document cases), every error case must fail with a line and column, and a valid
/// case without in.json (collections as keys, which JSON cannot hold) must at least parse.
///
/// The data is looked for, in order, in `$REHEARSAL_YAML_TEST_SUITE`,
/// `Tests/YAMLTests/Fixtures/yaml-test-suite` and `../shared/reference/yaml-test-suite` next to
/// the checkout (where CI lays the shared reference data). See docs/contract-checks.md.
final class YAMLTestSuiteTests: XCTestCase {
    /// Cases left out on purpose, with the reason. Empty: every kept case passes.
    static let skipped: [String: String] = [:]

    static var suiteDirectory: URL? {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["REHEARSAL_YAML_TEST_SUITE"], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        candidates.append(repository.appendingPathComponent("Tests/YAMLTests/Fixtures/yaml-test-suite"))
        candidates.append(repository.deletingLastPathComponent().appendingPathComponent("shared/reference/yaml-test-suite"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("LICENSE").path) }
    }

    /// Every case directory (those holding in.yaml), `ID` or `ID/NN`.
    static func caseDirectories(in root: URL) -> [String] {
        let manager = FileManager.default
        var cases: [String] = []
        for name in ((try? manager.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let directory = root.appendingPathComponent(name)
            if manager.fileExists(atPath: directory.appendingPathComponent("in.yaml").path) {
                cases.append(name)
            } else if let children = try? manager.contentsOfDirectory(atPath: directory.path) {
                for child in children.sorted()
                where manager.fileExists(atPath: directory.appendingPathComponent(child).appendingPathComponent("in.yaml").path) {
                    cases.append(name + "/" + child)
                }
            }
        }
        return cases
    }

    func testEveryKeptCase() throws {
        guard let root = Self.suiteDirectory else {
            throw XCTSkip("the yaml-test-suite data is not present (see docs/contract-checks.md#yaml-documents)")
        }
        let cases = Self.caseDirectories(in: root)
        XCTAssertGreaterThan(cases.count, 300, "the suite data looks incomplete")
        var valid = 0
        var invalid = 0
        var parseOnly = 0
        var failures: [String] = []
        for name in cases where Self.skipped[name] == nil {
            let directory = root.appendingPathComponent(name)
            let yaml = try [UInt8](Data(contentsOf: directory.appendingPathComponent("in.yaml")))
            let title =
                (try? String(contentsOf: directory.appendingPathComponent("==="), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("error").path) {
                invalid += 1
                do {
                    let documents = try YAMLReader.parseStream(yaml)
                    for document in documents { _ = try document.jsonValue() }
                    failures.append("\(name) (\(title)): accepted a document the suite calls invalid")
                } catch {
                    if error.line < 1 || error.column < 1 {
                        failures.append("\(name): no line and column in \(error)")
                    }
                }
                continue
            }
            let jsonURL = directory.appendingPathComponent("in.json")
            guard FileManager.default.fileExists(atPath: jsonURL.path) else {
                parseOnly += 1
                do { _ = try YAMLReader.parseStream(yaml) } catch {
                    failures.append("\(name) (\(title)): \(error)")
                }
                continue
            }
            valid += 1
            do {
                let got = try YAMLReader.parseStream(yaml).map { try $0.jsonValue() }
                let expected = try JSONStream.values(in: [UInt8](Data(contentsOf: jsonURL)))
                if got.count != expected.count || !zip(got, expected).allSatisfy({ JSONStream.sameValue($0, $1) }) {
                    failures.append("\(name) (\(title)): got \(got.map(\.compactText)), expected \(expected.map(\.compactText))")
                }
            } catch {
                failures.append("\(name) (\(title)): \(error)")
            }
        }
        XCTAssertEqual(failures, [], "\(failures.count) of \(cases.count) cases")
        print(
            "yaml-test-suite: \(valid) valid with JSON, \(invalid) invalid, \(parseOnly) parse-only, \(Self.skipped.count) skipped; \(valid + invalid + parseOnly - failures.count) passed, \(failures.count) failed"
        )
    }
}

/// The suite's in.json holds one JSON value per document, one after another.
enum JSONStream {
    static func values(in bytes: [UInt8]) throws -> [JSONValue] {
        var values: [JSONValue] = []
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let start = index
            var depth = 0
            var inString = false
            scan: while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 {
                            index += 1
                            break scan
                        }
                    }
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        break scan
                    }
                default:
                    if depth == 0 && isSpace(byte) { break scan }
                }
                index += 1
            }
            values.append(try JSONValue(parsing: Array(bytes[start..<min(index, bytes.count)])))
        }
        return values
    }

    /// Equality with numbers compared by value: the suite writes `450.00` as 450, while our
    /// JSON keeps integers and decimals apart.
    static func sameValue(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let left), .number(let right)): return left.doubleValue == right.doubleValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { sameValue($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.members.allSatisfy { member in right[member.key].map { sameValue(member.value, $0) } ?? false }
        default: return lhs == rhs
        }
    }
}
