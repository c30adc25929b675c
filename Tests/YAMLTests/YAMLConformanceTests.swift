import Foundation
import RehearsalJSON
import XCTest
import YAML

/// Rehearsal's own YAML conformance cases (`Fixtures/conformance.txt`, written for this
/// repository): the productions OpenAPI documents use — block and flow collections, every scalar
/// style with chomping and indentation indicators, anchors and aliases, comments, explicit keys,
/// tags, core schema resolution, document markers — each with the JSON it must give, and
/// malformed inputs with the line and column of their error. They run in every CI build, with or
/// without the fetched yaml-test-suite (`YAMLTestSuiteTests`).
final class YAMLConformanceTests: XCTestCase {
    struct Case {
        enum Expectation {
            case json([JSONValue])
            case error(line: Int, column: Int)
        }

        var name: String
        var yaml: [UInt8]
        var expectation: Expectation
    }

    static var file: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/conformance.txt")
    }

    /// Reads the case file: `%%% case`, the YAML, then `%%% json` and a JSON stream or `%%% error L:C`.
    static func cases() throws -> [Case] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var cases: [Case] = []
        var name: String?
        var yaml: [String] = []
        var expected: [String] = []
        var header: String?
        func finish() throws {
            guard let current = name else { return }
            // Blank lines before the `%%%` line belong to the input (block scalars keep them).
            var joined = yaml.joined(separator: "\n") + "\n"
            if joined.hasSuffix("<EOF>\n") { joined.removeLast("<EOF>\n".count) }
            for (token, value) in [("<TAB>", "\t"), ("<SP>", " "), ("<CR>", "\r"), ("<BOM>", "\u{FEFF}")] {
                joined = joined.replacingOccurrences(of: token, with: value)
            }
            let expectation: Case.Expectation
            if let header, header.hasPrefix("error ") {
                let place = header.dropFirst("error ".count).split(separator: ":").compactMap { Int($0) }
                guard place.count == 2 else { throw CaseFileError(message: "\(current): bad error place \(header)") }
                expectation = .error(line: place[0], column: place[1])
            } else {
                let values = expected.filter { !$0.hasPrefix("#") }.joined(separator: "\n")
                expectation = .json(try JSONStream.values(in: Array(values.utf8)))
            }
            cases.append(Case(name: current, yaml: Array(joined.utf8), expectation: expectation))
            name = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("%%% case ") {
                try finish()
                name = String(line.dropFirst("%%% case ".count))
                yaml = []
                expected = []
                header = nil
            } else if line.hasPrefix("%%% ") {
                header = String(line.dropFirst(4))
            } else if name != nil, header == nil {
                yaml.append(line)
            } else if name != nil {
                expected.append(line)
            }
        }
        try finish()
        return cases
    }

    struct CaseFileError: Error {
        var message: String
    }

    func testEveryCase() throws {
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 100, "the case file looks cut short")
        var failures: [String] = []
        for item in cases {
            let result = Result { () throws(YAMLSyntaxError) -> [JSONValue] in
                try YAMLReader.parseStream(item.yaml).map { node throws(YAMLSyntaxError) in try node.jsonValue() }
            }
            switch (item.expectation, result) {
            case (.json(let expected), .success(let got)):
                if got.count != expected.count || !zip(got, expected).allSatisfy({ JSONStream.sameValue($0, $1) }) {
                    failures.append("\(item.name): got \(got.map(\.compactText)), expected \(expected.map(\.compactText))")
                }
            case (.json, .failure(let error)):
                failures.append("\(item.name): \(error)")
            case (.error(let line, let column), .success(let got)):
                failures.append("\(item.name): accepted (\(got.map(\.compactText))), expected an error at \(line):\(column)")
            case (.error(let line, let column), .failure(let error)):
                if (error.line, error.column) != (line, column) {
                    failures.append("\(item.name): error at \(error.line):\(error.column), expected \(line):\(column): \(error)")
                }
            }
        }
        XCTAssertEqual(failures, [], "\(failures.count) of \(cases.count) cases")
        guard failures.isEmpty else { return }
        let malformed = cases.filter { if case .error = $0.expectation { true } else { false } }.count
        print("YAML conformance: \(cases.count) cases, \(cases.count - malformed) valid and \(malformed) malformed, all as expected")
    }
}
