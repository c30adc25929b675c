import Foundation
import XCTest

@testable import StubServer

/// Every path the server reads or writes by name — `mount.dir`, tapes, `failover` and
/// `playback` files — stays inside the configuration's folder, its `file_root` or the working
/// directory, whoever supplies it (issue 21, points 1 and 2).
final class PathConfinementTests: XCTestCase {
    private var outside: String!

    override func setUpWithError() throws {
        outside = FileManager.default.temporaryDirectory.path + "/confinement-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("TOP SECRET".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: outside)
    }

    private func loadProblems(_ config: String, files: [String: String] = [:]) throws -> [ConfigDiagnostic] {
        let fixture = try ConfigFixture()
        for (name, text) in files { try fixture.write(name, text) }
        try fixture.write("stubs.json", config)
        return fixture.diagnostics("stubs.json")
    }

    func testAMountOutsideTheRootsIsALoadError() throws {
        for dir in ["/", "/etc", "../../..", outside!] {
            let problems = try loadProblems(#"[{"mount": {"dir": "\#(dir)", "uri": "/mnt"}}]"#)
            XCTAssertEqual(problems.map(\.path), ["[0].mount.dir"], dir)
            XCTAssertTrue(problems.first?.message.contains("is outside the folders files may be in") == true, problems.description)
        }
    }

    func testAMountThroughASymlinkThatLeavesIsALoadError() throws {
        let fixture = try ConfigFixture()
        try FileManager.default.createSymbolicLink(atPath: fixture.path("www"), withDestinationPath: outside)
        try fixture.write("stubs.json", #"[{"mount": {"dir": "www", "uri": "/mnt"}}]"#)
        let problems = fixture.diagnostics("stubs.json")
        XCTAssertEqual(problems.map(\.path), ["[0].mount.dir"])
        XCTAssertTrue(problems.first?.message.contains("through a symlink") == true, problems.description)
    }

    func testAMountInsideTheRootStillServes() throws {
        let live = try LiveStubs(#"[{"mount": {"dir": "www", "uri": "/mnt"}}]"#, files: ["www/a.txt": "inside"])
        XCTAssertEqual(try live.send("GET", "/mnt/a.txt").text, "inside")
    }

    /// The attack of issue 21 without the browser part: the admin API mounting `/`.
    func testTheAdminAPIRefusesAMountOutsideTheRoot() throws {
        let live = try LiveStubs(#"[]"#)
        let json = [("Content-Type", "application/json")]
        for dir in ["/", "/etc", "../../.."] {
            let added = try live.send(
                "POST", "/__admin/stubs", headers: json, body: #"{"mount": {"dir": "\#(dir)", "uri": "/mnt", "cors": true}}"#)
            XCTAssertEqual(added.status, 400, "\(dir): \(added.text)")
            XCTAssertTrue(added.text.contains("outside the folders files may be in"), added.text)
        }
        let read = try live.send("GET", "/mnt/etc/passwd")
        XCTAssertNotEqual(read.status, 200, "no mount answers (unmatched is moco's 400)")
        XCTAssertFalse(read.text.contains("root:"), read.text)
    }

    func testTapesOutsideTheRootAreRefused() throws {
        for tape in ["../../../x.json", "\(outside!)/x.json", "/tmp/x.json"] {
            let problems = try loadProblems(#"[{"request": {"uri": "/r"}, "response": {"record": {"group": "g", "tape": "\#(tape)"}}}]"#)
            XCTAssertEqual(problems.map(\.path), ["[0].response.record.tape"], tape)
            XCTAssertTrue(problems.first?.message.contains("is outside the folders") == true, problems.description)
        }
        let replay = try loadProblems(#"[{"request": {"uri": "/r"}, "response": {"replay": {"group": "g", "tape": "../x.json"}}}]"#)
        XCTAssertEqual(replay.map(\.path), ["[0].response.replay.tape"])
        let live = try LiveStubs(#"[]"#)
        let added = try live.send(
            "POST", "/__admin/stubs", headers: [("Content-Type", "application/json")],
            body: #"{"request": {"uri": "/r"}, "response": {"record": {"group": "g", "tape": "../../../x.json"}}}"#)
        XCTAssertEqual(added.status, 400, added.text)
        XCTAssertTrue(added.text.contains("record.tape"), added.text)
    }

    func testATapeSymlinkedOutsideIsRefused() throws {
        let fixture = try ConfigFixture()
        try FileManager.default.createSymbolicLink(atPath: fixture.path("tapes"), withDestinationPath: outside)
        try fixture.write("stubs.json", #"[{"request": {"uri": "/r"}, "response": {"record": {"group": "g", "tape": "tapes/t.json"}}}]"#)
        XCTAssertEqual(fixture.diagnostics("stubs.json").map(\.path), ["[0].response.record.tape"])
    }

    func testFailoverAndPlaybackFilesOutsideTheRootAreRefused() throws {
        let failover = try loadProblems(
            #"[{"request": {"uri": "/p"}, "response": {"proxy": {"url": "http://127.0.0.1:9/p", "failover": "/etc/passwd"}}}]"#)
        XCTAssertEqual(failover.map(\.path), ["[0].response.proxy.failover"])
        let playback = try loadProblems(
            #"[{"request": {"uri": "/p"}, "response": {"proxy": {"url": "http://127.0.0.1:9/p", "playback": "../../../x.json"}}}]"#)
        XCTAssertEqual(playback.map(\.path), ["[0].response.proxy.playback"])
    }

    func testFilesInsideTheRootsAreFine() throws {
        let fixture = try ConfigFixture()
        try fixture.write("stubs.json", #"[{"request": {"uri": "/r"}, "response": {"record": {"group": "g", "tape": "tapes/../t.json"}}}]"#)
        XCTAssertNoThrow(try fixture.load("stubs.json"))
        let confinement = PathConfinement(roots: ["/srv/stubs", "/home/me/project"])
        XCTAssertEqual(try confinement.confine("a/../b.json", relativeTo: "/srv/stubs").get(), "/srv/stubs/b.json")
        XCTAssertEqual(try confinement.confine("/home/me/project/t.json", relativeTo: "/srv/stubs").get(), "/home/me/project/t.json")
        XCTAssertThrowsError(try confinement.confine("../x", relativeTo: "/srv/stubs").get())
        XCTAssertThrowsError(try confinement.confine("/srv/stubsx/t.json", relativeTo: "/").get(), "a prefix of a name is not a parent")
        XCTAssertThrowsError(try confinement.confine("a\u{0}b", relativeTo: "/srv/stubs").get())
    }
}
