import Foundation
import OpenAPI
import StubServer
import StubServerTestSupport
import XCTest

/// `stubserver check` on copies of the sample's stubs (Stubs/): the unmodified sample passes,
/// and each kind of drift introduced into a copy fails with its file, JSON path, line and column.
final class ContractCheckTests: XCTestCase {
    var folder = ""
    /// The sample's stub that answers a malformed story on purpose (an error-handling spec).
    let deliberate = ["worlds_conf.json#4"]

    static var sampleStubs: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Stubs")
    }

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "contract-check-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: Self.sampleStubs.path, toPath: folder)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func check(expecting expected: [String]? = nil) throws -> ContractReport {
        let api = try OpenAPILoader(workingDirectory: folder).load("openapi.yaml")
        return try ContractCheck.run(api: api, settings: "settings.json", expectingDrift: expected ?? deliberate, workingDirectory: folder)
    }

    /// Replaces `old` (which must occur once) in a copied file; returns the line it is on.
    @discardableResult
    func edit(_ file: String, _ old: String, _ new: String, occurrence: Int = 0) throws -> Int {
        let path = folder + "/" + file
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let ranges = text.ranges(of: old)
        XCTAssertGreaterThan(ranges.count, occurrence, "\(old) not in \(file)")
        let range = ranges[occurrence]
        let line = text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
        text.replaceSubrange(range, with: new)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return line
    }

    func assertDrift(
        _ report: ContractReport, file: String, path: String, line: Int, contains text: String,
        sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        let found = report.drift.first { $0.file == file && $0.path == path && $0.message.contains(text) }
        XCTAssertNotNil(
            found, "expected drift in \(file) at \(path) containing \(text); got:\n\(report.text(strict: false))", file: sourceFile,
            line: sourceLine)
        XCTAssertEqual(found?.position?.line, line, "the line of \(path)", file: sourceFile, line: sourceLine)
        XCTAssertNotNil(found?.position?.column, file: sourceFile, line: sourceLine)
        XCTAssertTrue(report.fails(strict: false), file: sourceFile, line: sourceLine)
    }

    func testTheUnmodifiedSamplePasses() throws {
        let report = try check()
        XCTAssertEqual(report.drift, [], report.text(strict: false))
        XCTAssertEqual(report.warnings, [], report.text(strict: false))
        XCTAssertFalse(report.fails(strict: true))
        XCTAssertEqual(report.stubsChecked, 31)
        XCTAssertEqual(report.coverage.filter(\.stubs.isEmpty).map(\.path), [], "every operation of the sample has a stub")
        // The deliberate one is reported, as a note, where it breaks the schema.
        let note = try XCTUnwrap(report.notes.first { $0.stub == "worlds_conf.json#4" })
        XCTAssertEqual(note.path, "[4].response.json.stories[0].vote_count")
        XCTAssertTrue(note.message.contains(#"expected an integer, got a string "118""#), note.message)
    }

    func testDriftAStubIsExpectedToHaveIsDriftWithoutTheList() throws {
        let report = try check(expecting: [])
        assertDrift(
            report, file: "worlds_conf.json", path: "[4].response.json.stories[0].vote_count", line: 71,
            contains: "(schema #/components/schemas/Story/properties/vote_count/type)")
    }

    func testUnknownPath() throws {
        let line = try edit("stories_conf.json", #""uri": "/api/v1/stories/101""#, #""uri": "/api/v1/storys/101""#)
        assertDrift(
            try check(), file: "stories_conf.json", path: "[1].request.uri", line: line,
            contains: "unknown path: no operation of the API matches \"/api/v1/storys/101\"")
    }

    func testWrongMethod() throws {
        let line = try edit("account_conf.json", #""method": "GET""#, #""method": "DELETE""#)
        assertDrift(
            try check(), file: "account_conf.json", path: "[2].request.method", line: line,
            contains: "wrong method: /api/v1/me has no operation for \"DELETE\" (the API has GET)")
    }

    func testUndeclaredQueryParameter() throws {
        let line = try edit("pages_conf.json", #""page": "2""#, #""pages": "2""#)
        assertDrift(
            try check(), file: "pages_conf.json", path: "[0].request.queries.pages", line: line,
            contains: "undeclared query parameter \"pages\": GET /api/v1/stories declares client_id, page")
    }

    func testQueryValueOfTheWrongType() throws {
        let line = try edit("pages_conf.json", #""page": "2""#, #""page": "two""#)
        assertDrift(
            try check(), file: "pages_conf.json", path: "[0].request.queries.page", line: line,
            contains: "expected an integer, got a string \"two\"")
    }

    func testMissingRequiredFieldInAResponseFile() throws {
        try edit("me.json", #""display_name": "QA Reader","#, "")
        // Reported at the stub's `file`, naming the body file and the place in it.
        let report = try check()
        let line =
            try String(contentsOfFile: folder + "/account_conf.json", encoding: .utf8).components(separatedBy: "\n").firstIndex {
                $0.contains(#""file": "me.json""#)
            }! + 1
        assertDrift(
            report, file: "account_conf.json", path: "[2].response.file", line: line,
            contains:
                #"me.json $.user (me.json line 2, column 11): missing the required property "display_name" (schema #/components/schemas/User/required)"#
        )
    }

    func testWrongTypeInAnInlineJSONBody() throws {
        let line = try edit("comments_conf.json", #""json": { "comments": [] }"#, #""json": { "comments": {} }"#)
        assertDrift(
            try check(), file: "comments_conf.json", path: "[2].response.json.comments", line: line,
            contains: "expected an array, got an object")
    }

    func testUndeclaredStatus() throws {
        let line = try edit("stories_conf.json", #""status": 404"#, #""status": 410"#)
        assertDrift(
            try check(), file: "stories_conf.json", path: "[11].response.status", line: line,
            contains: "undeclared status 410: GET /api/v1/stories/{id} declares 200, 404, 5XX")
    }

    func testPathVariableOfTheWrongType() throws {
        let line = try edit("comments_conf.json", #""uri": "/api/v1/stories/101/comments""#, #""uri": "/api/v1/stories/one/comments""#)
        assertDrift(
            try check(), file: "comments_conf.json", path: "[0].request.uri", line: line,
            contains: "path variable {id} of GET /api/v1/stories/{id}/comments = \"one\": expected an integer")
    }

    func testUndeclaredFormField() throws {
        let line = try edit("login_conf.json", #""grant_type": "password""#, #""grant": "password""#)
        assertDrift(
            try check(), file: "login_conf.json", path: "[0].request.forms.grant", line: line, contains: "undeclared form field \"grant\"")
    }

    func testTemplatesAreCheckedWithPlaceholdersStandingForUnknownValues() throws {
        // `story_id` comes from `${req.path.id}` (unknown but fine); `user_id` is now a string.
        let line = try edit("account_conf.json", #"\"user_id\": 4711"#, #"\"user_id\": \"4711\""#)
        assertDrift(
            try check(), file: "account_conf.json", path: "[0].response.text.upvote.user_id", line: line,
            contains: "expected an integer or null, got a string \"4711\"")
    }

    func testPatternsStandForEveryOperationTheyMatch() throws {
        // The outage stub (`startsWith /api/`, any method) covers every /api operation; a status
        // none of them declares is drift.
        let line = try edit("worlds_conf.json", #""status": 500"#, #""status": 418"#, occurrence: 1)
        let report = try check()
        assertDrift(
            report, file: "worlds_conf.json", path: "[7].response.status", line: line,
            contains: "undeclared status 418: GET /api/v1/stories declares 200, 5XX")
        XCTAssertEqual(report.drift.filter { $0.path == "[7].response.status" }.count, 5, report.text(strict: false))
    }

    func testRegularExpressionsStandForTheOperationsTheirPathsCanMatch() throws {
        // Each stub answers a status no operation declares, so the drift names every operation the
        // `match` maps to. The second pattern's `x?` makes its last literal optional: the prefix the
        // lookup skips operations by must stop before it, or the stub would stand for nothing.
        let config = #"""
            [
              {"request": {"method": "get", "uri": {"match": "^/api/v1/stories/[0-9]+$"}}, "response": {"status": 418}},
              {"request": {"method": "get", "uri": {"match": "/api/v1/storiesx?/[0-9]+/comments"}}, "response": {"status": 418}},
              {"request": {"method": "post", "uri": {"match": "/api/v1/(stories|me)/[0-9]+/upvote"}}, "response": {"status": 418}}
            ]
            """#
        try config.write(toFile: folder + "/regex_conf.json", atomically: true, encoding: .utf8)
        let api = try OpenAPILoader(workingDirectory: folder).load("openapi.yaml")
        let report = try ContractCheck.run(api: api, config: "regex_conf.json", workingDirectory: folder)
        let operations = report.drift.map(\.message).filter { $0.contains("undeclared status 418") }.map {
            $0.components(separatedBy: ": ")[1].components(separatedBy: " declares")[0]
        }
        XCTAssertEqual(
            operations, ["GET /api/v1/stories/{id}", "GET /api/v1/stories/{id}/comments", "POST /api/v1/stories/{id}/upvote"],
            report.text(strict: false))
    }

    func testTheCommandLine() throws {
        let root = URL(fileURLWithPath: folder)
        let clean = try StubServerProcess.run(
            ["check", "--openapi", "openapi.yaml", "-g", "settings.json", "--expect-drift", "worlds_conf.json#4"], workingDirectory: root)
        XCTAssertEqual(clean.status, 0, (clean.stdout + clean.stderr).joined(separator: "\n"))
        XCTAssertTrue(clean.stdout.contains { $0.contains("Coverage: 6 of 6 operations") }, clean.stdout.joined(separator: "\n"))
        let drifting = try StubServerProcess.run(["check", "--openapi", "openapi.yaml", "-g", "settings.json"], workingDirectory: root)
        XCTAssertEqual(drifting.status, 1)
        XCTAssertTrue(
            drifting.stdout.contains { $0.contains("71:27  drift: [4].response.json.stories[0].vote_count") },
            drifting.stdout.joined(separator: "\n"))
        let json = try StubServerProcess.run(
            ["check", "--openapi", "openapi.yaml", "-c", "pages_conf.json", "--format", "json"], workingDirectory: root)
        XCTAssertEqual(json.status, 0)
        let parsed = try JSONValue(parsing: json.stdout.joined(separator: "\n"))
        XCTAssertEqual(parsed["stubsChecked"], 2)
        XCTAssertEqual(try StubServerProcess.run(["check", "-g", "settings.json"], workingDirectory: root).status, 64)
        XCTAssertEqual(
            try StubServerProcess.run(
                ["check", "--openapi", "openapi.yaml", "-g", "settings.json", "--format", "xml"], workingDirectory: root
            ).status, 64)
        let missing = try StubServerProcess.run(["check", "--openapi", "nope.yaml", "-g", "settings.json"], workingDirectory: root)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains { $0.contains("no such file \"nope.yaml\"") }, missing.stderr.joined(separator: "\n"))
        let help = try StubServerProcess.run(["check", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains { $0.contains("USAGE: stubserver check --openapi") })
    }
}
