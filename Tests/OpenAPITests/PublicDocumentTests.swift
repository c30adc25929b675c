import Foundation
import OpenAPI
import RehearsalJSON
import XCTest

/// The OpenAPI Initiative's published examples (Apache 2.0) load, and the YAML and JSON versions
/// of one document read to the same model. The documents are not in the repository: fetched public
/// data is never committed here (the project's rule for material from other repositories). Point
/// `REHEARSAL_OPENAPI_DOCUMENTS` at a folder holding `petstore-3.0.yaml`/`.json`,
/// `petstore-expanded-3.0.yaml` and `webhook-example-3.1.yaml`/`.json` (from
/// github.com/OAI/OpenAPI-Specification `examples/`, JSON versions converted from the YAML) to run them;
/// without it they skip. Our own documents (`kennel.yaml`, the sample's `Stubs/openapi.yaml`) always run.
final class PublicDocumentTests: XCTestCase {
    static var folder: String? {
        guard let folder = ProcessInfo.processInfo.environment["REHEARSAL_OPENAPI_DOCUMENTS"], !folder.isEmpty else { return nil }
        return folder
    }

    func load(_ name: String) throws -> OpenAPIDocument {
        guard let folder = Self.folder else {
            throw XCTSkip("set REHEARSAL_OPENAPI_DOCUMENTS to a folder with the OAI examples to run this test")
        }
        return try OpenAPILoader(workingDirectory: folder).load(name)
    }

    func testPetstore30() throws {
        let api = try load("petstore-3.0.yaml")
        XCTAssertEqual(api.dialect, .openAPI30)
        XCTAssertEqual(api.basePaths, ["/v1"])
        XCTAssertEqual(api.operations.map(\.name), ["GET /pets", "POST /pets", "GET /pets/{petId}"])
        XCTAssertEqual(api.operations[0].parameter("limit", in: .query)?.style, .form)
        XCTAssertEqual(api.operations[0].response(for: 200)?.headers.map(\.name), ["x-next"])
        XCTAssertEqual(api.operations[1].requestBody?.required, true)
        let pets = try XCTUnwrap(api.operations[0].response(for: 200)?.content(for: "application/json")?.schema)
        let validator = SchemaValidator(api)
        XCTAssertEqual(validator.validate([["id": 1, "name": "Rex"]], against: pets, direction: .response), [])
        XCTAssertEqual(
            validator.validate([["id": 1, "name": "Rex"], ["id": "2"]], against: pets, direction: .response).map(\.description),
            [
                #"$[1]: missing the required property "name" (schema #/components/schemas/Pet/required)"#,
                #"$[1].id: expected an integer, got a string "2" (schema #/components/schemas/Pet/properties/id/type)"#,
            ])
        let tooMany = JSONValue.array(Array(repeating: ["id": 1, "name": "Rex"], count: 101))
        XCTAssertEqual(validator.validate(tooMany, against: pets).map(\.schemaLocation), ["#/components/schemas/Pets/maxItems"])
    }

    func testYAMLAndJSONVersionsReadToTheSameModel() throws {
        for name in ["petstore-3.0", "webhook-example-3.1"] {
            let yaml = try load(name + ".yaml")
            let json = try load(name + ".json")
            XCTAssertEqual(yaml.sources.documents[0].root.value, json.sources.documents[0].root.value, name)
            XCTAssertEqual(yaml.version, json.version)
            XCTAssertEqual(yaml.operations.map(\.name), json.operations.map(\.name))
            XCTAssertEqual(
                yaml.operations.map { $0.parameters.map { "\($0.name) \($0.location) \($0.style) \($0.explode) \($0.required)" } },
                json.operations.map { $0.parameters.map { "\($0.name) \($0.location) \($0.style) \($0.explode) \($0.required)" } })
            XCTAssertEqual(
                yaml.operations.map {
                    $0.responses.map { "\($0.status) \($0.content.map { "\($0.name) \($0.schema?.description ?? "-")" })" }
                },
                json.operations.map {
                    $0.responses.map { "\($0.status) \($0.content.map { "\($0.name) \($0.schema?.description ?? "-")" })" }
                })
        }
    }

    func testPetstoreExpandedAllOf() throws {
        let api = try load("petstore-expanded-3.0.yaml")
        XCTAssertEqual(api.operations.map(\.name), ["GET /pets", "POST /pets", "GET /pets/{id}", "DELETE /pets/{id}"])
        XCTAssertEqual(api.operations[0].parameter("tags", in: .query)?.explode, true, "form defaults to explode")
        let pet = try XCTUnwrap(api.schema(named: "Pet"))
        let validator = SchemaValidator(api)
        XCTAssertEqual(validator.validate(["id": 7, "name": "Rex", "tag": "dog"], against: pet), [])
        XCTAssertEqual(
            validator.validate(["name": "Rex"], against: pet).map(\.description),
            [#"$: missing the required property "id" (schema #/components/schemas/Pet/allOf/1/required)"#])
    }

    func testWebhookExample31() throws {
        let api = try load("webhook-example-3.1.yaml")
        XCTAssertEqual(api.dialect, .openAPI31)
        XCTAssertEqual(api.operations.map(\.name), ["GET /pets"], "webhooks are not operations a client calls")
        let pet = try XCTUnwrap(api.schema(named: "Pet"))
        XCTAssertEqual(
            SchemaValidator(api).validate(["id": "x", "name": "n"], against: pet).map(\.schemaLocation),
            ["#/components/schemas/Pet/properties/id/type"])
    }

    func testYAMLSyntaxErrorsNameLineAndColumn() throws {
        let folder = NSTemporaryDirectory() + "openapi-yaml-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "openapi: 3.1.0\npaths:\n  /a:\n    get: [unclosed\n".write(toFile: folder + "/api.yaml", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try OpenAPILoader(workingDirectory: folder).load("api.yaml")) { error in
            let diagnostic = (error as? OpenAPIError)?.diagnostics.first
            XCTAssertEqual(diagnostic?.file, "api.yaml")
            XCTAssertTrue(diagnostic?.message.hasPrefix("malformed YAML") ?? false, "\(error)")
            XCTAssertNotNil(diagnostic?.position, "\(error)")
        }
    }
}
