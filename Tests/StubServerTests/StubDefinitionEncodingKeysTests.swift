import XCTest

@testable import StubServer

/// Every key of a session survives `encodedMocoJSON()` → the admin API's decoder, and a part
/// moco JSON cannot hold throws instead of vanishing. `testEveryStoredPropertyIsCoveredBySamples`
/// fails when a property is added to the model without a sample that sets it (and so, through
/// the round trip, without an encoding).
final class StubDefinitionEncodingKeysTests: XCTestCase {
    /// Decodes as `POST /__admin/stubs` does.
    static func decodeAsAdmin(_ text: String) throws -> (sessions: [StubDefinition], diagnostics: [String]) {
        var decoder = StubDecoder(file: "encoded", bytes: Array(text.utf8))
        decoder.trimsText = false
        let sessions = decoder.decodeAdminSessions(try JSONParser.parse(Array(text.utf8)), scope: StubScope())
        return (sessions, decoder.diagnostics.map { "\($0)" })
    }

    @discardableResult
    private func assertRoundTrips(_ definition: StubDefinition, file: StaticString = #filePath, line: UInt = #line) throws -> StubDefinition
    {
        let encoded = try definition.encodedMocoJSON()
        let text = "[" + encoded.compactText + "]"
        let (sessions, diagnostics) = try Self.decodeAsAdmin(text)
        XCTAssertEqual(diagnostics, [], text, file: file, line: line)
        let decoded = try XCTUnwrap(sessions.first, text, file: file, line: line)
        XCTAssertEqual(decoded.request, definition.request, "request of \(text)", file: file, line: line)
        XCTAssertEqual(decoded.response, definition.response, "response of \(text)", file: file, line: line)
        XCTAssertEqual(decoded.redirectTo, definition.redirectTo, file: file, line: line)
        XCTAssertEqual(decoded.description, definition.description, file: file, line: line)
        XCTAssertEqual(decoded.mount, definition.mount, file: file, line: line)
        XCTAssertEqual(decoded.scenario, definition.scenario, file: file, line: line)
        XCTAssertEqual(decoded.onComplete, definition.onComplete, file: file, line: line)
        XCTAssertEqual(decoded.resource != nil, definition.resource != nil, file: file, line: line)
        // ResourceDefinition is not Equatable: the re-encoding must be the same JSON.
        XCTAssertEqual(try decoded.encodedMocoJSON().compactText, encoded.compactText, file: file, line: line)
        return decoded
    }

    private func response(_ build: (inout ResponseDefinition) -> Void) -> ResponseDefinition {
        var response = ResponseDefinition()
        build(&response)
        return response
    }

    // MARK: Samples: together they set every stored property of every session type.

    static let fullRequest: RequestPattern = {
        var request = RequestPattern(
            method: "POST", uri: .path("/api/v1/stories/{id}/upvote"), version: "HTTP/1.1",
            headers: ["Authorization": .startsWith("Bearer ")], queries: ["client_id": .exist(true)],
            cookies: ["session": .contain("abc")], forms: ["a": "1"], text: .endsWith("}"),
            jsonPaths: ["$.user.name": .equal("qa")], xpaths: ["/a/b": .exist(false)])
        request.file = FileMatcher(path: "body.json", charset: "utf-8", comparison: .exact)
        request.structure = .json(["id": 1])
        request.json = ["id": 1]
        return request
    }()

    static var samples: [(name: String, stub: StubDefinition)] {
        let core = ResponseDefinition(
            body: .file(FileSource(name: .template("stories/${req.path.id}.json"), charset: "utf-8")), status: 201,
            headers: [ResponseHeader("X-Id", .template("${req.path.id}", vars: ["site": "DN", "user": .jsonPath("$.user")]))],
            cookies: [
                ResponseCookie(
                    name: "s", value: "v", path: "/", domain: "example.test", secure: true, httpOnly: true, maxAge: .seconds(60),
                    sameSite: .lax)
            ],
            version: "HTTP/1.0", latency: .milliseconds(250),
            sequence: .cycle([
                .json(["n": 1]), ResponseDefinition(body: .file(FileSource(name: "t.txt", rendersContent: true, vars: ["a": "b"]))),
            ]))
        var onComplete = EventDefinition(
            method: .post, url: .template("http://127.0.0.1:9/hook/${req.path.id}"), content: .template("${req.content}"),
            headers: [ResponseHeader("X-Event", "done")], async: true, latency: .milliseconds(20))
        let coreStub = StubDefinition(
            request: fullRequest, response: core, redirectTo: nil, description: "everything", scope: StubScope(), reference: nil
        )
        .inScenario("votes", requires: StubScenario.started, next: "Upvoted")
        var withEvent = coreStub
        withEvent.onComplete = onComplete
        onComplete = EventDefinition(method: .post, url: "http://127.0.0.1:9/json", json: ["ok": true])
        var jsonEvent = StubDefinition(request: .get("/e"), response: .text("e"))
        jsonEvent.onComplete = onComplete

        let cors = CORSPolicy(
            allowOrigin: "https://app.example", allowMethods: ["GET", "PUT"], allowHeaders: ["X-Token"], maxAge: .seconds(600),
            exposeHeaders: ["X-Total"], allowCredentials: true)
        var record = ResponseDefinition()
        record.record = RecordDefinition(group: "push", identifier: .template("${req.queries['device']}"), tape: "push-tape.json")
        var replayTemplate = ResponseDefinition()
        replayTemplate.replay = ReplayDefinition(
            record: RecordDefinition(group: "push"), modifier: .template(.template("sent: ${req.content}")))
        var replayResponse = ResponseDefinition()
        replayResponse.replay = ReplayDefinition(
            record: RecordDefinition(identifier: "one"), modifier: .response(.json(["a": 1], status: 202)))
        var replayBare = ResponseDefinition()
        replayBare.replay = ReplayDefinition(record: RecordDefinition())

        let endpoint = WebSocketEndpoint(
            uri: "/ws", connected: .text("hello"), pingPongs: [.init(ping: "p", pong: "q")],
            sessions: [
                .init(request: "ping", response: .init(text: "pong")),
                .init(request: "file", response: .init(file: "reply.txt")),
                .init(request: "join", response: .init(group: "room")),
                .init(request: "shout", response: .init(broadcast: .init(text: "hi all", group: "room"))),
                .init(request: "shout-file", response: .init(broadcast: .init(content: .file("all.txt")))),
            ])
        var connectedFile = endpoint
        connectedFile.connected = .file("welcome.txt")

        let resource = ResourceDefinition(
            name: "items",
            get: [
                ResourceEntry(id: "1", request: RequestPattern(headers: ["X-A": "1"]), response: .json(["id": 1])),
                ResourceEntry(response: .text("all")),
            ],
            post: [ResourceEntry(response: .status(201))], put: [ResourceEntry(id: "*", response: .status(204))],
            delete: [ResourceEntry(id: "1", response: .status(204))], head: [ResourceEntry(response: .status(200))],
            patch: [ResourceEntry(id: "1", response: .text("patched"))],
            resources: [ResourceDefinition(name: "parts", id: "*", get: [ResourceEntry(id: "*", response: .text("a part"))])])

        return [
            ("core keys, scenario and an on.complete post", withEvent),
            ("on.complete post with json", jsonEvent),
            (
                "on.complete get",
                {
                    var stub = StubDefinition(request: .get("/g"), response: .text("g"))
                    stub.onComplete = EventDefinition(method: .get, url: "http://127.0.0.1:9/beacon")
                    return stub
                }()
            ),
            (
                "attachment",
                StubDefinition(
                    request: .get("/r"), response: ResponseDefinition(attachment: Attachment(filename: "r.csv", body: .text("a,b"))))
            ),
            ("redirectTo", .redirect(.get("/"), to: "/api/v1/stories", description: "home")),
            ("catch-all", .catchAll(.json(["error": "not_found"], status: 404))),
            ("cors true", StubDefinition(request: .get("/c"), response: ResponseDefinition(body: .text("c"), cors: CORSPolicy()))),
            ("cors policy", StubDefinition(request: .get("/c"), response: ResponseDefinition(body: .text("c"), cors: cors))),
            ("proxy url", StubDefinition(request: .get("/p"), response: .proxy(ProxyDefinition(url: "http://127.0.0.1:9/p")))),
            (
                "proxy template with failover",
                StubDefinition(
                    request: .get("/p"),
                    response: .proxy(
                        ProxyDefinition(
                            url: .template("http://127.0.0.1:9/${req.path}"),
                            failover: SavedExchanges(file: "f.json", statuses: [502, 503]))))
            ),
            (
                "proxy playback",
                StubDefinition(
                    request: .get("/p"),
                    response: .proxy(ProxyDefinition(url: "http://127.0.0.1:9/p", playback: SavedExchanges(file: "p.json"))).header(
                        "X-P", "1"))
            ),
            ("proxy from/to", StubDefinition(request: nil, response: .proxy(ProxyDefinition(from: "/api", to: "http://127.0.0.1:9/v2")))),
            ("record", StubDefinition(request: .post("/rec"), response: record)),
            ("replay template", StubDefinition(request: .get("/rep"), response: replayTemplate)),
            ("replay response", StubDefinition(request: .get("/rep"), response: replayResponse)),
            ("replay default", StubDefinition(request: .get("/rep"), response: replayBare)),
            (
                "sse events",
                StubDefinition(
                    request: .get("/events"),
                    response: ResponseDefinition(
                        status: 200,
                        sse: ServerSentEvents(events: [
                            SSEEvent(event: "tick", data: ["1"], id: "1", retry: 500, delay: .milliseconds(30)),
                            SSEEvent(data: ["line 1", "line 2"]),
                        ])))
            ),
            (
                "sse events with delay",
                StubDefinition(request: .get("/events"), response: .sse([SSEEvent(data: ["x"])], delay: .seconds(1)))
            ),
            (
                "sse file",
                StubDefinition(
                    request: .get("/events"),
                    response: ResponseDefinition(sse: ServerSentEvents(file: .template("${req.queries['f']}.sse"), delay: .milliseconds(5)))
                )
            ),
            (
                "dribble chunks",
                StubDefinition(request: .get("/d"), response: ResponseDefinition.text("0123456789").dribble(.chunks(5, over: .seconds(2))))
            ),
            (
                "dribble rate",
                StubDefinition(request: .get("/d"), response: ResponseDefinition.file("big.json").dribble(.bytesPerSecond(4096)))
            ),
            ("fault", StubDefinition(request: .get("/f"), response: ResponseDefinition(status: 500, fault: .connectionReset))),
            ("websocket", .websocket(endpoint, description: "chat")),
            ("websocket connected file", .websocket(connectedFile)),
            (
                "mount",
                {
                    var stub = StubDefinition.mount(
                        MountDefinition(dir: "www", uri: "/static", includes: ["**/*.css"], excludes: ["*.tmp"]),
                        response: ResponseDefinition.status(200).header("Cache-Control", "no-store").latency(.milliseconds(5)))
                    stub.description = "assets"
                    return stub
                }()
            ),
            ("resource", .resource(resource)),
        ]
    }

    // MARK: Round trips, one test per key family

    private func sample(_ name: String) throws -> StubDefinition {
        try XCTUnwrap(Self.samples.first { $0.name == name }?.stub, name)
    }

    func testCoreKeysScenarioAndOnCompleteRoundTrip() throws {
        for name in [
            "core keys, scenario and an on.complete post", "on.complete post with json", "on.complete get", "attachment", "redirectTo",
            "catch-all",
        ] {
            try assertRoundTrips(try sample(name))
        }
        let text = try sample("core keys, scenario and an on.complete post").encodedMocoJSON()
        XCTAssertEqual(text["on"]?["complete"]?["async"], .bool(true))
        XCTAssertEqual(text["scenario"]?["next"], .string("Upvoted"))
    }

    func testCORSRoundTrips() throws {
        XCTAssertEqual(try sample("cors true").encodedMocoJSON()["response"]?["cors"], .bool(true))
        try assertRoundTrips(try sample("cors true"))
        let policy = try assertRoundTrips(try sample("cors policy"))
        XCTAssertEqual(policy.response?.cors?.maxAge, .seconds(600))
    }

    func testProxyRoundTrips() throws {
        for name in ["proxy url", "proxy template with failover", "proxy playback", "proxy from/to"] {
            try assertRoundTrips(try sample(name))
        }
        XCTAssertEqual(try sample("proxy url").encodedMocoJSON()["response"]?["proxy"], .string("http://127.0.0.1:9/p"))
    }

    func testASessionLevelProxyFromAFileListsAsItsRequestAndAResponseProxy() throws {
        let (sessions, diagnostics) = try Self.decodeAsAdmin(
            #"{"proxy": {"from": "/api", "to": "http://127.0.0.1:9/v2"}, "description": "legacy"}"#)
        XCTAssertEqual(diagnostics, [])
        let decoded = try assertRoundTrips(try XCTUnwrap(sessions.first))
        XCTAssertEqual(decoded.response?.proxy?.target, .batch(from: "/api", to: "http://127.0.0.1:9/v2"))
    }

    func testRecordAndReplayRoundTrip() throws {
        for name in ["record", "replay template", "replay response", "replay default"] { try assertRoundTrips(try sample(name)) }
    }

    func testLiveKeysRoundTrip() throws {
        for name in ["sse events", "sse events with delay", "sse file", "dribble chunks", "dribble rate", "fault"] {
            try assertRoundTrips(try sample(name))
        }
        XCTAssertEqual(try sample("fault").encodedMocoJSON()["response"]?["fault"], .string("connection_reset"))
    }

    func testWebSocketMountAndResourceSessionsRoundTrip() throws {
        for name in ["websocket", "websocket connected file", "mount", "resource"] { try assertRoundTrips(try sample(name)) }
        let mount = try sample("mount").encodedMocoJSON()
        XCTAssertEqual(mount["mount"]?["headers"]?["Cache-Control"], .string("no-store"), "a mount's response keys sit beside dir and uri")
        XCTAssertNil(mount["response"])
    }

    // MARK: What moco JSON cannot hold throws, naming the part

    func testUnrepresentablePartsThrowWithTheirPath() {
        func failure(_ stub: StubDefinition) -> StubEncodingError? {
            do { _ = try stub.encodedMocoJSON(); return nil } catch { return error }
        }
        var both = ResponseDefinition()
        both.proxy = ProxyDefinition(url: "http://127.0.0.1:9/", failover: SavedExchanges(file: "a"), playback: SavedExchanges(file: "b"))
        XCTAssertEqual(failure(StubDefinition(request: .get("/x"), response: both))?.path, "response.proxy")
        var noStatuses = ResponseDefinition()
        noStatuses.proxy = ProxyDefinition(url: "http://127.0.0.1:9/", failover: SavedExchanges(file: "a", statuses: []))
        XCTAssertEqual(failure(StubDefinition(request: .get("/x"), response: noStatuses))?.path, "response.proxy.failover.status")
        var literalModifier = ResponseDefinition()
        literalModifier.replay = ReplayDefinition(record: RecordDefinition(group: "g"), modifier: .template(.literal("x")))
        XCTAssertEqual(
            failure(StubDefinition(request: .get("/x"), response: .seq([.text("a"), literalModifier])))?.path,
            "response.seq[1].replay.modifier")
        var emptyRecord = ResponseDefinition()
        emptyRecord.record = RecordDefinition()
        XCTAssertEqual(failure(StubDefinition(request: .get("/x"), response: emptyRecord))?.path, "response.record")
        XCTAssertEqual(
            failure(StubDefinition(request: .get("/x"), response: ResponseDefinition(sse: ServerSentEvents())))?.path, "response.sse")
        XCTAssertEqual(
            failure(StubDefinition(request: .get("/x"), response: .sse([SSEEvent(data: ["a\nb"])])))?.path, "response.sse.events[0].data")
        XCTAssertEqual(
            failure(StubDefinition(request: .get("/x"), response: .text("x").dribble(.chunks(0, over: .seconds(1)))))?.path,
            "response.dribble.chunks")
        XCTAssertEqual(
            failure(StubDefinition(request: .get("/x"), response: .text("x").latency(.seconds(Int64.max))))?.path, "response.latency",
            "no overflow trap")
        var socketInside = StubDefinition.websocket(WebSocketEndpoint(uri: "/ws"))
        socketInside.request = .get("/other")
        XCTAssertEqual(failure(socketInside)?.path, "response.websocket")
        XCTAssertEqual(failure(StubDefinition.websocket(WebSocketEndpoint(uri: "/ws")).inScenario("s", next: "n"))?.path, "scenario")
        XCTAssertEqual(failure(StubDefinition.mount(MountDefinition(dir: "www", uri: "/s")).inScenario("s", next: "n"))?.path, "scenario")
        var getWithBody = StubDefinition(request: .get("/x"), response: .text("x"))
        getWithBody.onComplete = EventDefinition(method: .get, url: "http://127.0.0.1:9/", content: "body")
        XCTAssertEqual(failure(getWithBody)?.path, "on.complete.get")
        XCTAssertEqual(failure(.resource(ResourceDefinition(name: "items", id: "1")))?.path, "resource.id")

        // For display the session says why instead of dropping the part.
        XCTAssertEqual(
            StubDefinition(request: .get("/x"), response: both).mocoJSON["error"]?.stringValue?.hasPrefix(
                "cannot be written as moco JSON: response.proxy:"), true)
    }

    /// The decoder used to ignore these keys beside a mount, resource or websocket: the
    /// session loaded without its scenario or event.
    func testKeysAServingOrWebSocketSessionCannotHaveAreReportedNotIgnored() throws {
        let cases = [
            #"{"mount": {"dir": "www", "uri": "/s"}, "scenario": {"name": "s", "next": "n"}}"#: ".scenario",
            #"{"resource": {"name": "items"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:9/"}}}}"#: ".on",
            #"{"websocket": {"uri": "/ws"}, "scenario": {"name": "s", "next": "n"}}"#: ".scenario",
            #"{"websocket": {"uri": "/ws"}, "on": {"complete": {"get": {"url": "http://127.0.0.1:9/"}}}}"#: ".on",
            #"{"mount": {"dir": "www", "uri": "/s"}, "websocket": {"uri": "/ws"}}"#: ".websocket",
        ]
        for (text, key) in cases {
            let (sessions, diagnostics) = try Self.decodeAsAdmin(text)
            XCTAssertEqual(sessions.count, 0, text)
            XCTAssertTrue(
                diagnostics.contains { $0.contains(key) && ($0.contains("does not go with") || $0.contains("cannot also have")) },
                "\(text): \(diagnostics)")
        }
    }

    // MARK: Guard: a new stored property without an encoding fails here

    /// Walks every sample with `Mirror` and collects, per type, the stored properties that are set
    /// somewhere (not nil, not empty, not false). Every property the walk meets must be set in at
    /// least one sample, and every sample round-trips, so a property the encoder ignores fails.
    func testEveryStoredPropertyIsCoveredBySamples() throws {
        var seen: Set<String> = []
        var populated: Set<String> = []
        // Not part of a session: what a settings include passed down, and where it was written.
        let notSessionParts: Set<String> = ["StubDefinition.scope", "StubDefinition.reference", "StubDefinition.sourcePath"]
        let leaves: Set<String> = ["JSONValue", "JSONObject", "JSONNumber"]

        func isSet(_ value: Any) -> Bool {
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional?, .collection?, .dictionary?, .set?: return !mirror.children.isEmpty
            default: break
            }
            if let flag = value as? Bool { return flag }
            if let variables = value as? TemplateVariables { return !variables.isEmpty }
            if let matchers = value as? KeyedMatchers { return !matchers.entries.isEmpty }
            return true
        }
        func walk(_ value: Any) {
            let mirror = Mirror(reflecting: value)
            let typeName = String(describing: mirror.subjectType)
            switch mirror.displayStyle {
            case .optional?, .collection?, .tuple?, .enum?, .dictionary?, .set?:
                for child in mirror.children { walk(child.value) }
            case .struct?, .class?:
                guard String(reflecting: mirror.subjectType).hasPrefix("StubModel."), !leaves.contains(typeName) else { return }
                for child in mirror.children {
                    guard let label = child.label else { continue }
                    let key = typeName + "." + label
                    guard !notSessionParts.contains(key) else { continue }
                    seen.insert(key)
                    if isSet(child.value) { populated.insert(key) }
                    walk(child.value)
                }
            default: return
            }
        }
        for (_, stub) in Self.samples { walk(stub) }
        XCTAssertGreaterThan(seen.count, 60, "the walk reaches the nested types")
        for key in [
            "ResponseDefinition.sse", "ProxyDefinition.failover", "SSEEvent.retry", "EventDefinition.async", "ResourceDefinition.resources",
            "WebSocketEndpoint.pingPongs", "CORSPolicy.allowCredentials",
        ] {
            XCTAssertTrue(seen.contains(key), key)
        }
        let uncovered = seen.subtracting(populated).sorted()
        XCTAssertEqual(uncovered, [], "stored properties no sample sets: teach StubDefinitionEncoding to write them and add a sample here")
        for (name, stub) in Self.samples { XCTAssertNoThrow(try assertRoundTrips(stub), name) }
    }
}
