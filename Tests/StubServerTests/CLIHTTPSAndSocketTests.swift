import Foundation
import StubServerTestSupport
import XCTest

@testable import HTTPEngine
@testable import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubserver https` (moco's flags, keystores made by keytool, PEM files), `start --https`
/// and `stubserver socket`, as subprocesses checked by curl, our client and raw sockets.
final class CLIHTTPSAndSocketTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        // moco's cmd.md example configuration (foo.json).
        try directory.write("foo.json", #"[{"response": {"text": "foo"}}]"#)
    }

    private func curl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try TLSTestFiles.run("curl", ["-sS", "--max-time", "20"] + arguments, in: directory)
    }

    private func stop(_ process: StubServerProcess) {
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    func testHTTPSServesMocosExampleWithAJKSKeystoreMadeByKeytool() throws {
        #if canImport(Darwin)
        throw XCTSkip("HTTPS serving uses OpenSSL, on Linux only")
        #else
        let (_, certificate) = try TLSTestFiles.keystore(in: directory, type: "JKS")
        // moco's cmd.md: https -p 12306 -c foo.json --https /path/to/cert.jks --cert mocohttps --keystore mocohttps
        let process = try StubServerProcess(
            ["https", "-p", "0", "-c", "foo.json", "--https", "cert.jks", "--cert", "mocohttps", "--keystore", "mocohttps"],
            workingDirectory: directory.url)
        let port = try process.waitForPort()
        XCTAssertNotNil(process.waitForLine { $0 == "HTTPS: https://localhost:\(port) with keystore cert.jks" }, "\(process.stdout)")
        let verified = try curl(["--cacert", certificate, "https://localhost:\(port)/"])
        XCTAssertEqual(verified.status, 0, verified.output)
        XCTAssertEqual(verified.output, "foo")
        let untrusted = try curl(["https://localhost:\(port)/"])
        XCTAssertNotEqual(untrusted.status, 0, "curl accepted a certificate it was not told to trust")
        var configuration = UpstreamClient.Configuration()
        configuration.trustedCertificatesFile = certificate
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }
        let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = expectation(description: "answered")
        client.send(try UpstreamRequest(method: "GET", url: "https://127.0.0.1:\(port)/")) {
            box.value = $0; done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(String(decoding: try XCTUnwrap(box.value).get().body, as: UTF8.self), "foo")
        stop(process)
        #endif
    }

    func testHTTPSAndStartServePEMFiles() throws {
        #if canImport(Darwin)
        throw XCTSkip("HTTPS serving uses OpenSSL, on Linux only")
        #else
        let (certificate, key) = try TLSTestFiles.selfSigned(in: directory)
        for command in [["https"], ["start", "--https"]] {
            let process = try StubServerProcess(
                command + ["-p", "0", "-c", "foo.json", "--certificate", certificate, "--private-key", key],
                workingDirectory: directory.url)
            let port = try process.waitForPort()
            let verified = try curl(["--cacert", certificate, "https://127.0.0.1:\(port)/"])
            XCTAssertEqual(verified.output, "foo", "\(command)")
            XCTAssertNotNil(process.waitForLine { $0.hasPrefix("GET / 200 foo.json#0 ") }, "\(process.stdout)")
            stop(process)
        }
        #endif
    }

    func testHTTPSUsageAndKeystoreErrors() throws {
        let missing = try StubServerProcess.run(["https", "-p", "0", "-c", "foo.json"], workingDirectory: directory.url)
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(
            missing.stderr.first,
            "stubserver: error: missing '--https <keystore>' (with '--keystore' and '--cert'), or '--certificate <pem>' with '--private-key <pem>'"
        )
        let noPasswords = try StubServerProcess.run(["https", "-c", "foo.json", "--https", "cert.jks"], workingDirectory: directory.url)
        XCTAssertEqual(noPasswords.status, 64)
        XCTAssertEqual(
            noPasswords.stderr.first,
            "stubserver: error: '--https <keystore>' needs '--keystore <store-password>' and '--cert <key-password>'")
        let noFile = try StubServerProcess.run(
            ["https", "-c", "foo.json", "--https", "nothere.jks", "--cert", "a", "--keystore", "b"], workingDirectory: directory.url)
        XCTAssertEqual(noFile.status, 1)
        XCTAssertEqual(noFile.stderr.first, "stubserver: error: nothere.jks: cannot read the keystore: no such file")
        let help = try StubServerProcess.run(["https", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains { $0.contains("--https <keystore>") }, "\(help.stdout)")
    }

    func testSocketAnswersMocosSocketExampleOverTCP() throws {
        try directory.write("base.json", #"[{"request": {"text": "foo"}, "response": {"text": "bar"}}, {"response": {"text": "blah"}}]"#)
        let process = try StubServerProcess(["socket", "-p", "0", "-c", "base.json"], workingDirectory: directory.url)
        let port = try process.waitForPort()
        XCTAssertNotNil(process.waitForLine { $0.hasPrefix("Shutdown port is ") })
        let client = try RawHTTPClient(port: port, timeout: 5)
        try client.send("foo")
        XCTAssertEqual(client.receiveSome(limit: 3), Array("bar".utf8))
        try client.send("anything")
        XCTAssertEqual(client.receiveSome(limit: 4), Array("blah".utf8))
        XCTAssertNotNil(process.waitForLine { $0 == #"received "foo" → sent "bar" (base.json#0)"# }, "\(process.stdout)")
        // The log quotes what arrived as a JSON string: a backslash and a control byte stay readable.
        try client.send("back\\slash\u{1}")
        XCTAssertEqual(client.receiveSome(limit: 4), Array("blah".utf8))
        XCTAssertNotNil(process.waitForLine { $0 == #"received "back\\slash\u0001" → sent "blah" (base.json#1)"# }, "\(process.stdout)")
        stop(process)
        let refused = try StubServerProcess.run(["socket", "-c", "foo.json", "-g", "x.json"], workingDirectory: directory.url)
        XCTAssertEqual(refused.status, 64)
    }
}
