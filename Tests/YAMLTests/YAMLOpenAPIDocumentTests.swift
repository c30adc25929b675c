import Foundation
import RehearsalJSON
import XCTest
import YAML

/// OpenAPI documents kept in both YAML and JSON must read to the same `JSONValue`.
/// `Fixtures/openapi/kennel.yaml` is written for these tests; its `kennel.json` was produced from
/// it by another YAML implementation (PyYAML), so the comparison is not our reader against itself.
/// The public OpenAPI examples (Petstore 3.0 and friends, the 3.1 webhook example; Apache-2.0)
/// are compared when present next to the yaml-test-suite data (`openapi-examples/`).
final class YAMLOpenAPIDocumentTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/openapi")

    static func load(_ url: URL) throws -> (yaml: JSONValue, json: JSONValue) {
        let yamlBytes = try [UInt8](Data(contentsOf: url))
        let jsonBytes = try [UInt8](Data(contentsOf: url.deletingPathExtension().appendingPathExtension("json")))
        return (try YAMLReader.json(from: yamlBytes), try JSONValue(parsing: jsonBytes))
    }

    func testOwnDocumentReadsTheSameFromYAMLAndJSON() throws {
        let (yaml, json) = try Self.load(Self.fixtures.appendingPathComponent("kennel.yaml"))
        XCTAssertEqual(yaml, json)
        // Spot checks of the YAML that matters in OpenAPI documents.
        XCTAssertNotNil(yaml["paths"]?["/dogs"]?["post"]?["responses"]?["201"], "an unquoted status code is the key \"201\"")
        XCTAssertEqual(
            yaml["paths"]?["/dogs"]?["post"]?["responses"]?["default"], yaml["paths"]?["/dogs"]?["get"]?["responses"]?["default"],
            "aliases expand")
        XCTAssertEqual(yaml["components"]?["schemas"]?["NewDog"]?["properties"]?["breed"]?["type"], ["string", "null"])
    }

    func testYAMLDocumentNodesPointAtTheirLines() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("kennel.yaml")))
        let root = try YAMLReader.parse(bytes)
        let dogId = try XCTUnwrap(root["paths"]?["/dogs/{dogId}"]?["parameters"]?[0]?["name"])
        XCTAssertEqual(dogId.mark.line, 64)
        XCTAssertEqual(dogId.mark.column, 13)
    }

    func testPublicExamplesReadTheSameFromYAMLAndJSON() throws {
        guard let suite = YAMLTestSuiteTests.suiteDirectory else {
            throw XCTSkip("the public OpenAPI examples are not present (see docs/contract-checks.md#yaml-documents)")
        }
        let examples = suite.deletingLastPathComponent().appendingPathComponent("openapi-examples")
        guard let enumerator = FileManager.default.enumerator(atPath: examples.path) else {
            throw XCTSkip("the public OpenAPI examples are not present (see docs/contract-checks.md#yaml-documents)")
        }
        var compared: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".yaml") {
            let (yaml, json) = try Self.load(examples.appendingPathComponent(relative))
            XCTAssertEqual(yaml, json, relative)
            compared.append(relative)
        }
        XCTAssertTrue(compared.contains("v3.0/petstore.yaml"), "\(compared)")
        XCTAssertTrue(compared.contains { $0.hasPrefix("v3.1/") }, "\(compared)")
    }
}
