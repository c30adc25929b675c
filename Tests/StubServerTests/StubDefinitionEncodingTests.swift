import XCTest

@testable import StubServer

/// `StubDefinition.mocoJSON` decodes back to the same definition (what the client posts).
final class StubDefinitionEncodingTests: XCTestCase {
    private func roundTrip(_ definition: StubDefinition, file: StaticString = #filePath, line: UInt = #line) throws -> StubDefinition {
        let text = "[" + definition.mocoJSON.compactText + "]"
        var decoder = StubDecoder(file: "encoded", bytes: Array(text.utf8))
        decoder.trimsText = false // as the admin API decodes posted sessions
        let decoded = decoder.decodeFile(try JSONParser.parse(Array(text.utf8)), scope: StubScope())
        XCTAssertEqual(decoder.diagnostics, [], text, file: file, line: line)
        return try XCTUnwrap(decoded.sessions.first, text, file: file, line: line)
    }

    func testEverySessionPartSurvivesARoundTrip() throws {
        var request = RequestPattern(
            method: "POST", uri: .path("/api/v1/stories/{id}/upvote"), version: "HTTP/1.1",
            headers: ["Authorization": .startsWith("Bearer ")], queries: ["client_id": .exist(true), "page": .match("[0-9]+")],
            cookies: ["session": .contain("abc")], forms: ["a": "1"], text: .endsWith("}"),
            jsonPaths: ["$.user.name": .equal("qa")], xpaths: ["/a/b": .exist(false)])
        request.file = FileMatcher(path: "body.json", comparison: .json)
        request.structure = .json(["id": 1])
        let response = ResponseDefinition(
            body: .file(FileSource(name: .template("stories/${req.path.id}.json"), charset: "utf-8")), status: 201,
            headers: [ResponseHeader("X-Id", .template("${req.path.id}", vars: ["site": .literal("DN"), "user": .jsonPath("$.user")]))],
            cookies: [ResponseCookie(name: "s", value: "v", path: "/", secure: true, httpOnly: true, maxAge: .seconds(60), sameSite: .lax)],
            version: "HTTP/1.0", latency: .milliseconds(250),
            sequence: .cycle([
                .json(["n": 1]), .text("two"), ResponseDefinition(body: .file(FileSource(name: "t.txt", rendersContent: true))),
            ]))
        let definition = StubDefinition(request: request, response: response, description: "everything")
            .inScenario("votes", requires: "Started", next: "Upvoted")
        let decoded = try roundTrip(definition)
        XCTAssertEqual(decoded.request, definition.request)
        XCTAssertEqual(decoded.response, definition.response)
        XCTAssertEqual(decoded.description, "everything")
        XCTAssertEqual(decoded.scenario, StubScenario(name: "votes", requires: "Started", next: "Upvoted"))

        let attachment = ResponseDefinition(attachment: Attachment(filename: "r.csv", body: .text("a,b")))
        XCTAssertEqual(try roundTrip(StubDefinition(request: .get("/r"), response: attachment)).response, attachment)

        let redirect = try roundTrip(.redirect(.get("/"), to: "/api/v1/stories"))
        XCTAssertEqual(redirect.redirectTo, "/api/v1/stories")
        XCTAssertEqual(redirect.request, .get("/"))
        let catchAll = try roundTrip(.catchAll(.json(["error": "not_found"], status: 404)))
        XCTAssertNil(catchAll.request)
        XCTAssertEqual(catchAll.response, .json(["error": "not_found"], status: 404))
    }

    func testTheEncodingIsMocosJSON() {
        let definition = StubDefinition(request: .get("/ping", queries: ["q": .exist(true)]), response: .text("pong"))
        XCTAssertEqual(
            definition.mocoJSON.compactText,
            #"{"request":{"method":"GET","uri":"/ping","queries":{"q":{"exist":true}}},"response":{"text":"pong"}}"#)
    }
}
