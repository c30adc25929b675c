import Foundation
import StubServerTestSupport
import XCTest

@testable import StubServer

/// moco's own example configurations (`MocoExamples/`, copied from moco's repository) laid out
/// as moco's users have them — a project folder with `src/test/resources/…` — and served from
/// that folder, over real sockets: websocket object forms and broadcasts, failover and
/// playback files in moco's saved-exchange format.
final class MocoExamplesTests: XCTestCase {
    /// A project folder with moco's files at the paths its configurations name.
    private final class MocoProject {
        let fixture: ConfigFixture
        var servers: [StubServer] = []
        var root: String { fixture.root }

        init(_ files: [String: String]) throws {
            fixture = try ConfigFixture()
            for (path, example) in files { try fixture.write(path, try MocoExamplesTests.example(example)) }
        }

        deinit { for server in servers { server.stop() } }

        /// Serves `config` (a path below the project) with the project as the working directory.
        func serve(_ config: String) throws -> StubServer {
            var options = StubServer.Options()
            options.workingDirectory = root
            options.eventLoopCount = 2
            let server = try StubServer(configFile: fixture.path(config), options: options)
            try server.start()
            servers.append(server)
            return server
        }
    }

    static func example(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("MocoExamples/" + name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// One request on a fresh connection with the `Host` moco's saved files name.
    private func send(_ method: String, _ target: String, port: Int, host: String = "localhost:12306", body: String = "") throws
        -> RawHTTPResponse
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let client = try RawHTTPClient(port: port)
        try client.send(Array(head.utf8) + Array(body.utf8))
        return try client.readResponse()
    }

    /// Waits until the server has registered the client (a ping is answered after that).
    private func settle(_ client: WebSocketTestClient) throws {
        try client.send(opcode: 9, Array("sync".utf8))
        let pong = try client.readFrame()
        XCTAssertEqual(pong.opcode, 10)
    }

    // MARK: websocket

    /// moco-runner's `websocket.json`: `{"text": …}` and `{"file": …}` requests and responses;
    /// file content goes out in a binary frame, as moco sends it.
    func testMocoWebsocketJSONWithObjectFormsAndFiles() throws {
        let project = try MocoProject([
            "src/test/resources/websocket/websocket.json": "websocket.json",
            "src/test/resources/foo.request": "foo.request",
            "src/test/resources/foo.response": "foo.response",
        ])
        let server = try project.serve("src/test/resources/websocket/websocket.json")
        let client = try WebSocketTestClient(port: server.port, path: "/ws")
        XCTAssertEqual(try client.readText(), "connected")
        try client.send(opcode: 9, Array("ping".utf8))
        XCTAssertEqual(try client.readFrame(), .init(fin: true, opcode: 10, payload: Array("pong".utf8)))
        try client.sendText("foo")
        XCTAssertEqual(try client.readText(), "bar")
        try client.sendText("foo.request")
        let fromFile = try client.readFrame()
        XCTAssertEqual(fromFile.opcode, 2, "file content goes out in a binary frame")
        XCTAssertEqual(fromFile.text, "foo.response")
    }

    /// moco's `should_broadcast`: the sender's first message after sending is the broadcast,
    /// then its own reply; everyone else gets the broadcast.
    func testMocoBroadcastReachesTheSenderBeforeItsReply() throws {
        let project = try MocoProject([
            "src/test/resources/websocket/websocket_with_broadcast.json": "websocket_with_broadcast.json",
            "src/test/resources/foo.response": "foo.response",
        ])
        let server = try project.serve("src/test/resources/websocket/websocket_with_broadcast.json")
        let subscriber = try WebSocketTestClient(port: server.port, path: "/ws")
        let sender = try WebSocketTestClient(port: server.port, path: "/ws")
        try settle(subscriber)
        try settle(sender)

        try sender.sendText("broadcast")
        XCTAssertEqual(try sender.readText(), "login", "moco writes the broadcast as its handler runs, the reply last")
        XCTAssertEqual(try sender.readText(), "subcribed")
        XCTAssertEqual(try subscriber.readText(), "login")

        try sender.sendText("broadcast2")
        XCTAssertEqual(try subscriber.readText(), "login2")
        XCTAssertEqual(try sender.readText(), "login2")
        XCTAssertEqual(try sender.readText(), "broadcast2")

        // `"broadcast": {"content": {"file": …}}`: the file's content, in a binary frame.
        try sender.sendText("broadcast-with-file")
        let fromFile = try subscriber.readFrame()
        XCTAssertEqual(fromFile.opcode, 2)
        XCTAssertEqual(fromFile.text, "foo.response")
        XCTAssertEqual(try sender.readFrame().text, "foo.response")
        XCTAssertEqual(try sender.readText(), "broadcast-with-file")

        // A group broadcast reaches its members only.
        try subscriber.sendText("subscribe-with-group")
        XCTAssertEqual(try subscriber.readText(), "subscribed")
        try sender.sendText("broadcast-with-group")
        XCTAssertEqual(try subscriber.readText(), "broadcast-content")
        XCTAssertEqual(try sender.readText(), "subscribed", "the sender is not in the group: only its reply")
    }

    /// The JSON of moco's websocket documentation, as written there (its group example puts
    /// `"content"` in a response, which we read as `text`).
    func testMocoWebsocketDocumentationExamples() throws {
        let project = try MocoProject(["basic.json": "websocket-apis-basic.json", "group.json": "websocket-apis-group.json"])
        let basic = try project.serve("basic.json")
        let client = try WebSocketTestClient(port: basic.port, path: "/ws")
        XCTAssertEqual(try client.readText(), "connected")
        try client.send(opcode: 9, Array("ping".utf8))
        XCTAssertEqual(try client.readFrame().text, "pong")
        try client.sendText("foo")
        XCTAssertEqual(try client.readText(), "bar")

        let group = try project.serve("group.json")
        let member = try WebSocketTestClient(port: group.port, path: "/ws")
        let other = try WebSocketTestClient(port: group.port, path: "/ws")
        try settle(member)
        try settle(other)
        try member.sendText("subscribe")
        XCTAssertEqual(try member.readText(), "subscribed")
        try other.sendText("broadcast")
        XCTAssertEqual(try member.readText(), "content")
        XCTAssertEqual(try other.readText(), "broadcasted")
        try other.sendText("foo")
        XCTAssertEqual(try member.readText(), "bar")
        XCTAssertEqual(try other.readText(), "bar")
    }

    func testWebsocketShapesMocoRefusesOrWeDo() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "bad.json",
            """
            [{"websocket": {"uri": "/ws", "pingpongs": [{"ping": {"file": "p.txt"}, "pong": "x"}], "sessions": [
              {"request": {"text": "a", "file": "b"}, "response": {"text": "x"}},
              {"request": "c", "response": {"text": "x", "content": "y"}},
              {"request": "d", "response": {"broadcast": {"content": {"json": "x"}}}}
            ]}}]
            """)
        XCTAssertEqual(
            fixture.diagnostics("bad.json").map { "\($0.path): \($0.message)" },
            [
                "[0].websocket.pingpongs[0].ping: a ping or pong is text (at most 125 bytes), not a file",
                #"[0].websocket.sessions[0].request: expected exactly one of "text" or "file""#,
                #"[0].websocket.sessions[1].response: a reply has one of "text" or "file", not "text" and "content""#,
                "[0].websocket.sessions[2].response.broadcast.content.json: unknown key; expected one of text, content, file",
            ])
    }

    // MARK: failover and playback

    /// moco-runner's `proxy.json` started from the project folder: its failover and playback
    /// files (`src/test/resources/standalone_failover.json`, moco's format: no method, a saved
    /// `Host`, header values as strings) resolve against the working directory and answer.
    func testMocoFailoverAndPlaybackFilesAnswerFromTheProjectFolder() throws {
        let project = try MocoProject([
            "src/test/resources/standalone_failover.json": "standalone_failover.json",
            "src/test/resources/foo.response": "foo.response",
        ])
        // moco's tests proxy to the server itself (port 12306); this one listens elsewhere.
        let port = try Self.freePort()
        let config = try Self.example("proxy.json").replacingOccurrences(of: "localhost:12306", with: "127.0.0.1:\(port)")
        try project.fixture.write("src/test/resources/proxy.json", config)
        var options = StubServer.Options(host: "127.0.0.1", port: port)
        options.workingDirectory = project.root
        options.eventLoopCount = 2
        let server = try StubServer(configFile: project.fixture.path("src/test/resources/proxy.json"), options: options)
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(server.warnings.map(\.message), [])

        // `/unknown` is unmatched (400), moco's default failover status: the saved answer.
        let failover = try send("POST", "/failover", port: port, body: "proxy")
        XCTAssertEqual(failover.status, 200, failover.text)
        XCTAssertEqual(failover.text, "proxy")
        XCTAssertEqual(failover.header("Content-Type"), "text/plain; charset=UTF-8")
        let playback = try send("POST", "/playback", port: port, body: "proxy")
        XCTAssertEqual(playback.text, "proxy")
        for _ in 0..<2 {
            XCTAssertEqual(try send("GET", "/failover-with-status", port: port).text, "proxy")
        }
        // The saved request names `Host: localhost:12306`: another host is another request.
        let elsewhere = try send("POST", "/failover", port: port, host: "127.0.0.1:\(port)", body: "proxy")
        XCTAssertEqual(elsewhere.status, 400, "the upstream's own answer: nothing saved for this host")
        XCTAssertEqual(
            try String(contentsOfFile: project.fixture.path("src/test/resources/standalone_failover.json"), encoding: .utf8),
            try Self.example("standalone_failover.json"), "failover answers are never saved over the file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.fixture.path("src/test/resources/src")), "no doubled path")
    }

    /// moco's saved-exchange rules on our side: fields left out match anything, header values
    /// compare without case, a saved method or body must be equal.
    func testMocoSavedExchangeFormatMatchesAsMocoDoes() throws {
        let upstream = try Self.freePort() // nothing listens: every request fails over
        let stubs = try LiveStubs(
            """
            [{"request": {"uri": {"startsWith": "/api"}}, "response": {"proxy": {"from": "/api", "to": "http://127.0.0.1:\(upstream)/v1", "failover": "saved.json"}}}]
            """,
            files: [
                "saved.json": """
                [ {
                  "request" : {"version" : "HTTP/1.1", "method" : "POST", "uri" : "/api/orders", "content" : "{\\"id\\":1}",
                               "headers" : {"Host" : "127.0.0.1", "X-Client" : "IOS", "Content-Length" : "8", "Connection" : "Keep-Alive"},
                               "queries" : {"page" : "2"}},
                  "response" : {"version" : "HTTP/1.1", "content" : "created", "headers" : {"Content-Type" : "text/plain", "X-Saved" : ["a", "b"]}, "status" : 201}
                }, {
                  "request" : {"uri" : "/api/anything"},
                  "response" : {"content" : "any method, any body"}
                } ]
                """
            ])
        let created = try stubs.send("POST", "/api/orders?page=2", headers: [("X-Client", "ios")], body: #"{"id":1}"#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.text, "created")
        XCTAssertEqual(created.headers.filter { $0.name == "X-Saved" }.map(\.value), ["a", "b"])
        XCTAssertEqual(
            try stubs.send("POST", "/api/orders?page=2", headers: [("X-Client", "ios")], body: #"{"id":2}"#).status, 502, "another body")
        XCTAssertEqual(
            try stubs.send("PUT", "/api/orders?page=2", headers: [("X-Client", "ios")], body: #"{"id":1}"#).status, 502, "another method")
        XCTAssertEqual(
            try stubs.send("POST", "/api/orders?page=3", headers: [("X-Client", "ios")], body: #"{"id":1}"#).status, 502, "another query")
        XCTAssertEqual(try stubs.send("POST", "/api/orders?page=2", body: #"{"id":1}"#).status, 502, "a saved header is missing")
        XCTAssertEqual(try stubs.send("DELETE", "/api/anything", body: "x").text, "any method, any body")
    }

    // MARK: paths

    /// Config-relative names keep working when they are unambiguous; a name found nowhere is
    /// written in the working directory (moco's place) and said at load.
    func testFailoverNextToTheConfigurationStillWorksAndMissingFilesAreSaid() throws {
        let fixture = try ConfigFixture()
        let upstream = try Self.freePort()
        try fixture.write("conf/saved.json", #"[{"request": {"uri": "/a"}, "response": {"content": "saved next to the config"}}]"#)
        try fixture.write(
            "conf/stubs.json",
            """
            [{"request": {"uri": "/a"}, "response": {"proxy": {"url": "http://127.0.0.1:\(upstream)/a", "failover": "saved.json"}}},
             {"request": {"uri": "/b"}, "response": {"proxy": {"url": "http://127.0.0.1:\(upstream)/b", "failover": "records/missing.json"}}}]
            """)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 2
        let server = try StubServer(configFile: fixture.path("conf/stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        let answer = try RawHTTPClient.get(port: server.port, "/a")
        XCTAssertEqual(answer.text, "saved next to the config")
        XCTAssertEqual(
            server.warnings.map { "\($0.path): \($0.message)" },
            [
                "[1].response.proxy.failover: no failover file \"records/missing.json\" (looked for \"\(fixture.path("records/missing.json"))\" and \"\(fixture.path("conf/records/missing.json"))\"); until the upstream answers once (saved there), a failover has nothing to replay"
            ])
    }

    /// A tape named from the project folder is read from there (a pre-recorded one replays) and
    /// written there, never under the configuration's folder again.
    func testTapesResolveAgainstTheWorkingDirectory() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "tapes/t.json", #"[{"group": "g", "identifier": "g", "request": {"method": "POST", "uri": "/r", "content": "pre-recorded"}}]"#)
        try fixture.write(
            "conf/stubs.json",
            """
            [{"request": {"uri": "/r", "method": "post"}, "response": {"record": {"group": "g", "tape": "tapes/t.json"}}},
             {"request": {"uri": "/r", "method": "get"}, "response": {"replay": {"group": "g", "tape": "tapes/t.json"}}},
             {"request": {"uri": "/n", "method": "post"}, "response": {"record": {"group": "n", "tape": "tapes/new.json"}}}]
            """)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        options.eventLoopCount = 2
        let server = try StubServer(configFile: fixture.path("conf/stubs.json"), options: options)
        try server.start()
        defer { server.stop() }
        XCTAssertEqual(try RawHTTPClient.get(port: server.port, "/r").text, "pre-recorded")
        _ = try RawHTTPClient.exchange(
            port: server.port, "POST /n HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nnew")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: fixture.path("tapes/new.json")), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.path("tapes/new.json")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.path("conf/tapes")))
    }

    /// `{"file": {"name": {"template": {"with": "src/test/resources/${var}.response", "vars": {"var": "foo"}}}}}`
    /// names one file for every request: it is looked for in the working directory like any name.
    func testTemplatedFileNamesOfConstantVarsTryTheWorkingDirectory() throws {
        let project = try MocoProject(["src/test/resources/foo.response": "foo.response"])
        try project.fixture.write(
            "src/test/resources/conf/stubs.json",
            #"""
            [{"request": {"uri": "/t"}, "response": {"file": {"name": {"template": {"with": "src/test/resources/${var}.response", "vars": {"var": "foo"}}}}}},
             {"request": {"uri": "/q"}, "response": {"file": {"name": {"template": "src/test/resources/${req.queries['n']}.response"}}}}]
            """#)
        let server = try project.serve("src/test/resources/conf/stubs.json")
        let constant = try RawHTTPClient.get(port: server.port, "/t")
        XCTAssertEqual(constant.status, 200, constant.text)
        XCTAssertEqual(constant.text, "foo.response")
        XCTAssertEqual(
            try RawHTTPClient.get(port: server.port, "/q?n=foo").status, 400,
            "names built from the request never leave the configuration's folder")
    }

    /// moco reads a request `file` only when its session is tried: a missing one is a warning
    /// (an error for `validate --strict`), the session never matches, the others serve.
    func testMissingRequestFileIsAWarningAndTheRestServes() throws {
        let stubs = try LiveStubs(
            """
            [{"request": {"uri": "/upload", "file": "src/test/resources/never-written.request"}, "response": {"text": "matched"}},
             {"request": {"uri": "/ok"}, "response": {"text": "ok"}}]
            """)
        XCTAssertEqual(
            stubs.server.warnings.map { "\($0.path): \($0.message)" },
            [
                "[0].request.file: no file \"src/test/resources/never-written.request\" (looked in \"\(stubs.fixture.root)\"); the session never matches until it exists and the configuration is reloaded"
            ])
        XCTAssertEqual(try stubs.send("GET", "/ok").text, "ok")
        let upload = try stubs.send("POST", "/upload", body: "anything")
        XCTAssertEqual(upload.status, 400)
        XCTAssertTrue(upload.text.contains("never-written.request"), upload.text)
    }

    /// moco takes a free port without `-p`; stubserver keeps 12306 (a stable address for apps
    /// and `stubserver requests`), and when that is taken says how to get moco's behaviour.
    func testStartWithoutAPortNamesTheDefaultAndTheWayToAFreeOne() throws {
        let directory = try TemporaryDirectory()
        try directory.write("conf.json", #"[{"response": {"text": "x"}}]"#)
        // Hold 12306 (or find it held by someone else: the start fails the same way).
        let holder = try? StubServer(stubs: [], options: StubServer.Options(host: "127.0.0.1", port: 12306))
        try? holder?.start()
        defer { holder?.stop() }
        let result = try StubServerProcess.run(["start", "-c", "conf.json"], workingDirectory: directory.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains {
                $0.contains("port 12306 on 127.0.0.1 (the default) is already in use; -p 0 picks a free port, as moco does without -p")
            }, "\(result.stderr)")
    }

    static func freePort() throws -> Int {
        let probe = try StubServer(stubs: [], options: StubServer.Options(host: "127.0.0.1", port: 0))
        try probe.start()
        let port = probe.port
        probe.stop()
        return port
    }
}
