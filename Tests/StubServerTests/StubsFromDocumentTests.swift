import Foundation
import OpenAPI
import StubServer
import StubServerTestSupport
import XCTest

/// `stubserver init --openapi`: stubs written from a document load (`validate`), stand for
/// exactly the document (`check` finds no drift, every operation covered) and answer the
/// document's examples over real HTTP; the command never overwrites without `--force`.
final class StubsFromDocumentTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sampleDocument = repository.appendingPathComponent("Stubs/openapi.yaml").path
    static let kennelDocument = repository.appendingPathComponent("Tests/YAMLTests/Fixtures/openapi/kennel.yaml").path

    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    /// Generates the stubs into a file and checks them against the same document.
    private func generateAndCheck(_ api: OpenAPIDocument, file: StaticString = #filePath, line: UInt = #line) throws -> (
        StubsFromDocument, ContractReport
    ) {
        let stubs = StubsFromDocument(api)
        try directory.write("api_conf.json", stubs.configText)
        let report = try ContractCheck.run(api: api, config: "api_conf.json", workingDirectory: directory.url.path)
        XCTAssertEqual(report.drift, [], report.text(strict: false), file: file, line: line)
        XCTAssertEqual(report.warnings, [], report.text(strict: false), file: file, line: line)
        XCTAssertFalse(report.fails(strict: true), file: file, line: line)
        XCTAssertEqual(
            report.coverage.filter { $0.stubs.count != 1 }.map { "\($0.method) \($0.path) \($0.stubs)" }, [],
            "each operation has exactly one stub", file: file, line: line)
        return (stubs, report)
    }

    func testTheSampleDocumentGivesStubsWithoutDrift() throws {
        let api = try OpenAPILoader().load(Self.sampleDocument)
        let (stubs, report) = try generateAndCheck(api)
        XCTAssertEqual(stubs.notes.map(\.description), [])
        XCTAssertEqual(report.stubsChecked, api.operations.count)
    }

    func testTheKennelDocumentGivesStubsWithoutDrift() throws {
        let api = try OpenAPILoader().load(Self.kennelDocument)
        let (stubs, _) = try generateAndCheck(api)
        XCTAssertEqual(stubs.notes.map(\.description), [])
        XCTAssertEqual(stubs.sessions.count, api.operations.count)
    }

    static let generated = """
        openapi: 3.1.0
        info: {title: zoo, version: "1"}
        servers: [{url: "https://zoo.example/v1"}]
        paths:
          /animals/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer, minimum: 10}}]
            get:
              operationId: getAnimal
              responses:
                "200":
                  description: one
                  headers:
                    X-Request-Id: {required: true, schema: {type: string, format: uuid}}
                  content: {application/json: {schema: {$ref: "#/components/schemas/Animal"}}}
                "404": {description: none}
            delete:
              responses: {"204": {description: gone}}
          /animals/mine:
            get:
              responses:
                2XX:
                  description: mine
                  content: {application/json: {schema: {type: array, minItems: 2, maxItems: 2, uniqueItems: true, items: {type: integer, minimum: 5, multipleOf: 5}}}}
          /animals/{id}/photo:
            parameters: [{name: id, in: path, required: true, schema: {type: string}}]
            get:
              responses:
                default: {description: a photo, content: {"image/*": {schema: {type: string, format: binary}}}}
          /keepers:
            get:
              responses:
                "200":
                  description: keepers
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: "#/components/schemas/Keeper"}}
                      examples:
                        two: {$ref: "#/components/examples/TwoKeepers"}
          /greeting:
            get:
              responses:
                "200": {description: hi, content: {text/plain: {schema: {type: string, pattern: "^[A-Z]{3}$"}}}}
          /count:
            get:
              responses:
                "201": {description: count, content: {application/json: {schema: {type: integer, const: 7}}}}
        components:
          examples:
            TwoKeepers: {value: [{name: Ada, email: ada@zoo.example}, {name: Bo, email: bo@zoo.example}]}
          schemas:
            Keeper:
              type: object
              required: [name, email]
              properties: {name: {type: string}, email: {type: string, format: email}}
            Animal:
              type: object
              required: [id, born, kind, pet, tags, status]
              additionalProperties: false
              properties:
                id: {type: integer, format: int64, minimum: 10}
                born: {type: string, format: date-time}
                kind: {const: animal}
                status: {type: string, enum: [awake, asleep]}
                name: {type: [string, "null"], minLength: 12, maxLength: 12}
                secret: {type: string, writeOnly: true}
                homepage: {type: string, format: uri}
                tags: {type: array, minItems: 1, items: {type: string}}
                pet:
                  oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
                  discriminator: {propertyName: type, mapping: {dog: "#/components/schemas/Dog"}}
                keeper: {$ref: "#/components/schemas/Keeper"}
                parent: {$ref: "#/components/schemas/Animal"}
            Cat:
              allOf:
                - {$ref: "#/components/schemas/Pet"}
                - {type: object, required: [lives], properties: {lives: {type: integer, maximum: 9, exclusiveMinimum: 7}}}
            Dog:
              allOf:
                - {$ref: "#/components/schemas/Pet"}
                - {type: object, required: [barks], properties: {barks: {type: boolean}}}
            Pet:
              type: object
              required: [type]
              properties: {type: {type: string}}
        """

    func testGeneratedValuesMeetTheirSchemas() throws {
        let api = try OpenAPILoader().load(bytes: Array(Self.generated.utf8), name: "zoo.yaml")
        let (stubs, _) = try generateAndCheck(api)
        XCTAssertEqual(stubs.notes.map(\.description), [])
        let sessions = stubs.sessions.map { $0.compactText }
        // Exact paths first, then templates with the more specific paths left out.
        XCTAssertEqual(
            stubs.sessions.map { $0["request"]?["uri"]?.compactText ?? "" },
            [
                #""/v1/animals/mine""#, #""/v1/keepers""#, #""/v1/greeting""#, #""/v1/count""#,
                #"{"match":"(?!/v1/animals/mine$)/v1/animals/[^/]+"}"#, #"{"match":"/v1/animals/[^/]+"}"#,
                #"{"match":"/v1/animals/[^/]+/photo"}"#,
            ], sessions.joined(separator: "\n"))
        let animal = try XCTUnwrap(stubs.sessions[4]["response"])
        XCTAssertEqual(animal["status"], 200)
        let uuid = try XCTUnwrap(animal["headers"]?["X-Request-Id"]?.stringValue)
        XCTAssertNotNil(UUID(uuidString: uuid), uuid)
        let body = try XCTUnwrap(animal["json"])
        XCTAssertEqual(body["id"], 10)
        XCTAssertEqual(body["kind"], "animal")
        XCTAssertEqual(body["status"], "awake")
        XCTAssertEqual(body["name"]?.stringValue?.count, 12)
        XCTAssertNil(body["secret"], "writeOnly properties are left out of responses")
        XCTAssertNotNil(ISO8601DateFormatter().date(from: body["born"]?.stringValue ?? ""))
        XCTAssertEqual(body["pet"]?["type"], "Cat", "the discriminator names the alternative (its schema name)")
        XCTAssertEqual(body["pet"]?["lives"], 8)
        XCTAssertEqual(stubs.sessions[0]["response"]?["json"], [5, 10], "minItems, uniqueItems and multipleOf")
        XCTAssertEqual(
            stubs.sessions[1]["response"]?["json"],
            [["name": "Ada", "email": "ada@zoo.example"], ["name": "Bo", "email": "bo@zoo.example"]], "the document's example wins")
        XCTAssertEqual(stubs.sessions[2]["response"]?["text"], "ABC", "a pattern met by one of the candidate strings")
        XCTAssertEqual(stubs.sessions[2]["response"]?["headers"]?["Content-Type"], "text/plain")
        XCTAssertEqual(stubs.sessions[3]["response"]?["text"], "7")
        XCTAssertEqual(stubs.sessions[3]["response"]?["status"], 201)
        XCTAssertEqual(stubs.sessions[5]["response"]?.compactText, #"{"status":204}"#)
    }

    func testAPatternNoCandidateMeetsIsANoteNamingTheOperation() throws {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/codes": {"get": {"responses": {"200":
             {"description": "ok", "content": {"application/json": {"schema": {"type": "string", "pattern": "^Q[0-9]{7}Z$"}}}}}}}}}
            """
        let api = try OpenAPILoader().load(bytes: Array(document.utf8), name: "codes.json")
        let stubs = StubsFromDocument(api)
        XCTAssertEqual(stubs.notes.count, 1)
        XCTAssertEqual(stubs.notes.first?.operation, "GET /codes")
        XCTAssertEqual(stubs.notes.first?.path, #".paths["/codes"].get.responses["200"].content["application/json"]"#)
        XCTAssertTrue(stubs.notes.first?.message.contains("expected a string matching") ?? false, "\(stubs.notes)")
    }

    /// Found on DigitalOcean's public document: `required` names a property `properties` does not define.
    func testARequiredNameWithoutAPropertySchemaGetsAValue() throws {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/sinks": {"get": {"responses": {"200":
             {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "required": ["urn"],
              "properties": {"resources": {"type": "array", "items": {"type": "string"}}}}}}}}}}}}
            """
        let api = try OpenAPILoader().load(bytes: Array(document.utf8), name: "sinks.json")
        let (stubs, _) = try generateAndCheck(api)
        XCTAssertEqual(stubs.notes.map(\.description), [])
        XCTAssertEqual(stubs.sessions.first?["response"]?["json"], ["resources": ["string"], "urn": "string"])
    }

    func testTheGeneratedStubsAnswerTheExamplesOverHTTP() throws {
        let api = try OpenAPILoader().load(bytes: Array(Self.generated.utf8), name: "zoo.yaml")
        try directory.write("zoo_conf.json", StubsFromDocument(api).configText)
        var options = StubServer.Options()
        options.openAPI = api
        let server = try StubServer(configFile: directory.url.appendingPathComponent("zoo_conf.json").path, options: options)
        try server.start()
        defer { server.stop() }
        let keepers = try RawHTTPClient.get(port: server.port, "/v1/keepers")
        XCTAssertEqual(keepers.status, 200)
        XCTAssertEqual(try JSONValue(parsing: keepers.text).arrayValue?.first?["name"], "Ada")
        let animal = try RawHTTPClient.get(port: server.port, "/v1/animals/123")
        XCTAssertEqual(animal.status, 200)
        XCTAssertEqual(try JSONValue(parsing: animal.text)["kind"], "animal")
        let mine = try RawHTTPClient.get(port: server.port, "/v1/animals/mine")
        XCTAssertEqual(mine.text, "[5,10]")
        XCTAssertEqual(try RawHTTPClient.get(port: server.port, "/v1/greeting").text, "ABC")
        XCTAssertEqual(try server.contractViolations(), [], "what the stubs answer meets the document")
    }

    func testTheCommandWritesOnceAndTheStubsPassValidateAndCheck() throws {
        let output = directory.url.appendingPathComponent("Stubs").path
        let first = try StubServerProcess.run(["init", "--openapi", Self.sampleDocument, "-o", output + "/"])
        XCTAssertEqual(first.status, 0, "\(first.stderr)")
        XCTAssertEqual(first.stdout.first, output + "/openapi_conf.json: 6 sessions for 6 operations of \(Self.sampleDocument)")
        let file = output + "/openapi_conf.json"
        let validate = try StubServerProcess.run(["validate", "-c", file])
        XCTAssertEqual(validate.status, 0, "\(validate.stdout) \(validate.stderr)")
        let check = try StubServerProcess.run(["check", "--strict", "--openapi", Self.sampleDocument, "-c", file])
        XCTAssertEqual(check.status, 0, check.stdout.joined(separator: "\n"))
        XCTAssertEqual(check.stdout.last(where: { !$0.isEmpty }), "6 stubs checked: 0 drift, 0 notes")

        // Again: the file is kept, byte for byte, unless --force.
        try "[]".write(toFile: file, atomically: true, encoding: .utf8)
        let again = try StubServerProcess.run(["init", "--openapi", Self.sampleDocument, "-o", output])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, ["stubserver: error: \(file) exists; it is kept (run again with --force to replace it)"])
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "[]")
        let forced = try StubServerProcess.run(["init", "--force", "--openapi", Self.sampleDocument, "-o", output])
        XCTAssertEqual(forced.status, 0, "\(forced.stderr)")
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("GET /api/v1/stories/{id}"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output), ["openapi_conf.json"], "no temporary file is left")
    }

    func testUsageAndRuntimeErrors() throws {
        let help = try StubServerProcess.run(["init", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains { $0.contains("USAGE: stubserver init --openapi <document> -o <folder> [--force]") })
        let noOutput = try StubServerProcess.run(["init", "--openapi", Self.sampleDocument])
        XCTAssertEqual(noOutput.status, 64)
        XCTAssertTrue(noOutput.stderr.first?.contains("missing '-o <folder>'") ?? false, "\(noOutput.stderr)")
        let noDocument = try StubServerProcess.run(["init", "-o", directory.url.path])
        XCTAssertEqual(noDocument.status, 64)
        try directory.write("broken.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get: [1\n")
        let broken = try StubServerProcess.run(["init", "--openapi", "broken.yaml", "-o", "out"], workingDirectory: directory.url)
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.first?.contains("broken.yaml") ?? false, "\(broken.stderr)")
        XCTAssertTrue(broken.stderr.first?.contains("line 5") ?? false, "\(broken.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("out").path), "nothing is written")
    }
}
