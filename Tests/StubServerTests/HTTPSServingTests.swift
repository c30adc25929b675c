import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// The engine serving HTTPS through the system's OpenSSL, with a certificate made per test,
/// checked by `openssl s_client`, by our own `UpstreamClient` and by raw sockets.
final class HTTPSServingTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        #if canImport(Darwin)
        throw XCTSkip("HTTPS serving uses OpenSSL, on Linux only")
        #else
        directory = try TemporaryDirectory()
        #endif
    }

    private func server(_ identity: TLSIdentity, limits: HTTPServerLimits = HTTPServerLimits()) throws -> StubServer {
        var options = StubServer.Options(limits: limits)
        options.tls = identity
        options.eventLoopCount = 2
        let server = try StubServer(
            stubs: [
                StubDefinition(request: .get("/hello"), response: .text("hello over tls")),
                StubDefinition(request: .post("/echo"), response: .text(.template("${req.content}"))),
            ], options: options)
        try server.start()
        return server
    }

    private func client(trusting certificate: String) -> UpstreamClient {
        var configuration = UpstreamClient.Configuration()
        configuration.trustedCertificatesFile = certificate
        configuration.connectTimeout = .seconds(10)
        return UpstreamClient(configuration: configuration)
    }

    private func call(_ client: UpstreamClient, _ url: String, method: String = "GET", body: String = "") throws -> UpstreamResponse {
        let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = expectation(description: "answered")
        client.send(try UpstreamRequest(method: method, url: url, body: Array(body.utf8))) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(box.value).get()
    }

    func testOurClientVerifiesTheServerByNameAndAddressOverKeepAlive() throws {
        let (certificate, key) = try TLSTestFiles.selfSigned(in: directory)
        let server = try server(try TLSIdentity(certificateFile: certificate, privateKeyFile: key))
        defer { server.stop() }
        XCTAssertEqual(server.baseURL.absoluteString, "https://localhost:\(server.port)")
        let client = client(trusting: certificate)
        defer { client.shutdown() }
        for host in ["localhost", "127.0.0.1", "localhost"] {
            let response = try call(client, "https://\(host):\(server.port)/hello")
            XCTAssertEqual(response.status, 200, host)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello over tls", host)
        }
        // A body larger than one TLS record (16 KiB) both ways.
        let big = String(repeating: "0123456789abcdef", count: 5000)
        let echoed = try call(client, "https://localhost:\(server.port)/echo", method: "POST", body: big)
        XCTAssertEqual(String(decoding: echoed.body, as: UTF8.self), big)
        XCTAssertEqual(server.journal.count, 4)
    }

    func testOpenSSLSClientCompletesAVerifiedHandshakeAndGetsTheResponse() throws {
        let (certificate, key) = try TLSTestFiles.selfSigned(in: directory)
        let server = try server(try TLSIdentity(certificateFile: certificate, privateKeyFile: key))
        defer { server.stop() }
        let result = try TLSTestFiles.run(
            "openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-CAfile", certificate,
                "-verify_return_error", "-verify_hostname", "localhost", "-quiet",
            ], in: directory, input: "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(result.output.contains("HTTP/1.1 200 OK"), result.output)
        XCTAssertTrue(result.output.hasSuffix("hello over tls"), result.output)
    }

    func testPlainHTTPOnTheTLSPortGetsA400InPlainTextAndTheServerKeepsServing() throws {
        let (certificate, key) = try TLSTestFiles.selfSigned(in: directory)
        let server = try server(try TLSIdentity(certificateFile: certificate, privateKeyFile: key))
        defer { server.stop() }
        let raw = try RawHTTPClient(port: server.port, timeout: 10)
        try raw.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let response = try raw.readResponse()
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(response.text.contains("speaks HTTPS"), response.text)
        XCTAssertEqual(response.header("Connection"), "close")
        let client = client(trusting: certificate)
        defer { client.shutdown() }
        XCTAssertEqual(try call(client, "https://localhost:\(server.port)/hello").status, 200)
    }

    func testASilentClientDoesNotHoldTheLoopAndIsClosedAtTheHandshakeDeadline() throws {
        let (certificate, key) = try TLSTestFiles.selfSigned(in: directory)
        var limits = HTTPServerLimits()
        limits.headerReadTimeout = .milliseconds(500)
        let server = try server(try TLSIdentity(certificateFile: certificate, privateKeyFile: key), limits: limits)
        defer { server.stop() }
        // Half a TLS record header, then nothing: the handshake waits for more.
        let silent = try RawHTTPClient(port: server.port, timeout: 10)
        try silent.send([0x16, 0x03])
        let client = client(trusting: certificate)
        defer { client.shutdown() }
        for _ in 0..<4 { XCTAssertEqual(try call(client, "https://localhost:\(server.port)/hello").status, 200) }
        let started = Date()
        XCTAssertEqual(silent.receiveSome(limit: 100), [], "the stalled handshake was not closed")
        XCTAssertLessThan(Date().timeIntervalSince(started), 8)
    }

    func testAKeyThatDoesNotBelongToTheCertificateIsRefusedAtStart() throws {
        let (certificate, _) = try TLSTestFiles.selfSigned(in: directory, prefix: "a-")
        let (_, otherKey) = try TLSTestFiles.selfSigned(in: directory, prefix: "b-")
        var options = StubServer.Options()
        options.tls = try TLSIdentity(certificateFile: certificate, privateKeyFile: otherKey)
        let server = try StubServer(stubs: [], options: options)
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertEqual("\(error)", "cannot serve HTTPS: the private key does not belong to the certificate")
        }
    }

    func testPEMProblemsAreNamedWithTheirFile() throws {
        let notPEM = try directory.write("junk.pem", "hello")
        let (certificate, key) = try TLSTestFiles.selfSigned(in: directory)
        XCTAssertThrowsError(try TLSIdentity(certificateFile: notPEM, privateKeyFile: key)) { error in
            XCTAssertEqual("\(error)", "\(notPEM): no PEM certificate found (expected a -----BEGIN CERTIFICATE----- block)")
        }
        XCTAssertThrowsError(try TLSIdentity(certificateFile: certificate, privateKeyFile: certificate)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(certificate): no PEM private key found"), "\(error)")
        }
        XCTAssertThrowsError(try TLSIdentity(certificateFile: directory.path + "/missing.pem", privateKeyFile: key)) { error in
            XCTAssertEqual("\(error)", "\(directory.path)/missing.pem: cannot read the certificate: no such file")
        }
    }

    func testAJKSKeystoreMadeByKeytoolIsReadVerifiedAndServed() throws {
        for algorithm in [["-keyalg", "EC", "-groupname", "secp256r1"], ["-keyalg", "RSA", "-keysize", "2048"]] {
            let (keystore, certificate) = try TLSTestFiles.keystore(
                in: directory, type: "JKS", keyAlgorithm: algorithm,
                storePassword: "storepass", keyPassword: "keypass")
            XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: keystore)).prefix(4)), [0xFE, 0xED, 0xFE, 0xED])
            let identity = try TLSIdentity(keystoreFile: keystore, storePassword: "storepass", keyPassword: "keypass")
            XCTAssertEqual(identity.certificateChain.count, 1)
            let server = try server(identity)
            defer { server.stop() }
            let client = client(trusting: certificate)
            defer { client.shutdown() }
            XCTAssertEqual(
                String(decoding: try call(client, "https://localhost:\(server.port)/hello").body, as: UTF8.self), "hello over tls",
                "\(algorithm)")
            try FileManager.default.removeItem(atPath: keystore)
        }
    }

    func testAJKSKeystoreWithAWrongPasswordOrDamagedBytesIsRefusedClearly() throws {
        let (keystore, _) = try TLSTestFiles.keystore(in: directory, type: "JKS", storePassword: "storepass", keyPassword: "keypass")
        XCTAssertThrowsError(try TLSIdentity(keystoreFile: keystore, storePassword: "wrong", keyPassword: "keypass")) { error in
            XCTAssertEqual(
                "\(error)",
                "\(keystore): the JKS keystore's integrity check failed: wrong keystore password (--keystore), or the file is damaged")
        }
        XCTAssertThrowsError(try TLSIdentity(keystoreFile: keystore, storePassword: "storepass", keyPassword: "wrong")) { error in
            XCTAssertEqual("\(error)", "\(keystore): entry \"moco\": wrong key password (--cert)")
        }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: keystore)))
        bytes[40] ^= 0xFF
        XCTAssertThrowsError(try TLSIdentity.keystore(bytes, storePassword: "storepass", keyPassword: "keypass")) { error in
            XCTAssertTrue("\(error)".contains("integrity check failed"), "\(error)")
        }
        XCTAssertThrowsError(try TLSIdentity.keystore(Array("hello".utf8), storePassword: "a", keyPassword: "b")) { error in
            XCTAssertEqual("\(error)", "not a keystore: expected JKS (starting FE ED FE ED) or PKCS#12 (DER), found 68 65 6C 6C")
        }
    }

    func testAPKCS12KeystoreMadeByKeytoolIsServed() throws {
        let (keystore, certificate) = try TLSTestFiles.keystore(in: directory, type: "PKCS12")
        let identity = try TLSIdentity(keystoreFile: keystore, storePassword: "mocohttps", keyPassword: "mocohttps")
        let server = try server(identity)
        defer { server.stop() }
        let client = client(trusting: certificate)
        defer { client.shutdown() }
        XCTAssertEqual(try call(client, "https://127.0.0.1:\(server.port)/hello").status, 200)
        XCTAssertThrowsError(try TLSIdentity(keystoreFile: keystore, storePassword: "nope", keyPassword: "nope")) { error in
            XCTAssertTrue("\(error)".contains("cannot open the PKCS#12 keystore with the passwords given"), "\(error)")
        }
    }
}
