import Foundation
import XCTest

@testable import StubServer

final class TemplateRenderingTests: XCTestCase {
    /// Renders `template` as a response text for one request.
    private func render(
        _ template: String, vars: String = "", uri: String = "\"/t\"", method: String = "POST", target: String = "/t",
        headers: [(String, String)] = [], body: String = "", version: HTTPVersion = .http1_1
    ) throws -> RoutedResponse {
        var templateJSON = ""
        JSONWriter.writeString(template, into: &templateJSON)
        let value = vars.isEmpty ? templateJSON : #"{"with": \#(templateJSON), "vars": \#(vars)}"#
        let router = try ConfigFixture().router(#"[{"request": {"uri": \#(uri)}, "response": {"text": {"template": \#(value)}}}]"#)
        return router.answer(method, target, headers: headers, body: body, version: version, remoteAddress: "127.0.0.1", remotePort: 54_321)
    }

    func testRequestFields() throws {
        let response = try render(
            "${req.method} ${req.uri} ${req.version} [${req.content}] ${req.headers['X-Trace']} ${req.queries['page']} ${req.cookies['sid']} ${req.client.address}:${req.client.port}",
            target: "/t?page=2&page=3", headers: [("X-Trace", "abc"), ("Cookie", "sid=42; theme=dark")], body: "hello", version: .http1_0)
        XCTAssertEqual(response.text, "POST /t HTTP/1.0 [hello] abc 2 42 127.0.0.1:54321")
        XCTAssertFalse(response.wasPrepared)
    }

    func testFormsJSONAndPathCaptures() throws {
        let forms = try render(
            "${req.forms['name']} / ${req.forms.city}", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "name=N%C3%A9o+A&city=Z")
        XCTAssertEqual(forms.text, "Néo A / Z")
        let json = try render(
            "${req.json.user.name} has ${req.json.items[1].qty} of ${req.json.items[1].sku}, pi ${req.json.pi}",
            body: #"{"user": {"name": "Ann"}, "items": [{"sku": "A", "qty": 1}, {"sku": "B", "qty": 12}], "pi": 3.14159}"#)
        XCTAssertEqual(json.text, "Ann has 12 of B, pi 3.1", "numbers use moco's #.# format")
        let path = try render(
            "story ${req.path.id} comment ${req.path['comment']}", uri: #"{"path": "/stories/{id}/comments/{comment}"}"#, method: "GET",
            target: "/stories/42/comments/7")
        XCTAssertEqual(path.text, "story 42 comment 7")
    }

    func testDefaultsAndMissingValues() throws {
        XCTAssertEqual(try render("page ${req.queries['page']!'1'}").text, "page 1")
        XCTAssertEqual(try render("[${req.queries['page']!}]").text, "[]")
        XCTAssertEqual(try render("${req.json.name!\"anonymous\"}", body: "not json").text, "anonymous")
        let missing = try render("page ${req.queries['page']}")
        XCTAssertEqual(missing.status, 400)
        XCTAssertEqual(missing.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(
            missing.text,
            "stubserver: stubs.json#0 could not build its response: template \"page ${req.queries['page']}\": req.queries['page'] is missing\n"
        )
        let notJSON = try render("${req.json.a}", body: "<xml/>")
        XCTAssertEqual(notJSON.status, 400)
        XCTAssertTrue(notJSON.text.contains("req.json: the request body is not JSON"), notJSON.text)
        let object = try render("${req.json.user}", body: #"{"user": {"a": 1}}"#)
        XCTAssertTrue(object.text.contains("req.json.user is an object; pick one of its values"), object.text)
    }

    func testHeaderLookupIgnoresCase() throws {
        XCTAssertEqual(try render("${req.headers['x-trace']}", headers: [("X-Trace", "abc")]).text, "abc")
    }

    func testNowUsesJavaStylePatterns() throws {
        let text = try render("${now('yyyy-MM-dd')}|${now(\"HH:mm\")}").text
        let parts = text.split(separator: "|")
        XCTAssertEqual(parts.count, 2)
        XCTAssertNotNil(parts[0].range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression), text)
        XCTAssertNotNil(parts[1].range(of: #"^\d{2}:\d{2}$"#, options: .regularExpression), text)
    }

    func testRandomRespectsRangesAndFormats() throws {
        for _ in 0..<50 {
            let values = try render("${random()} ${random(100)} ${random(5, 10)} ${random(100, '###.##')} ${random('#.000')}").text.split(
                separator: " ")
            XCTAssertEqual(values.count, 5)
            let plain = try XCTUnwrap(Double(values[0]))
            XCTAssertTrue((0...1).contains(plain), "\(plain)")
            let hundred = try XCTUnwrap(Double(values[1]))
            XCTAssertTrue((0...100).contains(hundred))
            let ranged = try XCTUnwrap(Double(values[2]))
            XCTAssertTrue((5...10).contains(ranged))
            // '###.##' prints at most two fraction digits, and none for a whole number ("100").
            let formatted = values[3].split(separator: ".", omittingEmptySubsequences: false)
            XCTAssertTrue(formatted.count == 1 || (formatted.count == 2 && (1...2).contains(formatted[1].count)), String(values[3]))
            XCTAssertNotNil(values[4].range(of: #"^[01]?\.\d{3}$"#, options: .regularExpression), String(values[4]))
        }
        XCTAssertTrue(try render("${random(10, 5)}").text.contains("random's end must be greater than its start"))
    }

    func testVariablesLiteralAndExtracted() throws {
        let response = try render(
            "${site}: ${user} ${agent[0]} ${page[0]} ${skus[1]}",
            vars:
                #"{"site": "DN", "user": {"json_path": "$.user.name"}, "agent": {"header": "User-Agent"}, "page": {"queries": "page"}, "skus": {"json_path": "$.items[*].sku"}}"#,
            target: "/t?page=4", headers: [("User-Agent", "tests")],
            body: #"{"user": {"name": "Ann"}, "items": [{"sku": "A"}, {"sku": "B"}]}"#)
        XCTAssertEqual(response.text, "DN: Ann tests 4 B")
    }

    /// Issue 26, point 12: a list-valued extractor used as a scalar used to pass `validate` and then
    /// fail every request with "is a list"; a static template is now refused at load time.
    func testAListExtractorUsedAsAScalarFailsAtLoadTime() throws {
        let fixture = try ConfigFixture()
        let cases: [(String, String, String)] = [
            (
                "${agent}", #"{"header": "User-Agent"}"#,
                "template error at character 1: 'agent' is a list (a header extractor gives every value it finds), so ${agent} would fail on every request; pick one value: ${agent[0]}"
            ),
            (
                "id ${agent!'none'}", #"{"query": "id"}"#,
                "template error at character 4: 'agent' is a list (a query extractor gives every value it finds), so ${agent!'none'} would fail on every request; pick one value: ${agent[0]}"
            ),
            (
                "${agent}", #"{"json_path": "$.items[*].sku"}"#,
                "template error at character 1: 'agent' is a list (a JSONPath that can select several values gives every value it finds), so ${agent} would fail on every request; pick one value: ${agent[0]}"
            ),
        ]
        for (template, extractor, message) in cases {
            var json = ""
            JSONWriter.writeString(template, into: &json)
            try fixture.write("t.json", #"[{"response": {"text": {"template": {"with": \#(json), "vars": {"agent": \#(extractor)}}}}}]"#)
            XCTAssertEqual(fixture.diagnostics("t.json").first?.message, message, template)
        }
        // Picking one value, or a JSONPath that selects one, loads and renders.
        let picked = try render(
            "${agent[0]} ${name}", vars: #"{"agent": {"header": "User-Agent"}, "name": {"json_path": "$.user.name"}}"#,
            headers: [("User-Agent", "x")], body: #"{"user": {"name": "Ann"}}"#)
        XCTAssertEqual(picked.text, "x Ann")
    }

    func testXMLBodies() throws {
        let response = try render(
            "${req.xml.id} ${req.xml.lines.line[1]}", body: "<order><id>7</id><lines><line>a</line><line>b</line></lines></order>")
        XCTAssertEqual(response.text, "7 b")
    }

    func testSyntaxErrorsFailAtLoadTime() throws {
        let fixture = try ConfigFixture()
        let cases: [(String, String)] = [
            ("${req.method", "template error at character 1: '${' is never closed with '}'"),
            ("${unknown}", "template error at character 1: unknown variable 'unknown'"),
            (
                "${req.queries['a'] + 1}",
                "template error at character 20: operator '+' is not supported; write two ${…} next to each other instead"
            ),
            ("${now()}", "template error at character 1: now needs one argument, a date format such as now('yyyy-MM-dd')"),
            ("${req.method?lower_case}", "template error at character 13: FreeMarker built-ins ('?…') are not supported"),
            ("${shout('x')}", "template error at character 1: unknown function 'shout'; the functions are now(…) and random(…)"),
        ]
        for (template, message) in cases {
            var json = ""
            JSONWriter.writeString(template, into: &json)
            try fixture.write("t.json", #"[{"response": {"text": {"template": \#(json)}}}]"#)
            XCTAssertEqual(fixture.diagnostics("t.json").first?.message, message, template)
        }
        try fixture.write("v.json", #"[{"response": {"text": {"template": {"with": "${req}", "vars": {"req": "x"}}}}}]"#)
        XCTAssertEqual(fixture.diagnostics("v.json").first?.message, #""req" is reserved (req, now and random are built in)"#)
    }

    func testDecimalPatternFormatting() {
        XCTAssertEqual(DecimalPattern("#.#").format(3.14159), "3.1")
        XCTAssertEqual(DecimalPattern("#.#").format(2.0), "2")
        XCTAssertEqual(DecimalPattern("#.#").format(0.25), "0.2", "half-even, and one integer digit, as Java's DecimalFormat")
        XCTAssertEqual(DecimalPattern("#.##").format(0.16), "0.16", "Java's applyPattern turns '#.##' into '0.##'")
        XCTAssertEqual(DecimalPattern(".##").format(0.16), ".16", "no integer digits written: none shown")
        XCTAssertEqual(DecimalPattern("###.##").format(12.345678), "12.35")
        XCTAssertEqual(DecimalPattern("0.000").format(1.5), "1.500")
        XCTAssertEqual(DecimalPattern("#,###").format(1234567), "1,234,567")
        XCTAssertEqual(DecimalPattern("#.###").format(0.5), "0.5")
        XCTAssertEqual(DecimalPattern("#.##").format(-2.005), "-2")
    }
}
