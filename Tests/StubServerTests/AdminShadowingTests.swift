import Foundation
import XCTest

@testable import StubServer

/// A session whose uri matcher reaches into `/__admin/` is refused like one under it: the admin
/// API answers those paths first and would hide the session there without a word.
final class AdminShadowingTests: XCTestCase {
    private func loadProblems(_ uri: String) throws -> String? {
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", #"[{"request": {"uri": \#(uri)}, "response": {"text": "mine"}}]"#)
        var options = StubServer.Options()
        options.workingDirectory = fixture.root
        do {
            _ = try StubServer(configFile: "stubs.json", options: options)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Before, each of these loaded and was silently hidden under `/__admin/`.
    func testMatchersWhoseFixedStartReachesIntoTheAdminPrefixAreRefused() throws {
        for uri in [
            #"{"startsWith": "/__adm"}"#, #"{"startsWith": "/__admin"}"#, #"{"match": "/__adm.*"}"#,
            #"{"match": "^/__admin/.*"}"#, #"{"path": "/__adm*"}"#, #"{"path": "/__admin/**"}"#,
        ] {
            let problem = try XCTUnwrap(try loadProblems(uri), "\(uri) must be refused")
            XCTAssertTrue(problem.hasPrefix("stubs.json: [0].request.uri: "), problem)
            XCTAssertTrue(problem.contains("/__admin/"), problem)
            XCTAssertTrue(problem.contains("--no-admin"), problem)
        }
    }

    func testBroadMatchersAndOtherPrefixesStayAllowed() throws {
        for uri in [
            #"{"startsWith": "/"}"#, #"{"startsWith": "/__api"}"#, #"{"match": ".*"}"#, #"{"match": "/__(x|y)"}"#,
            #"{"path": "/**"}"#, #""/__adm""#,
        ] {
            XCTAssertNil(try loadProblems(uri), "\(uri) must load")
        }
    }

    /// The admin API refuses such a stub with the same reason, and adds nothing.
    func testTheAdminAPIRefusesAShadowingStub() throws {
        let server = try StubServer(stubs: [])
        try server.start()
        defer { server.stop() }
        let body = #"{"request": {"uri": {"startsWith": "/__adm"}}, "response": {"text": "mine"}}"#
        let response = try RawHTTPClient.exchange(
            port: server.port,
            """
            POST /__admin/stubs HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)
            """)
        XCTAssertEqual(response.status, 400, response.text)
        XCTAssertTrue(response.text.contains("reaches into /__admin/"), response.text)
        XCTAssertEqual(server.stubs().count, 0)
    }
}
