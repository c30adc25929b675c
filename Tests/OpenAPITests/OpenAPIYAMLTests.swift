import Foundation
import OpenAPI
import RehearsalJSON
import XCTest

/// OpenAPI documents written in YAML: they load through the YAML reader, give the same model as
/// their JSON form, refer to other YAML files, and report YAML mistakes with line and column.
final class OpenAPIYAMLTests: XCTestCase {
    /// The kennel document of the YAML tests, in YAML and (written by PyYAML) in JSON.
    static let kennel = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("YAMLTests/Fixtures/openapi")

    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "openapi-yaml-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/schemas", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Everything the model says about a document, as comparable text.
    static func summary(_ document: OpenAPIDocument) -> [String] {
        var lines = ["\(document.version) \(document.dialect) \(document.title ?? "-") \(document.basePaths)"]
        for operation in document.operations {
            lines.append("\(operation.name) id=\(operation.operationID ?? "-") at \(operation.location)")
            for parameter in operation.parameters {
                lines.append(
                    "  param \(parameter.location.rawValue) \(parameter.name) required=\(parameter.required) style=\(parameter.style.rawValue) explode=\(parameter.explode) schema=\(parameter.schema?.description ?? "-")"
                )
            }
            if let body = operation.requestBody {
                lines.append(
                    "  body required=\(body.required) "
                        + body.content.map { "\($0.name)=\($0.schema?.description ?? "-")" }.joined(separator: " "))
            }
            for response in operation.responses {
                lines.append(
                    "  response \(response.status) at \(response.location) headers=\(response.headers.map { "\($0.name):\($0.required)" }) "
                        + response.content.map { "\($0.name)=\($0.schema?.description ?? "-")" }.joined(separator: " "))
            }
        }
        return lines
    }

    func testKennelDocumentGivesTheSameModelFromYAMLAndJSON() throws {
        let loader = OpenAPILoader(workingDirectory: Self.kennel.path)
        let yaml = try loader.load("kennel.yaml")
        let json = try loader.load("kennel.json")
        XCTAssertEqual(Self.summary(yaml), Self.summary(json))
        XCTAssertEqual(yaml.operations.map(\.name), ["GET /dogs", "POST /dogs", "GET /dogs/{dogId}"])
        XCTAssertEqual(yaml.dialect, .openAPI31)
        let post = try XCTUnwrap(yaml.operations.first { $0.operationID == "checkInDog" })
        XCTAssertNotNil(post.response(for: 201), "an unquoted 201: key is the status 201")
        XCTAssertEqual(post.response(for: 500)?.status, .default)
    }

    func testPublicExamplesGiveTheSameModelFromYAMLAndJSON() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var candidates: [URL] = []
        if let suite = ProcessInfo.processInfo.environment["REHEARSAL_YAML_TEST_SUITE"], !suite.isEmpty {
            candidates.append(URL(fileURLWithPath: suite).deletingLastPathComponent().appendingPathComponent("openapi-examples"))
        }
        candidates.append(repository.appendingPathComponent("Tests/YAMLTests/Fixtures/openapi-examples"))
        candidates.append(repository.deletingLastPathComponent().appendingPathComponent("shared/reference/openapi-examples"))
        guard let examples = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("LICENSE").path) })
        else {
            throw XCTSkip("the public OpenAPI examples are not present (see docs/contract-checks.md#yaml-documents)")
        }
        let loader = OpenAPILoader(workingDirectory: examples.path)
        var compared = 0
        for name in [
            "v3.0/petstore", "v3.0/petstore-expanded", "v3.0/api-with-examples", "v3.0/callback-example", "v3.0/link-example", "v3.0/uspto",
            "v3.1/webhook-example", "v3.1/non-oauth-scopes",
        ] {
            guard FileManager.default.fileExists(atPath: examples.appendingPathComponent(name + ".yaml").path) else { continue }
            let yaml = try loader.load(name + ".yaml")
            let json = try loader.load(name + ".json")
            XCTAssertEqual(Self.summary(yaml), Self.summary(json), name)
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 2)
    }

    func testYAMLReferencesToOtherYAMLFiles() throws {
        try """
        openapi: 3.0.3
        info: {title: Pets, version: '1'}
        paths:
          /pets/{id}:
            get:
              parameters:
              - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200':
                  description: A pet
                  content:
                    application/json:
                      schema: {$ref: 'schemas/pet.yml#/Pet'}
        """.write(toFile: folder + "/api.yaml", atomically: true, encoding: .utf8)
        try "Pet:\n  type: object\n  required: [name]\n  properties:\n    name: {type: string}\n"
            .write(toFile: folder + "/schemas/pet.yml", atomically: true, encoding: .utf8)
        let document = try OpenAPILoader(workingDirectory: folder).load("api.yaml")
        XCTAssertEqual(document.operations.map(\.name), ["GET /pets/{id}"])
        let schema = try XCTUnwrap(document.operations.first?.response(for: 200)?.content.first?.schema)
        // The schema behind the $ref comes from the YAML file: `name` is a required string.
        XCTAssertEqual(SchemaValidator(document).validate(["name": "Rex"], against: schema).count, 0)
        XCTAssertEqual(SchemaValidator(document).validate(["name": 1], against: schema).count, 1)
        XCTAssertEqual(SchemaValidator(document).validate([:], against: schema).count, 1)
    }

    func testYAMLMistakesNameTheDocumentLineAndColumn() throws {
        try "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get\n    post: {}\n"
            .write(toFile: folder + "/broken.yaml", atomically: true, encoding: .utf8)
        do {
            _ = try OpenAPILoader(workingDirectory: folder).load("broken.yaml")
            XCTFail("a broken YAML document must be refused")
        } catch {
            let diagnostic = try XCTUnwrap(error.diagnostics.first)
            XCTAssertEqual(diagnostic.file, "broken.yaml")
            XCTAssertEqual(diagnostic.position, SourcePosition(line: 6, column: 9))
            XCTAssertTrue(diagnostic.message.hasPrefix("malformed YAML: "), diagnostic.message)
        }
    }

    func testAFlowStyleYAMLFileIsReadAsYAML() throws {
        try "{openapi: 3.1.0, info: {title: Flow, version: '1'}, paths: {/ping: {get: {responses: {204: {description: none}}}}}}\n"
            .write(toFile: folder + "/flow.yaml", atomically: true, encoding: .utf8)
        let document = try OpenAPILoader(workingDirectory: folder).load("flow.yaml")
        XCTAssertEqual(document.operations.map(\.name), ["GET /ping"])
    }

    func testModelErrorsInYAMLPointAtTheYAMLLine() throws {
        try
            "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          $ref: '#/components/responses/Missing'\n"
            .write(toFile: folder + "/dangling.yaml", atomically: true, encoding: .utf8)
        do {
            _ = try OpenAPILoader(workingDirectory: folder).load("dangling.yaml")
            XCTFail("a $ref to nothing must be refused")
        } catch {
            let diagnostic = try XCTUnwrap(error.diagnostics.first)
            XCTAssertEqual(diagnostic.position?.line, 8, "\(diagnostic)")
        }
    }
}
