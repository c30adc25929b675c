import RehearsalJSON
import XCTest
import YAML

/// The YAML reader on hand-written documents: what OpenAPI files use, and the errors people make.
final class YAMLReaderTests: XCTestCase {
    private func json(_ yaml: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        do {
            return try YAMLReader.json(from: yaml)
        } catch {
            XCTFail("unexpected failure: \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertJSON(_ yaml: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let value = json(yaml, file: file, line: line) else { return }
        XCTAssertEqual(value.compactText, expected, file: file, line: line)
    }

    private func assertFails(
        _ yaml: String, line expectedLine: Int, column expectedColumn: Int, containing fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let value = try YAMLReader.json(from: yaml)
            XCTFail("expected a failure, got \(value.compactText)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.position, SourcePosition(line: expectedLine, column: expectedColumn), "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "\(error.message) lacks \(fragment)", file: file, line: line)
        }
    }

    func testBlockMappingsAndSequencesIncludingCompactNestedEntries() {
        assertJSON(
            """
            openapi: 3.0.3
            tags:
              - name: pets
                description: Everything about pets
              - name: store
            paths:
              /pets:
                get:
                  parameters:
                  - name: limit
                    in: query
                    required: false
            """,
            #"{"openapi":"3.0.3","tags":[{"name":"pets","description":"Everything about pets"},{"name":"store"}],"paths":{"/pets":{"get":{"parameters":[{"name":"limit","in":"query","required":false}]}}}}"#
        )
        assertJSON("- - a\n  - b\n- c\n", #"[["a","b"],"c"]"#)
    }

    func testFlowCollectionsSpanningLines() {
        assertJSON(
            """
            enum: [available,
                   pending, sold]
            example: {id: 1, "name": doggie,
              tags: [ ], extra: {}}
            """,
            #"{"enum":["available","pending","sold"],"example":{"id":1,"name":"doggie","tags":[],"extra":{}}}"#)
        assertJSON(#"{"a":1,"b":[true,null]}"#, #"{"a":1,"b":[true,null]}"#)
        assertJSON("[a: 1, b]", #"[{"a":1},"b"]"#)
    }

    func testPlainScalarsFoldAcrossLines() {
        assertJSON("description: This is\n  a long\n\n  description  \n", #"{"description":"This is a long\ndescription"}"#)
        assertJSON("url: http://x.io/a#frag # comment\n", #"{"url":"http://x.io/a#frag"}"#)
        assertJSON("time: 12:30\n", #"{"time":"12:30"}"#)
    }

    func testQuotedScalarsWithEscapesAndFolding() {
        assertJSON(#"a: 'it''s'"#, #"{"a":"it's"}"#)
        assertJSON(#"a: "tab\tnl\nq\"bs\\sl\/x\x41u\u00e9U\U0001F600""#, "{\"a\":\"tab\\tnl\\nq\\\"bs\\\\sl/xAu\u{e9}U\u{1F600}\"}")
        assertJSON("a: \"one\n  two\n\n  three \\\n  four\"\n", #"{"a":"one two\nthree four"}"#)
        assertJSON("a: 'one\n  two'\n", #"{"a":"one two"}"#)
    }

    func testBlockScalarsWithChompingAndIndentationIndicators() {
        assertJSON("a: |\n  line 1\n   line 2\n\nb: x\n", #"{"a":"line 1\n line 2\n","b":"x"}"#)
        assertJSON("a: |-\n  text\n\n", #"{"a":"text"}"#)
        assertJSON("a: |+\n  text\n\n\nb: 1\n", #"{"a":"text\n\n\n","b":1}"#)
        assertJSON("a: >\n  folded\n  text\n\n  para\n    more\n", #"{"a":"folded text\npara\n  more\n"}"#)
        assertJSON("a: |2\n    indented\n  base\n", #"{"a":"  indented\nbase\n"}"#)
        assertJSON("a: >-\n  x # not a comment\n# a comment\n", #"{"a":"x # not a comment"}"#)
    }

    func testDocumentsDirectivesAndComments() throws {
        let documents = try YAMLReader.parseStream("%YAML 1.2\n%TAG !e! tag:example.com,2000:\n--- # one\na: 1\n...\n---\n- b\n")
        XCTAssertEqual(documents.count, 2)
        XCTAssertEqual(try documents[1].jsonValue().compactText, #"["b"]"#)
        assertJSON("# only a comment\n---\nx\n...\n", #""x""#)
    }

    func testAnchorsAliasesAndMergeLikeReuse() {
        assertJSON(
            "defs:\n  pet: &pet {type: object}\nuse:\n  - *pet\n  - *pet\n",
            #"{"defs":{"pet":{"type":"object"}},"use":[{"type":"object"},{"type":"object"}]}"#)
    }

    func testTagsAndTheCoreSchema() {
        assertJSON(
            "a: ~\nb: null\nc: TRUE\nd: 0x1F\ne: 0o17\nf: +12\ng: 1.5e3\nh: .5\ni: 1.\nj: !!str 12\nk: !!float 3\nl: 012\nm: yes\nn: !local x\no: !!int '7'\n",
            #"{"a":null,"b":null,"c":true,"d":31,"e":15,"f":12,"g":1.5e3,"h":0.5,"i":1.0,"j":"12","k":3.0,"l":12,"m":"yes","n":"x","o":7}"#)
        assertJSON("big: 0xFFFFFFFFFFFFFFFFFF\n", #"{"big":4722366482869645213695}"#)
    }

    func testExplicitKeysAndNonStringKeysBecomeCanonicalText() {
        assertJSON("responses:\n  200: {description: OK}\n  default: {}\n", #"{"responses":{"200":{"description":"OK"},"default":{}}}"#)
        assertJSON("? complex\n: value\n? true\n: 1\n", #"{"complex":"value","true":1}"#)
    }

    func testNodesKnowTheirLineColumnAndOffset() throws {
        let root = try YAMLReader.parse("paths:\n  /pets:\n    get: {summary: x}\n")
        let get = try XCTUnwrap(root["paths"]?["/pets"]?["get"])
        XCTAssertEqual(get.mark.position, SourcePosition(line: 3, column: 10))
        XCTAssertEqual(get.mark.offset, 25)
        XCTAssertEqual(root["paths"]?["/pets"]?["get"]?["summary"]?.mark.position, SourcePosition(line: 3, column: 20))
    }

    // MARK: Errors

    func testMissingColonAfterKeyNamesTheKey() {
        assertFails("a: 1\nb: 2\nc\nd: 4\n", line: 3, column: 1, containing: "expected ':' after the mapping key at line 3, column 1")
        assertFails("paths:\n  /pets:\n    get\n    post: {}\n", line: 4, column: 9, containing: "a mapping key must be on one line")
    }

    func testTabsCannotIndent() {
        assertFails("a:\n\tb: 1\n", line: 2, column: 1, containing: "tab characters cannot indent")
    }

    func testUndefinedAliasIsNamed() {
        assertFails("a: *x\n", line: 1, column: 4, containing: "found undefined alias 'x'")
    }

    func testUnclosedFlowAndQuotes() {
        assertFails("a: [1, 2\n", line: 2, column: 1, containing: "not closed")
        assertFails("a: \"open\n", line: 2, column: 1, containing: "not closed")
        assertFails("a: {x: 1 y: 2}\n", line: 1, column: 11, containing: "expected ',' or '}'")
    }

    func testBadEscapeAndBadIndentation() {
        assertFails(#"a: "\q""#, line: 1, column: 5, containing: "unknown escape")
        assertFails("a:\n  b: 1\n c: 2\n", line: 3, column: 2, containing: "indented differently")
    }

    func testDuplicateKeysAreAnErrorForJSON() {
        assertFails("a: 1\nb: 2\na: 3\n", line: 3, column: 1, containing: "duplicate key 'a' (first at line 1, column 1)")
        assertFails("200: x\n'200': y\n", line: 2, column: 1, containing: "duplicate key '200'")
    }

    func testInfinityAndNaNCannotBecomeJSON() {
        assertFails("max: .inf\n", line: 1, column: 6, containing: "infinite")
        assertFails("x: [1, .nan]\n", line: 1, column: 8, containing: "not a number")
        assertJSON("x: '.inf'\n", #"{"x":".inf"}"#)
    }

    func testCollectionKeysCannotBecomeJSON() {
        assertFails("? [a, b]\n: c\n", line: 1, column: 3, containing: "cannot become a JSON object key")
    }

    func testMismatchedCoreTag() {
        assertFails("a: !!int abc\n", line: 1, column: 4, containing: "tagged !!int")
    }

    func testAliasExpansionIsCapped() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            yaml += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        do {
            _ = try YAMLReader.parse(yaml)
            XCTFail("a billion laughs must be refused")
        } catch {
            XCTAssertTrue(error.message.contains("once its aliases are expanded"), error.message)
            XCTAssertGreaterThan(error.line, 1)
        }
    }

    func testNestingDepthAndInputSizeAreBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try YAMLReader.parse(deep)) { error in
            XCTAssertTrue((error as? YAMLSyntaxError)?.message.contains("nesting is deeper") == true, "\(error)")
        }
        var block = ""
        for level in 0..<1_000 { block += String(repeating: " ", count: level) + "k:\n" }
        XCTAssertThrowsError(try YAMLReader.parse(block))
        XCTAssertThrowsError(try YAMLReader.parse("a: 1\n", limits: YAMLLimits(maximumBytes: 3))) { error in
            XCTAssertTrue("\(error)".contains("more than the 3 bytes allowed"), "\(error)")
        }
    }

    func testInvalidUTF8AndControlCharactersAreRefused() {
        XCTAssertThrowsError(try YAMLReader.parse([0x61, 0x3A, 0x20, 0xFF])) { error in
            XCTAssertEqual((error as? YAMLSyntaxError)?.position, SourcePosition(line: 1, column: 4))
        }
        assertFails("a: b\u{01}\n", line: 1, column: 5, containing: "control character 0x1")
    }
}
