import XCTest

@testable import StubServer

final class ConfigDiagnosticsTests: XCTestCase {
    func testUnknownKeyNamesFileJSONPathAndSuggestion() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "Stubs/login_conf.json",
            """
            [
              {
                "request": { "metod": "POST", "uri": "/oauth/token" },
                "response": { "text": "ok" }
              }
            ]
            """)
        let diagnostics = fixture.diagnostics("Stubs/login_conf.json")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.file, "Stubs/login_conf.json")
        XCTAssertEqual(diagnostics.first?.path, "[0].request.metod")
        XCTAssertEqual(diagnostics.first?.position, SourcePosition(line: 3, column: 18))
        XCTAssertEqual(
            diagnostics.first?.description,
            #"Stubs/login_conf.json: [0].request.metod: unknown key; did you mean "method"? (line 3, column 18)"#)
    }

    func testReportsEveryProblemInEveryFileNotJustTheFirst() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "a.json",
            """
            [
              {"request": {"uri": "/a"}, "response": {"txt": "x"}},
              {"request": {"uri": "/b"}, "response": {"status": true}},
              {"request": {"uri": {"match": "("}}, "response": {"text": "x"}},
              {"request": {"uri": "/d"}, "response": {"text": {"template": "${req.metod}"}}},
              {"request": {"uri": "/e", "queries": {"q": {"starts_with": "x"}}}, "response": {"text": "x"}}
            ]
            """)
        try fixture.write("b.json", #"[{"response": {"latency": {"duration": 1, "unit": "fortnight"}}}]"#)
        try fixture.write("settings.json", #"[{"include": "a.json"}, {"include": "b.json"}]"#)
        let diagnostics = fixture.diagnostics("settings.json").map(\.description)
        XCTAssertEqual(
            diagnostics,
            [
                #"a.json: [0].response.txt: unknown key; did you mean "text"? (line 2, column 43)"#,
                "a.json: [1].response.status: expected a number or numeric string, got true (line 3, column 53)",
                #"a.json: [2].request.uri: invalid regular expression "(" (line 4, column 23)"#,
                "a.json: [3].response.text.template: template error at character 1: req has no 'metod'; did you mean \"method\"? (line 5, column 64)",
                #"a.json: [4].request.queries.q.starts_with: unknown operator; did you mean "startsWith"?; operators: match, startsWith, endsWith, contain, exist, path (line 6, column 47)"#,
                #"b.json: [0].response.latency.unit: unknown unit "fortnight"; units: nanosecond, microsecond, millisecond, second, minute, hour, day (line 1, column 51)"#,
            ])
    }

    /// `json_paths` and `xpaths` keys are expressions: one that does not compile is a load error at
    /// its own key, and the matchers of the other keys still compile (one report for all of them).
    func testMalformedJSONPathAndXPathKeysAreNamedAtTheirKey() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "paths.json",
            """
            [
              {"request": {"uri": "/j", "json_paths": {"$.ok": "1", "$.[": "2"}, "headers": {"X-A": {"match": "("}}}, "response": {"text": "j"}},
              {"request": {"uri": "/x", "xpaths": {"/a/b": "1", "/a[": "2"}}, "response": {"text": "x"}}
            ]
            """)
        XCTAssertEqual(
            fixture.diagnostics("paths.json").map(\.description),
            [
                #"paths.json: [0].request.json_paths["$.["]: invalid JSONPath at character 3: expected a name (line 2, column 64)"#,
                #"paths.json: [0].request.headers.X-A: invalid regular expression "(" (line 2, column 89)"#,
                #"paths.json: [1].request.xpaths["/a["]: '[' without ']' in XPath "/a[" (line 3, column 60)"#,
            ])
    }

    func testMalformedJSONNamesLineAndColumn() throws {
        let fixture = try ConfigFixture()
        try fixture.write("broken.json", "[\n  {\"response\": {\"text\": \"a\"}}\n  {\"response\": {\"text\": \"b\"}}\n]\n")
        let diagnostics = fixture.diagnostics("broken.json")
        XCTAssertEqual(
            diagnostics.map(\.description),
            ["broken.json: malformed JSON: expected ',' or ']' after an array element, got '{' (line 3, column 3)"])
    }

    func testShapesThatAreNotSessionsGetClearMessages() throws {
        let fixture = try ConfigFixture()
        try fixture.write("object.json", #"{"request": {"uri": "/"}, "response": {"text": "x"}}"#)
        XCTAssertEqual(
            fixture.diagnostics("object.json").first?.message,
            #"expected an array of sessions like [{"request": …, "response": …}], got an object; wrap it in [ … ]"#)

        try fixture.write(
            "shapes.json",
            """
            [
              "hello",
              {"request": {"uri": "/x"}},
              {"redirectTo": "/y"},
              {"request": {"uri": "/z"}, "response": {"text": "a"}, "redirectTo": "/w"},
              {"context": "/api"},
              {"request": {"uri": "/p"}, "response": {"text": "a", "file": "b.txt"}},
              {"request": {"uri": "/q", "method": {"match": "GET", "contain": "E"}}, "response": {"text": "a"}},
              {"request": {"headers": {"X": {"path": "/a"}}}, "response": {"text": "a"}},
              {"request": {"uri": "/r"}, "response": {"seq": []}},
              {"mount": {"dir": "www"}},
              {"request": {"uri": "/s"}, "response": {"cookies": {"bad name": "v"}}},
              {"request": {"uri": "/t"}, "response": {"headers": {"X-A": "1\\r\\nInjected: yes"}}},
              {"request": {"uri": "/u", "text": {"exist": "maybe"}}, "response": {"text": "a"}}
            ]
            """)
        let messages = fixture.diagnostics("shapes.json").map { "\($0.path): \($0.message)" }
        XCTAssertEqual(
            messages,
            [
                "[0]: expected an object (a session or a settings entry), got \"hello\"",
                "[1]: a session needs \"response\" (or \"request\" with \"redirectTo\")",
                "[2].redirectTo: redirectTo needs a \"request\" to match",
                "[3]: a session has either \"response\" or \"redirectTo\", not both",
                "[4]: a settings entry needs \"include\" (the file or glob its context, file_root, env, request and response apply to)",
                "[5].response: a response has one body; found \"text\" and \"file\"",
                "[6].request.method: expected a string or one operator such as {\"match\": \"…\"}; operators: match, startsWith, endsWith, contain, exist, path",
                "[7].request.headers.X.path: the path operator applies to uri only",
                "[8].response.seq: expected at least one response",
                "[9].mount: a mount needs \"dir\" (the directory) and \"uri\" (where it is served), e.g. {\"dir\": \"www\", \"uri\": \"/static\"}",
                "[10].response.cookies[\"bad name\"]: the cookie name \"bad name\" contains \" \", which a cookie name cannot",
                "[11].response.headers.X-A: a header value cannot contain a CR (\\r) (it would split the response head)",
                "[12].request.text.exist: expected true or false, got \"maybe\"",
            ])
    }

    func testMissingIncludeIsReportedWhereItWasWritten() throws {
        let fixture = try ConfigFixture()
        try fixture.write("Stubs/settings.json", "[\n  {\"include\": \"missing.json\"},\n  {\"include\": \"none-*.json\"}\n]")
        let diagnostics = fixture.diagnostics("Stubs/settings.json")
        XCTAssertEqual(
            diagnostics.map(\.description),
            [
                #"Stubs/settings.json: [0].include: cannot read "missing.json": no such file (looked in Stubs and the working directory) (line 2, column 15)"#,
                #"Stubs/settings.json: [1].include: no file matches "none-*.json" (line 3, column 15)"#,
            ])
    }

    func testMissingTopLevelFileAndEmptyGlob() throws {
        let fixture = try ConfigFixture()
        XCTAssertEqual(
            fixture.diagnostics("nope.json").map(\.description),
            [
                #"nope.json: cannot read "nope.json": no such file"#
                    + " (looked for \(fixture.root)/nope.json; working directory \(fixture.root))"
            ])
        XCTAssertEqual(fixture.diagnostics("conf/*.json").first?.message, "no file matches this pattern (relative to \(fixture.root))")
    }

    func testSwiftBuiltStubsReportTheirIndex() {
        XCTAssertThrowsError(
            try Router(stubs: [
                StubDefinition(request: .get("/ok"), response: .text("fine")),
                StubDefinition(request: RequestPattern(uri: .match("[")), response: .status(700)),
            ])
        ) { error in
            XCTAssertEqual(
                (error as? ConfigError)?.description,
                """
                stubs: [1].request.uri: invalid regular expression "["
                stubs: [1].response.status: expected a status code from 100 to 599, got 700
                """)
        }
    }

    func testSuggestionsUseEditDistance() {
        XCTAssertEqual(Suggestion.closest(to: "metod", among: StubDecoder.requestKeys), "method")
        XCTAssertEqual(Suggestion.closest(to: "qeuries", among: StubDecoder.requestKeys), "queries")
        XCTAssertEqual(Suggestion.closest(to: "Headers", among: StubDecoder.requestKeys), "headers")
        XCTAssertNil(Suggestion.closest(to: "banana", among: StubDecoder.requestKeys))
        XCTAssertEqual(Suggestion.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggestion.editDistance("ab", "ba"), 1)
    }
}
