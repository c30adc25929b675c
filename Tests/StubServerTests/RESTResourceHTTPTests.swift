import Foundation
import XCTest

@testable import StubServer

/// moco's REST `resource` over real HTTP: methods, ids and `*`, the collection aggregate,
/// sub-resources, entry request matchers, 404/400, contexts.
final class RESTResourceHTTPTests: XCTestCase {
    private var stubs: LiveStubs!

    override func setUpWithError() throws {
        stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/items/special"}, "response": {"text": "written before the resource"}},
              {"resource": {
                "name": "items",
                "get": [{"id": "1", "response": {"json": {"id": 1}}}, {"id": "2", "response": {"json": {"id": 2}}}],
                "post": [{"response": {"status": 201, "headers": {"Location": "/items/3"}}}],
                "put": [{"id": "1", "response": {"text": "updated 1"}}],
                "delete": [{"id": "*", "response": {"status": 204}}],
                "patch": [{"id": "1", "request": {"json": {"name": "new"}}, "response": {"text": "patched"}}],
                "head": [{"response": {"headers": {"X-Count": "2"}}}],
                "resource": [
                  {"id": "1", "name": "parts", "get": [{"id": "*", "response": {"text": {"template": "part of ${req.uri}"}}}]},
                  {"id": "*", "name": "notes", "get": [{"response": {"json": ["a note"]}}]}
                ]
              }},
              {"request": {"uri": "/items/after"}, "response": {"text": "never: the resource owns /items"}},
              {"resource": {
                "name": "things",
                "get": [
                  {"request": {"headers": {"X-Key": "k"}}, "response": {"text": "all things"}},
                  {"id": "7", "response": {"text": "seven"}}
                ]
              }}
            ]
            """)
    }

    override func tearDown() { stubs = nil }

    private func status(_ method: String, _ target: String, body: String = "", headers: [(String, String)] = []) throws -> Int {
        try stubs.send(method, target, headers: headers, body: body).status
    }

    func testGetByIdAndTheAggregatedCollection() throws {
        XCTAssertEqual(try stubs.send("GET", "/items/1").text, #"{"id":1}"#)
        let all = try stubs.send("GET", "/items")
        XCTAssertEqual(all.status, 200)
        XCTAssertEqual(all.text, #"[{"id":1},{"id":2}]"#)
        XCTAssertEqual(all.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(try status("GET", "/items/3"), 404)
    }

    func testPostPutDeletePatchHead() throws {
        let created = try stubs.send("POST", "/items", body: "{}")
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.header("Location"), "/items/3")
        XCTAssertEqual(try status("POST", "/items/1"), 404, "POST to an id is a 404")
        XCTAssertEqual(try stubs.send("PUT", "/items/1", body: "x").text, "updated 1")
        XCTAssertEqual(try status("PUT", "/items/2", body: "x"), 404)
        XCTAssertEqual(try status("PUT", "/items", body: "x"), 404)
        XCTAssertEqual(try status("DELETE", "/items/42"), 204, "id * matches any id")
        XCTAssertEqual(
            try stubs.send("PATCH", "/items/1", headers: [("Content-Type", "application/json")], body: #"{"name":"new"}"#).text, "patched")
        XCTAssertEqual(try status("PATCH", "/items/1", body: #"{"name":"old"}"#), 404, "an entry request that does not hold is a 404")
        let head = try stubs.send("HEAD", "/items")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("X-Count"), "2")
        XCTAssertEqual(try status("HEAD", "/items/1"), 404)
        XCTAssertEqual(try status("OPTIONS", "/items"), 400, "other methods are a 400, as in moco")
        XCTAssertEqual(try status("TRACE", "/items/1"), 400)
    }

    func testSubResourcesWithLiteralAndAnyParent() throws {
        XCTAssertEqual(try stubs.send("GET", "/items/1/parts/9").text, "part of /items/1/parts/9")
        XCTAssertEqual(try status("GET", "/items/2/parts/9"), 404, "parts exist under item 1 only")
        XCTAssertEqual(try stubs.send("GET", "/items/2/notes").text, #"["a note"]"#)
        XCTAssertEqual(try stubs.send("GET", "/items/77/notes").text, #"["a note"]"#)
        XCTAssertEqual(try status("GET", "/items/77/notes/1"), 404, "unknown id in a sub-resource")
        XCTAssertEqual(try status("GET", "/items/1/unknown/deeper"), 404)
    }

    func testEntryRequestMatchersAndNoAggregateWhenNotAllJSON() throws {
        XCTAssertEqual(try status("GET", "/things"), 404, "the entry needs X-Key; the id'd entries are not all json")
        XCTAssertEqual(try stubs.send("GET", "/things", headers: [("X-Key", "k")]).text, "all things")
        XCTAssertEqual(try stubs.send("GET", "/things/7").text, "seven")
    }

    func testSessionOrderAroundTheResource() throws {
        XCTAssertEqual(try stubs.send("GET", "/items/special").text, "written before the resource")
        XCTAssertEqual(try status("GET", "/items/after"), 404, "the resource answers everything under /items")
        XCTAssertEqual(try status("GET", "/itemsx"), 400, "a sibling path is not the resource's")
    }

    func testContextAndSettingsApplyToResources() throws {
        let scoped = try LiveStubs(
            #"[{"context": "/api", "response": {"headers": {"X-Env": "test"}}, "include": "rest.json"}]"#,
            files: ["rest.json": #"[{"resource": {"name": "users", "get": [{"id": "*", "response": {"text": "a user"}}]}}]"#])
        let user = try scoped.send("GET", "/api/users/5")
        XCTAssertEqual(user.text, "a user")
        XCTAssertEqual(user.header("X-Env"), "test")
        XCTAssertEqual(try scoped.send("GET", "/api/users/5/x").status, 404)
        XCTAssertEqual(try scoped.send("GET", "/users/5").status, 400, "outside the context nothing matches")
    }

    func testSwiftBuiltResource() throws {
        let server = try StubServer(stubs: [
            .resource(ResourceDefinition(name: "orders", get: [ResourceEntry(id: "1", response: .json(["id": 1]))]))
        ])
        try server.start()
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "GET /orders HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"[{"id":1}]"#)
    }

    func testLoadTimeErrorsNameTheEntry() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "bad.json",
            """
            [
              {"resource": {"name": "a", "put": [{"response": {"text": "x"}}], "delete": [{"id": "1"}]}},
              {"resource": {"name": "b", "post": [{"id": "1", "response": {"status": 201}}], "patch": [{"response": {}}]}},
              {"resource": {"get": [{"id": "1", "request": {"uri": "/x"}, "response": {"text": "x"}}]}},
              {"resource": {"name": "c/d", "resource": [{"name": "e", "get": []}], "options": []}},
              {"resource": {"name": "f"}, "request": {"uri": "/f"}}
            ]
            """)
        let messages = fixture.diagnostics("bad.json").map { "\($0.path): \($0.message)" }
        XCTAssertEqual(
            messages,
            [
                #"[0].resource.put[0]: PUT needs an "id" ("*" for any)"#,
                #"[0].resource.delete[0]: a resource entry needs a "response""#,
                #"[1].resource.post[0].id: POST goes to the collection and takes no "id""#,
                #"[1].resource.patch[0]: PATCH needs an "id" ("*" for any)"#,
                #"[2].resource: a resource needs a "name" (its path segment, e.g. "items")"#,
                #"[2].resource.get[0].request.uri: the resource sets the uri; an entry's request adds other conditions"#,
                #"[3].resource.name: expected a resource name such as "items" (one path segment), got "c/d""#,
                #"[3].resource.resource[0]: a sub-resource needs "id": the parent's id, or "*" for any"#,
                #"[3].resource.options: unknown key; expected one of name, get, post, put, delete, head, patch, resource"#,
                #"[4].request: a resource session cannot also have "request""#,
            ])
    }
}

extension RESTResourceHTTPTests {
    func testNearMissReportCountsAResourceOnce() throws {
        let response = try stubs.send("GET", "/nothing-here")
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(response.text.contains("4 stubs with request conditions compared"), response.text)
    }
}
