import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// moco's `socket` server: sessions over raw TCP, from moco's own test and doc examples.
final class SocketServerTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    private func start(_ json: String, logger: (@Sendable (SocketExchange) -> Void)? = nil) throws -> SocketStubServer {
        try directory.write("socket.json", json)
        var options = SocketStubServer.Options(logger: logger)
        options.workingDirectory = directory.path
        options.eventLoopCount = 1
        let server = try SocketStubServer(configFile: "socket.json", options: options)
        try server.start()
        return server
    }

    /// Sends `text` and reads exactly `count` bytes back (moco's MocoSocketHelper.send(text, count)).
    private func exchange(_ client: RawHTTPClient, _ text: String, expecting count: Int) throws -> String {
        try client.send(text)
        var received: [UInt8] = []
        while received.count < count {
            guard let piece = client.receiveSome(limit: count - received.count), !piece.isEmpty else { break }
            received += piece
        }
        return String(decoding: received, as: UTF8.self)
    }

    func testMocosBaseExampleAnswersBarToFooAndBlahToAnythingElse() throws {
        // moco-runner/src/test/resources/base.json, MocoJsonSocketRunnerTest.
        let server = try start(#"[{"request": {"text": "foo"}, "response": {"text": "bar"}}, {"response": {"text": "blah"}}]"#)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port, timeout: 5)
        XCTAssertEqual(try exchange(client, "foo", expecting: 3), "bar")
        XCTAssertEqual(try exchange(client, "anything", expecting: 4), "blah")
        XCTAssertEqual(try exchange(client, "foo", expecting: 3), "bar")
    }

    func testMocosSocketDocExamplesLoadAndBehave() throws {
        // moco-doc/socket-apis.md: operators, json, json_paths, xml, templates, latency, seq.
        try directory.write("foo.request", "from a file")
        try directory.write("bar.response", "file answer")
        let server = try start(
            #"""
            [
              {"description": "any response", "request": {"text": "described"}, "response": {"text": "comment ignored"}},
              {"request": {"file": "foo.request"}, "response": {"file": "bar.response"}},
              {"request": {"text": {"xml": "<request><parameters><id>1</id></parameters></request>"}}, "response": {"text": "xml"}},
              {"request": {"json": {"foo": "bar"}}, "response": {"text": "json"}},
              {"request": {"json_paths": {"$.book[*].price": "1"}}, "response": {"text": "response_for_json_path_request"}},
              {"request": {"text": {"match": "/\\w*/foo"}}, "response": {"text": "match"}},
              {"request": {"text": {"startsWith": "/start"}}, "response": {"text": "starts"}},
              {"request": {"text": {"endsWith": "end"}}, "response": {"text": "ends"}},
              {"request": {"text": {"contain": "inside"}}, "response": {"text": "contains"}},
              {"request": {"text": "template"}, "response": {"text": {"template": "${req.content}!"}}},
              {"request": {"text": "vars"}, "response": {"text": {"template": {"with": "${foo}", "vars": {"foo": "bar"}}}}},
              {"request": {"text": "slow"}, "response": {"text": "late", "latency": 200}},
              {"request": {"text": "jsonresponse"}, "response": {"json": {"foo": "bar"}}},
              {"request": {"text": "seq"}, "response": {"seq": [{"text": "one"}, {"text": "two"}]}}
            ]
            """#)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port, timeout: 5)
        let cases: [(String, String)] = [
            ("described", "comment ignored"),
            ("from a file", "file answer"),
            ("<request>\n  <parameters><id>1</id></parameters>\n</request>", "xml"),
            (#"{ "foo" : "bar" }"#, "json"),
            (#"{"book": [{"price": 1}]}"#, "response_for_json_path_request"),
            ("/abc/foo", "match"),
            ("/start here", "starts"),
            ("the end", "ends"),
            ("an inside job", "contains"),
            ("template", "template!"),
            ("vars", "bar"),
            ("slow", "late"),
            ("jsonresponse", #"{"foo":"bar"}"#),
            ("seq", "one"),
            ("seq", "two"),
            ("seq", "two"),
        ]
        for (sent, expected) in cases {
            XCTAssertEqual(try exchange(client, sent, expecting: expected.utf8.count), expected, sent)
        }
    }

    func testAnswersLeaveInOrderBehindALatencyAndNoMatchSendsNothing() throws {
        let exchanges = LockedBox<[String]>([])
        let server = try start(
            #"""
            [{"request": {"text": "slow"}, "response": {"text": "1", "latency": 300}},
             {"request": {"text": "fast"}, "response": {"text": "2"}}]
            """#
        ) { exchange in exchanges.value.append(exchange.stub.map { "\($0)" } ?? "no match: \(exchange.nearMiss.map { "\($0)" } ?? "")") }
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port, timeout: 5)
        try client.send("slow")
        Thread.sleep(forTimeInterval: 0.05) // a burst of its own
        XCTAssertEqual(try exchange(client, "fast", expecting: 2), "12")
        client.setTimeout(0.3)
        try client.send("unknown")
        XCTAssertNil(client.receiveSome(limit: 10), "an unmatched request was answered")
        XCTAssertEqual(exchanges.value.prefix(2), ["socket.json#0", "socket.json#1"])
        XCTAssertTrue(exchanges.value.last?.hasPrefix("no match: closest: socket.json#") == true, "\(exchanges.value)")
    }

    func testHTTPOnlyKeysAreRefusedWithTheirPath() throws {
        try directory.write(
            "socket.json",
            #"""
            [{"request": {"uri": "/a", "text": "x"}, "response": {"text": "y", "status": 201}},
             {"request": {"text": "z"}, "response": {"seq": [{"text": "a"}, {"headers": {"X": "1"}}]}}]
            """#)
        var options = SocketStubServer.Options()
        options.workingDirectory = directory.path
        XCTAssertThrowsError(try SocketStubServer(configFile: "socket.json", options: options)) { error in
            let lines = "\(error)".split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 3, "\(lines)")
            XCTAssertTrue(lines[0].hasPrefix("socket.json: [0].request.uri: not available on a socket server"), "\(lines)")
            XCTAssertTrue(lines[1].hasPrefix("socket.json: [0].response.status: not available on a socket server"), "\(lines)")
            XCTAssertTrue(lines[2].hasPrefix("socket.json: [1].response.seq[1].headers: not available on a socket server"), "\(lines)")
        }
    }

    func testStopClosesClientsAndFreesThePort() throws {
        let server = try start(#"[{"response": {"text": "hi"}}]"#)
        let client = try RawHTTPClient(port: server.port, timeout: 5)
        XCTAssertEqual(try exchange(client, "x", expecting: 2), "hi")
        let port = server.port
        server.stop()
        XCTAssertEqual(client.receiveSome(limit: 10), [])
        XCTAssertThrowsError(try RawHTTPClient(port: port, timeout: 1))
    }
}
