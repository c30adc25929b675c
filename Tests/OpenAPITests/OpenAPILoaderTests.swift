import Foundation
import OpenAPI
import RehearsalJSON
import XCTest

/// Reading documents: operations, parameters, responses, servers, `$ref`s across files, and
/// errors that name the document, JSON path, line and column.
final class OpenAPILoaderTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "openapi-loader-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/schemas", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }

    func load(_ name: String) throws -> OpenAPIDocument {
        try OpenAPILoader(workingDirectory: folder).load(name)
    }

    func loadError(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> OpenAPIError? {
        do {
            _ = try load(name)
            XCTFail("expected \(name) to be refused", file: file, line: line)
            return nil
        } catch let error as OpenAPIError {
            return error
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    static let users = ##"""
        {
          "openapi": "3.0.3",
          "info": {"title": "Users", "version": "1"},
          "servers": [{"url": "https://api.example.com/v1/"}, {"url": "{scheme}://localhost/{base}", "variables": {"scheme": {"default": "http"}, "base": {"default": "beta"}}}],
          "paths": {
            "/users/{id}": {
              "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
              "get": {
                "operationId": "getUser",
                "parameters": [
                  {"name": "fields", "in": "query", "style": "form", "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
                  {"name": "X-Trace", "in": "header", "schema": {"type": "string"}}
                ],
                "responses": {
                  "200": {"description": "ok", "headers": {"ETag": {"schema": {"type": "string"}, "required": true}},
                          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "4XX": {"$ref": "#/components/responses/Problem"},
                  "default": {"description": "other"}
                }
              },
              "delete": {"responses": {"204": {"description": "gone"}}}
            },
            "/users/me": {"get": {"responses": {"200": {"description": "me"}}}}
          },
          "components": {
            "schemas": {"User": {"type": "object", "properties": {"id": {"type": "integer"}}}},
            "responses": {"Problem": {"description": "problem", "content": {"application/problem+json": {"schema": {"type": "object"}}}}}
          }
        }
        """##

    func testOperationsParametersResponsesAndServers() throws {
        try write("api.json", Self.users)
        let api = try load("api.json")
        XCTAssertEqual(api.version, "3.0.3")
        XCTAssertEqual(api.dialect, .openAPI30)
        XCTAssertEqual(api.title, "Users")
        XCTAssertEqual(api.basePaths, ["/v1", "/beta"])
        XCTAssertEqual(api.operations.map(\.name), ["GET /users/{id}", "DELETE /users/{id}", "GET /users/me"])
        let get = api.operations[0]
        XCTAssertEqual(get.operationID, "getUser")
        XCTAssertEqual(get.parameters.map(\.name), ["id", "fields", "X-Trace"], "path-level parameters are merged in")
        let fields = try XCTUnwrap(get.parameter("fields", in: .query))
        XCTAssertEqual(fields.style, .form)
        XCTAssertFalse(fields.explode)
        XCTAssertEqual(
            get.parameter("x-trace", in: .header)?.style, .simple, "header names compare case-insensitively; simple is their default")
        XCTAssertEqual(get.response(for: 200)?.status, .code(200))
        XCTAssertEqual(get.response(for: 404)?.status, .range(4))
        XCTAssertEqual(get.response(for: 503)?.status, .default)
        XCTAssertNil(api.operations[1].response(for: 200))
        XCTAssertEqual(get.response(for: 404)?.content(for: "application/problem+json; charset=utf-8")?.name, "application/problem+json")
        XCTAssertEqual(get.response(for: 200)?.headers.map(\.name), ["ETag"])
        XCTAssertEqual(
            get.response(for: 200)?.content(for: "application/json")?.schema?.description,
            "#/paths/~1users~1{id}/get/responses/200/content/application~1json/schema")
        XCTAssertEqual(
            api.operations(matchingPath: "/v1/users/me").map(\.operation.name), ["GET /users/me", "GET /users/{id}", "DELETE /users/{id}"],
            "concrete paths first")
        XCTAssertEqual(api.operations(matchingPath: "/beta/users/7").first?.variables, ["id": "7"])
        XCTAssertEqual(api.operations(matchingPath: "/users/7").count, 0, "the servers' base path is required")
    }

    func testRelativeFileReferencesAndPointerEscapes() throws {
        try write(
            "schemas/user.json",
            ##"{"User": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "friend": {"$ref": "#/User"}}}}"##
        )
        try write(
            "api.json",
            ##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a~b/{x}": {"get": {"parameters": [{"name": "x", "in": "path", "required": true}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "schemas/user.json#/User"}}}}}}}}}"##
        )
        let api = try load("api.json")
        let schema = try XCTUnwrap(api.operations[0].response(for: 200)?.content[0].schema)
        let problems = SchemaValidator(api).validate(["name": "a", "friend": ["name": 1]], against: schema)
        XCTAssertEqual(
            problems.map(\.description),
            [##"$.friend.name: expected a string, got an integer 1 (schema schemas/user.json#/User/properties/name/type)"##])
    }

    func testAReferenceOutsideTheDocumentsFolderIsRefused() throws {
        let outside = NSTemporaryDirectory() + "openapi-outside-\(UUID().uuidString).json"
        try ##"{"User": {"type": "object"}}"##.write(toFile: outside, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try write(
            "api.json",
            """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
             "components": {"schemas": {"U": {"$ref": "../\((outside as NSString).lastPathComponent)#/User"}}}}
            """)
        let error = try XCTUnwrap(loadError("api.json"))
        XCTAssertEqual(error.diagnostics.count, 1)
        XCTAssertEqual(error.diagnostics[0].file, "api.json")
        XCTAssertEqual(error.diagnostics[0].path, #".components.schemas.U["$ref"]"#)
        XCTAssertEqual(error.diagnostics[0].position, SourcePosition(line: 2, column: 43))
        XCTAssertTrue(error.diagnostics[0].message.contains("outside the document's folder"), error.description)
    }

    func testFilesOverTheCapAreRefusedBeforeReading() throws {
        try write("api.json", Self.users)
        var loader = OpenAPILoader(workingDirectory: folder)
        loader.fileCap = 100
        XCTAssertThrowsError(try loader.load("api.json")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("\"api.json\" is") && text.contains("capped at 100 bytes"), text)
        }
    }

    func testARefCycleWithNothingInBetweenIsAnError() throws {
        try write(
            "api.json",
            """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
             "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}
            """)
        let error = try XCTUnwrap(loadError("api.json"))
        XCTAssertTrue(error.description.contains("a $ref cycle with nothing in between"), error.description)
        XCTAssertTrue(error.description.contains("line 2"), error.description)
    }

    func testARefToNothingNamesTheDocumentPathLineAndColumn() throws {
        try write(
            "api.json",
            """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
             "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/Missing"}}}}}}
            """)
        let error = try XCTUnwrap(loadError("api.json"))
        XCTAssertEqual(
            error.diagnostics.first?.description,
            ##"api.json: .paths["/a"].get.responses.200["$ref"]: "#/components/responses/Missing" points at nothing: "#/components/responses/Missing" is not in api.json (line 2, column 57)"##
        )
    }

    func testStructuralProblemsAreReportedTogether() throws {
        try write(
            "api.json",
            """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
             "paths": {"/a/{id}": {"get": {"parameters": [{"name": "q", "in": "body"}], "responses": {"20": {"description": "x"}}}}}}
            """)
        let error = try XCTUnwrap(loadError("api.json"))
        let messages = error.diagnostics.map(\.description)
        XCTAssertTrue(messages.contains { $0.contains("\"in\" must be") && $0.contains("parameters[0]") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("expected a status code") && $0.contains(".responses.20") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("{id} has no parameter") }, "\(messages)")
        XCTAssertEqual(error.description, messages.joined(separator: "\n"), "the error prints each diagnostic on its own line")
    }

    func testVersionsOtherThan30And31AreRefused() throws {
        try write("swagger.json", ##"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"##)
        XCTAssertTrue(loadError("swagger.json")?.description.contains("Swagger 2.0 documents are not supported") ?? false)
        try write("v4.json", ##"{"openapi": "4.0.0", "paths": {}}"##)
        XCTAssertTrue(loadError("v4.json")?.description.contains("unsupported OpenAPI version") ?? false)
        try write("broken.json", "{\"openapi\": \"3.1.0\",\n  \"paths\": {,}}")
        XCTAssertEqual(loadError("broken.json")?.diagnostics.first?.position, SourcePosition(line: 2, column: 13))
    }

    func testPathTemplates() throws {
        let template = try PathTemplate.parse("/files/{name}.{ext}").get()
        XCTAssertEqual(template.match("/files/report.final.pdf"), ["name": "report", "ext": "final.pdf"])
        XCTAssertNil(template.match("/files/report"))
        XCTAssertNil(try PathTemplate.parse("/users/{id}").get().match("/users/"))
        XCTAssertThrowsError(try PathTemplate.parse("/users/{id").get())
        XCTAssertThrowsError(try PathTemplate.parse("/users/{a}{b}").get())
    }
}
