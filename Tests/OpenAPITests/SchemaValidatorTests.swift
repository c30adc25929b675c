import OpenAPI
import RehearsalJSON
import XCTest

/// One test per keyword: an instance that passes and one that must fail, with the instance
/// path and schema location the failure names.
final class SchemaValidatorTests: XCTestCase {
    /// Validates `instance` against `#/components/schemas/S` of a document whose schemas are `schemas`.
    func violations(_ instance: String, schemas: String, version: String = "3.1.0", direction: SchemaValidator.Direction = .neither) throws
        -> [SchemaViolation]
    {
        let text =
            ##"{"openapi": "\##(version)", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": \##(schemas)}}"##
        let api = try OpenAPILoader().load(bytes: Array(text.utf8), name: "api.json")
        let schema = try XCTUnwrap(api.schema(named: "S"))
        return SchemaValidator(api).validate(try JSONValue(parsing: instance), against: schema, direction: direction)
    }

    func assertValid(_ instance: String, _ schemas: String, version: String = "3.1.0", file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let found = try violations(instance, schemas: schemas, version: version)
        XCTAssertEqual(found, [], "expected \(instance) to be valid", file: file, line: line)
    }

    @discardableResult
    func assertInvalid(
        _ instance: String, _ schemas: String, version: String = "3.1.0", path: String, schema: String, contains text: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [SchemaViolation] {
        let found = try violations(instance, schemas: schemas, version: version)
        XCTAssertTrue(
            found.contains { $0.instancePath == path && $0.schemaLocation == schema && $0.message.contains(text) },
            "expected a violation at $\(path) (\(schema)) containing \(text); got \(found)", file: file, line: line)
        return found
    }

    func testType() throws {
        let schemas =
            ##"{"S": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "ok": {"type": "boolean"}, "score": {"type": "number"}}}}"##
        try assertValid(##"{"id": 1, "name": "a", "ok": true, "score": 1.5}"##, schemas)
        try assertValid(##"{"id": 1.0}"##, schemas) // 1.0 is an integer in JSON Schema
        let found = try assertInvalid(
            ##"{"id": "1"}"##, schemas, path: ".id", schema: "#/components/schemas/S/properties/id/type",
            contains: "expected an integer, got a string \"1\"")
        XCTAssertEqual(
            found.first?.description, ##"$.id: expected an integer, got a string "1" (schema #/components/schemas/S/properties/id/type)"##)
        try assertInvalid(
            ##"{"score": "x"}"##, schemas, path: ".score", schema: "#/components/schemas/S/properties/score/type",
            contains: "expected a number")
        try assertInvalid(
            ##"{"id": 1.5}"##, schemas, path: ".id", schema: "#/components/schemas/S/properties/id/type",
            contains: "expected an integer, got a number 1.5")
        try assertInvalid(##"[]"##, schemas, path: "", schema: "#/components/schemas/S/type", contains: "expected an object, got an array")
    }

    func testNullableIn30AndTypeArraysIn31() throws {
        try assertValid("null", ##"{"S": {"type": "string", "nullable": true}}"##, version: "3.0.3")
        try assertInvalid(
            "null", ##"{"S": {"type": "string"}}"##, version: "3.0.3", path: "", schema: "#/components/schemas/S/type",
            contains: "expected a string, got null")
        try assertValid("null", ##"{"S": {"type": ["string", "null"]}}"##)
        try assertValid(##""a""##, ##"{"S": {"type": ["string", "null"]}}"##)
        try assertInvalid(
            "3", ##"{"S": {"type": ["string", "null"]}}"##, path: "", schema: "#/components/schemas/S/type",
            contains: "expected a string or null")
    }

    func testEnumAndConst() throws {
        try assertValid(##""show""##, ##"{"S": {"enum": ["show", "ask"]}}"##)
        try assertValid("1.0", ##"{"S": {"enum": [1, 2]}}"##)
        try assertInvalid(
            ##""design""##, ##"{"S": {"enum": ["show", "ask"]}}"##, path: "", schema: "#/components/schemas/S/enum",
            contains: ##"expected one of "show", "ask""##)
        try assertValid(##""v1""##, ##"{"S": {"const": "v1"}}"##)
        try assertInvalid(
            ##""v2""##, ##"{"S": {"const": "v1"}}"##, path: "", schema: "#/components/schemas/S/const", contains: ##"expected "v1""##)
    }

    func testRequiredPropertiesAndAdditionalProperties() throws {
        let schemas =
            ##"{"S": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}, "additionalProperties": false}}"##
        try assertValid(##"{"id": 1}"##, schemas)
        try assertInvalid(
            ##"{}"##, schemas, path: "", schema: "#/components/schemas/S/required", contains: ##"missing the required property "id""##)
        try assertInvalid(
            ##"{"id": 1, "extra": 2}"##, schemas, path: ".extra", schema: "#/components/schemas/S/additionalProperties",
            contains: ##"the property "extra" is not allowed"##)
        let typed = ##"{"S": {"type": "object", "additionalProperties": {"type": "string"}}}"##
        try assertValid(##"{"a": "x"}"##, typed)
        try assertInvalid(
            ##"{"a": 1}"##, typed, path: ".a", schema: "#/components/schemas/S/additionalProperties/type", contains: "expected a string")
    }

    func testPatternProperties() throws {
        let schemas = ##"{"S": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}}"##
        try assertValid(##"{"x-trace": "a"}"##, schemas)
        try assertInvalid(
            ##"{"x-trace": 1}"##, schemas, path: ".x-trace", schema: "#/components/schemas/S/patternProperties/^x-/type",
            contains: "expected a string")
        try assertInvalid(
            ##"{"trace": "a"}"##, schemas, path: ".trace", schema: "#/components/schemas/S/additionalProperties", contains: "not allowed")
    }

    func testNumbers() throws {
        try assertValid("5", ##"{"S": {"type": "integer", "minimum": 1, "maximum": 5}}"##)
        try assertInvalid(
            "0", ##"{"S": {"type": "integer", "minimum": 1}}"##, path: "", schema: "#/components/schemas/S/minimum",
            contains: "expected at least 1, got 0")
        try assertInvalid(
            "6", ##"{"S": {"type": "integer", "maximum": 5}}"##, path: "", schema: "#/components/schemas/S/maximum",
            contains: "expected at most 5")
        // 3.0: boolean exclusive bounds modify minimum/maximum.
        try assertInvalid(
            "1", ##"{"S": {"type": "integer", "minimum": 1, "exclusiveMinimum": true}}"##, version: "3.0.3", path: "",
            schema: "#/components/schemas/S/minimum", contains: "expected more than 1")
        try assertValid("2", ##"{"S": {"type": "integer", "minimum": 1, "exclusiveMinimum": true}}"##, version: "3.0.3")
        try assertInvalid(
            "5", ##"{"S": {"type": "integer", "maximum": 5, "exclusiveMaximum": true}}"##, version: "3.0.3", path: "",
            schema: "#/components/schemas/S/maximum", contains: "expected less than 5")
        // 3.1: numeric exclusive bounds.
        try assertInvalid(
            "1", ##"{"S": {"exclusiveMinimum": 1}}"##, path: "", schema: "#/components/schemas/S/exclusiveMinimum",
            contains: "expected more than 1")
        try assertInvalid(
            "5", ##"{"S": {"exclusiveMaximum": 5}}"##, path: "", schema: "#/components/schemas/S/exclusiveMaximum",
            contains: "expected less than 5")
        try assertValid("4.99", ##"{"S": {"exclusiveMaximum": 5}}"##)
        try assertValid("0.3", ##"{"S": {"multipleOf": 0.1}}"##)
        try assertValid("15", ##"{"S": {"multipleOf": 5}}"##)
        try assertInvalid(
            "7", ##"{"S": {"multipleOf": 5}}"##, path: "", schema: "#/components/schemas/S/multipleOf", contains: "expected a multiple of 5"
        )
    }

    func testIntegerFormats() throws {
        try assertValid("2147483647", ##"{"S": {"type": "integer", "format": "int32"}}"##)
        try assertInvalid(
            "2147483648", ##"{"S": {"type": "integer", "format": "int32"}}"##, path: "", schema: "#/components/schemas/S/format",
            contains: "expected an int32")
        try assertValid("9223372036854775807", ##"{"S": {"type": "integer", "format": "int64"}}"##)
        try assertInvalid(
            "9223372036854775808", ##"{"S": {"type": "integer", "format": "int64"}}"##, path: "", schema: "#/components/schemas/S/format",
            contains: "expected an int64")
    }

    func testStringLengthCountsUnicodeScalars() throws {
        try assertValid(##""héllo""##, ##"{"S": {"type": "string", "maxLength": 5}}"##)
        try assertValid(##""😀😀""##, ##"{"S": {"type": "string", "maxLength": 2, "minLength": 2}}"##)
        try assertInvalid(
            ##""abcdef""##, ##"{"S": {"type": "string", "maxLength": 5}}"##, path: "", schema: "#/components/schemas/S/maxLength",
            contains: "expected at most 5 characters, got 6")
        try assertInvalid(
            ##""""##, ##"{"S": {"type": "string", "minLength": 1}}"##, path: "", schema: "#/components/schemas/S/minLength",
            contains: "expected at least 1 characters, got 0")
    }

    func testPatternSearchesAndHasAStepBudget() throws {
        try assertValid(##""ab-123""##, ##"{"S": {"type": "string", "pattern": "[0-9]+"}}"##) // unanchored, as ECMA-262
        try assertInvalid(
            ##""abc""##, ##"{"S": {"type": "string", "pattern": "^[0-9]+$"}}"##, path: "", schema: "#/components/schemas/S/pattern",
            contains: "expected a string matching")
        let evil = String(repeating: "a", count: 40) + "!"
        try assertInvalid(
            "\"\(evil)\"", ##"{"S": {"type": "string", "pattern": "^(a+)+$"}}"##, path: "", schema: "#/components/schemas/S/pattern",
            contains: "step budget")
        try assertInvalid(
            ##""x""##, ##"{"S": {"type": "string", "pattern": "(unclosed"}}"##, path: "", schema: "#/components/schemas/S/pattern",
            contains: "cannot be used")
    }

    func testStringFormats() throws {
        let cases: [(format: String, good: [String], bad: [String])] = [
            (
                "date-time", ["2023-11-15T09:12:44Z", "2024-02-29T23:59:60.123+05:30", "2023-11-15t09:12:44z"],
                ["2023-11-15 09:12:44Z", "2023-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2023-11-15T09:12:44"]
            ),
            ("date", ["2024-02-29"], ["2023-02-29", "2024-2-29", "20240229"]),
            (
                "uuid", ["123e4567-e89b-12d3-a456-426614174000"],
                ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"]
            ),
            ("email", ["qa@example.com"], ["qa.example.com", "qa@", "a b@example.com"]),
            ("uri", ["https://example.com/a?b=c", "urn:isbn:0451450523"], ["/relative/path", "https://exa mple.com", "1http://x"]),
            ("ipv4", ["192.0.2.1"], ["256.0.0.1", "01.2.3.4", "1.2.3"]),
            (
                "ipv6", ["::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8"],
                ["1:2:3:4:5:6:7:8:9", "2001:db8:::1", "g::1"]
            ),
        ]
        for (format, good, bad) in cases {
            for value in good { try assertValid("\"\(value)\"", ##"{"S": {"type": "string", "format": "\##(format)"}}"##) }
            for value in bad {
                try assertInvalid(
                    "\"\(value)\"", ##"{"S": {"type": "string", "format": "\##(format)"}}"##, path: "",
                    schema: "#/components/schemas/S/format", contains: "in format \(format)")
            }
        }
        try assertValid(##""anything""##, ##"{"S": {"type": "string", "format": "made-up"}}"##) // unknown formats are annotations
    }

    func testArrays() throws {
        let schemas = ##"{"S": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3, "uniqueItems": true}}"##
        try assertValid("[1, 2, 3]", schemas)
        try assertInvalid(
            ##"[1, "2"]"##, schemas, path: "[1]", schema: "#/components/schemas/S/items/type", contains: "expected an integer")
        try assertInvalid("[]", schemas, path: "", schema: "#/components/schemas/S/minItems", contains: "expected at least 1 items")
        try assertInvalid(
            "[1, 2, 3, 4]", schemas, path: "", schema: "#/components/schemas/S/maxItems", contains: "expected at most 3 items")
        try assertInvalid("[1, 2, 1.0]", schemas, path: "[2]", schema: "#/components/schemas/S/uniqueItems", contains: "repeats item [0]")
        let tuple = ##"{"S": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}}"##
        try assertValid(##"["a", 1]"##, tuple)
        try assertInvalid(
            ##"[1, 1]"##, tuple, path: "[0]", schema: "#/components/schemas/S/prefixItems/0/type", contains: "expected a string")
        try assertInvalid(##"["a", 1, true]"##, tuple, path: "[2]", schema: "#/components/schemas/S/items", contains: "no value is allowed")
    }

    func testObjectSizes() throws {
        try assertInvalid(
            "{}", ##"{"S": {"type": "object", "minProperties": 1}}"##, path: "", schema: "#/components/schemas/S/minProperties",
            contains: "expected at least 1 properties")
        try assertInvalid(
            ##"{"a": 1, "b": 2}"##, ##"{"S": {"type": "object", "maxProperties": 1}}"##, path: "",
            schema: "#/components/schemas/S/maxProperties", contains: "expected at most 1 properties")
    }

    func testAllOfAnyOfOneOfNot() throws {
        let schemas = ##"""
            {"Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
             "Aged": {"type": "object", "required": ["age"], "properties": {"age": {"type": "integer"}}},
             "S": {"allOf": [{"$ref": "#/components/schemas/Named"}, {"$ref": "#/components/schemas/Aged"}]}}
            """##
        try assertValid(##"{"name": "a", "age": 3}"##, schemas)
        try assertInvalid(
            ##"{"name": "a"}"##, schemas, path: "", schema: "#/components/schemas/Aged/required",
            contains: ##"missing the required property "age""##)
        let any = ##"{"S": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}"##
        try assertValid("3", any)
        try assertInvalid(
            "true", any, path: "", schema: "#/components/schemas/S/anyOf", contains: "matches none of the 2 anyOf alternatives")
        let one = ##"{"S": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}"##
        try assertValid("1.5", one)
        try assertInvalid("1", one, path: "", schema: "#/components/schemas/S/oneOf", contains: "matches 2 oneOf alternatives")
        try assertInvalid(##""a""##, one, path: "", schema: "#/components/schemas/S/oneOf", contains: "matches none")
        try assertValid("1", ##"{"S": {"not": {"type": "string"}}}"##)
        try assertInvalid(
            ##""a""##, ##"{"S": {"not": {"type": "string"}}}"##, path: "", schema: "#/components/schemas/S/not", contains: "must not match")
    }

    func testDiscriminatorWithMappingAndImplicitNames() throws {
        let schemas = ##"""
            {"Cat": {"type": "object", "required": ["kind", "meows"], "properties": {"kind": {"type": "string"}, "meows": {"type": "boolean"}}},
             "Dog": {"type": "object", "required": ["kind", "barks"], "properties": {"kind": {"type": "string"}, "barks": {"type": "boolean"}}},
             "S": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                   "discriminator": {"propertyName": "kind", "mapping": {"kitty": "#/components/schemas/Cat"}}}}
            """##
        try assertValid(##"{"kind": "kitty", "meows": true}"##, schemas)
        try assertValid(##"{"kind": "Dog", "barks": true}"##, schemas) // implicit: the schema's name
        // Only the named alternative is checked, so the message is about Dog, not "none of oneOf".
        try assertInvalid(
            ##"{"kind": "Dog", "meows": true}"##, schemas, path: "", schema: "#/components/schemas/Dog/required",
            contains: ##"missing the required property "barks""##)
        try assertInvalid(
            ##"{"kind": "Bird"}"##, schemas, path: ".kind", schema: "#/components/schemas/S/discriminator",
            contains: ##""Bird" names no oneOf alternative"##)
        try assertInvalid(
            ##"{"meows": true}"##, schemas, path: "", schema: "#/components/schemas/S/discriminator",
            contains: ##"missing the discriminator property "kind""##)
    }

    func testReadOnlyAndWriteOnlyByDirection() throws {
        let schemas =
            ##"{"S": {"type": "object", "required": ["id", "password"], "properties": {"id": {"type": "integer", "readOnly": true}, "password": {"type": "string", "writeOnly": true}}}}"##
        XCTAssertEqual(try violations(##"{"password": "p"}"##, schemas: schemas, direction: .request), [])
        XCTAssertEqual(try violations(##"{"id": 1}"##, schemas: schemas, direction: .response), [])
        let sent = try violations(##"{"id": 1, "password": "p"}"##, schemas: schemas, direction: .request)
        XCTAssertEqual(sent.map(\.instancePath), [".id"])
        XCTAssertTrue(sent[0].message.contains("read-only property sent in a request"), "\(sent)")
        let leaked = try violations(##"{"id": 1, "password": "p"}"##, schemas: schemas, direction: .response)
        XCTAssertEqual(leaked.map(\.instancePath), [".password"])
    }

    func testRecursiveSchemasValidateAnyDepth() throws {
        let schemas =
            ##"{"S": {"type": "object", "required": ["body"], "properties": {"body": {"type": "string"}, "replies": {"type": "array", "items": {"$ref": "#/components/schemas/S"}}}}}"##
        try assertValid(##"{"body": "a", "replies": [{"body": "b", "replies": [{"body": "c"}]}]}"##, schemas)
        try assertInvalid(
            ##"{"body": "a", "replies": [{"body": "b", "replies": [{"body": 3}]}]}"##, schemas, path: ".replies[0].replies[0].body",
            schema: "#/components/schemas/S/properties/body/type", contains: "expected a string")
        // A schema that refers to itself without descending into the instance stops.
        try assertValid(##"{"a": 1}"##, ##"{"S": {"type": "object", "allOf": [{"$ref": "#/components/schemas/S"}]}}"##)
    }

    func testRefSiblingsIgnoredIn30AndAppliedIn31() throws {
        let schemas = ##"{"Base": {"type": "string"}, "S": {"$ref": "#/components/schemas/Base", "maxLength": 2}}"##
        try assertValid(##""abc""##, schemas, version: "3.0.3")
        try assertInvalid(
            ##""abc""##, schemas, version: "3.1.0", path: "", schema: "#/components/schemas/S/maxLength", contains: "expected at most 2")
    }

    func testPointerEscapesInRefs() throws {
        let schemas =
            ##"{"a/b": {"type": "integer"}, "c~d": {"type": "string"}, "S": {"type": "object", "properties": {"x": {"$ref": "#/components/schemas/a~1b"}, "y": {"$ref": "#/components/schemas/c~0d"}}}}"##
        try assertValid(##"{"x": 1, "y": "s"}"##, schemas)
        try assertInvalid(##"{"x": "1"}"##, schemas, path: ".x", schema: "#/components/schemas/a~1b/type", contains: "expected an integer")
        try assertInvalid(##"{"y": 1}"##, schemas, path: ".y", schema: "#/components/schemas/c~0d/type", contains: "expected a string")
    }

    func testUnknownTemplateValuesPass() throws {
        let text =
            ##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"S": {"type": "object", "properties": {"id": {"type": "integer"}, "at": {"type": "string", "format": "date-time"}}}}}}"##
        let api = try OpenAPILoader().load(bytes: Array(text.utf8), name: "api.json")
        let validator = SchemaValidator(api, unknownMarker: "\u{E000}")
        let schema = try XCTUnwrap(api.schema(named: "S"))
        XCTAssertEqual(validator.validate(["id": "\u{E000}", "at": "day \u{E000}"], against: schema), [])
        XCTAssertEqual(
            validator.validate(["id": "x\u{E000}"], against: schema).map(\.instancePath), [".id"],
            "a string around a placeholder is still a string")
    }
}
