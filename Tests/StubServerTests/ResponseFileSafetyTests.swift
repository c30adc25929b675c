import Foundation
import XCTest

@testable import StubServer

/// Files are never served from outside their root, whatever the config or the request says.
final class ResponseFileSafetyTests: XCTestCase {
    private var outside: String!
    private var stubs: LiveStubs!

    override func setUpWithError() throws {
        outside = FileManager.default.temporaryDirectory.path + "/routing-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("TOP SECRET".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
        stubs = try LiveStubs(
            """
            [
              {"request": {"uri": "/by-query"}, "response": {"file": {"name": {"template": "public/${req.queries['f']}"}}}},
              {"request": {"uri": {"path": "/by-path/{name}"}}, "response": {"file": {"name": {"template": "public/${req.path.name}"}}}},
              {"request": {"uri": "/static-escape"}, "response": {"file": "../\(URL(fileURLWithPath: outside).lastPathComponent)/secret.txt"}},
              {"request": {"uri": "/absolute"}, "response": {"file": "\(outside!)/secret.txt"}},
              {"request": {"uri": "/link"}, "response": {"file": "public/link.txt"}}
            ]
            """, files: ["public/ok.txt": "fine", "public/nested/deep.txt": "deep"])
        try FileManager.default.createSymbolicLink(
            atPath: stubs.fixture.path("public/link.txt"), withDestinationPath: outside + "/secret.txt")
    }

    override func tearDownWithError() throws {
        stubs = nil
        try? FileManager.default.removeItem(atPath: outside)
    }

    private func assertRefused(_ target: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try stubs.send("GET", target)
        XCTAssertEqual(response.status, 400, target, file: file, line: line)
        XCTAssertFalse(response.text.contains("TOP SECRET"), target, file: file, line: line)
    }

    func testFilesInsideTheRootAreServed() throws {
        XCTAssertEqual(try stubs.send("GET", "/by-query?f=ok.txt").text, "fine")
        XCTAssertEqual(try stubs.send("GET", "/by-query?f=nested/deep.txt").text, "deep")
        XCTAssertEqual(try stubs.send("GET", "/by-query?f=nested/../ok.txt").text, "fine", "dot-dot that stays inside is fine")
    }

    func testDotDotFromTheRequestIsRefused() throws {
        try assertRefused("/by-query?f=../../\(URL(fileURLWithPath: outside).lastPathComponent)/secret.txt")
        try assertRefused("/by-query?f=../../../../../../../../etc/passwd")
        try assertRefused("/by-query?f=%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd")
        try assertRefused("/by-query?f=..%2f..%2f..%2f..%2fetc%2fpasswd")
        try assertRefused("/by-path/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd")
        try assertRefused("/by-path/..")
    }

    func testAbsolutePathsAndSymlinksOutsideTheRootAreRefused() throws {
        try assertRefused("/by-query?f=/etc/passwd")
        try assertRefused("/by-query?f=\(outside!)/secret.txt")
        try assertRefused("/static-escape")
        try assertRefused("/absolute")
        let link = try stubs.send("GET", "/link")
        XCTAssertEqual(link.status, 400)
        XCTAssertTrue(link.text.contains("resolves (through a symlink) outside the file root"), link.text)
    }

    func testDirectoriesAndNulBytesAreNotFiles() throws {
        try assertRefused("/by-query?f=nested")
        try assertRefused("/by-query?f=ok.txt%00.png")
    }

    func testResolutionRules() {
        let root = "/srv/stubs"
        XCTAssertEqual(ConfinedFiles.normalizedComponents("/a/./b/../c//"), ["a", "c"])
        guard case .failure(let climb) = ConfinedFiles.resolve("../x", root: root) else { return XCTFail("climbed out") }
        XCTAssertFalse(climb.isNotFound)
        guard case .failure(let absolute) = ConfinedFiles.resolve("/etc/passwd", root: root) else { return XCTFail("absolute allowed") }
        XCTAssertEqual(absolute.message, #""/etc/passwd" is outside the file root "/srv/stubs""#)
    }
}
