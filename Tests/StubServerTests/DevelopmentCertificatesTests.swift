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

/// The development CA and server certificate (`start --https` without a certificate,
/// `stubserver cert`), and moco's own test keystore.
final class DevelopmentCertificatesTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        #if canImport(Darwin)
        throw XCTSkip("making and serving certificates uses OpenSSL, on Linux only")
        #else
        directory = try TemporaryDirectory()
        #endif
    }

    private func permissions(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func get(_ url: String, trusting certificate: String) throws -> Result<UpstreamResponse, UpstreamError> {
        var configuration = UpstreamClient.Configuration()
        configuration.trustedCertificatesFile = certificate
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }
        let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = expectation(description: "answered")
        client.send(try UpstreamRequest(method: "GET", url: url)) {
            box.value = $0; done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(box.value)
    }

    func testMakesTheAuthorityOnceWithPrivateKeysAndACertificateOurClientAndOpenSSLVerify() throws {
        let folder = directory.path + "/certs"
        let first = try DevelopmentCertificates.ensure(directory: folder)
        XCTAssertTrue(first.madeAuthority)
        XCTAssertTrue(first.madeCertificate)
        XCTAssertEqual(Array(first.names.prefix(3)), ["localhost", "127.0.0.1", "::1"])
        XCTAssertEqual(try permissions(folder), 0o700)
        XCTAssertEqual(try permissions(first.paths.authorityKey), 0o600)
        XCTAssertEqual(try permissions(first.paths.privateKey), 0o600)
        XCTAssertEqual(try permissions(first.paths.certificate), 0o644)
        let again = try DevelopmentCertificates.ensure(directory: folder)
        XCTAssertFalse(again.madeAuthority)
        XCTAssertFalse(again.madeCertificate)

        let verified = try TLSTestFiles.run(
            "openssl", ["verify", "-purpose", "sslserver", "-CAfile", first.paths.authorityCertificate, first.paths.certificate],
            in: directory)
        XCTAssertEqual(verified.status, 0, verified.output)

        var options = StubServer.Options()
        options.tls = try DevelopmentCertificates.identity(directory: folder)
        let server = try StubServer(stubs: [.catchAll(.text("dev"))], options: options)
        try server.start()
        defer { server.stop() }
        for host in ["localhost", "127.0.0.1"] {
            let response = try get("https://\(host):\(server.port)/", trusting: first.paths.authorityCertificate).get()
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "dev", host)
        }
    }

    func testRenewsTheCertificateWhenAskedNearExpiryOrForOtherNamesKeepingTheAuthority() throws {
        let folder = directory.path + "/certs"
        let first = try DevelopmentCertificates.ensure(directory: folder, names: ["localhost"])
        let authority = try String(contentsOfFile: first.paths.authorityCertificate, encoding: .utf8)
        var certificate = try String(contentsOfFile: first.paths.certificate, encoding: .utf8)
        let steps: [(String, () throws -> DevelopmentCertificates.Status)] = [
            ("renew", { try DevelopmentCertificates.ensure(directory: folder, names: ["localhost"], renew: true) }),
            ("names", { try DevelopmentCertificates.ensure(directory: folder, names: ["localhost", "stubs.test"]) }),
            (
                "expiry",
                {
                    try DevelopmentCertificates.ensure(
                        directory: folder, names: ["localhost", "stubs.test"], now: Date().addingTimeInterval(380 * 86_400))
                }
            ),
        ]
        for (reason, step) in steps {
            let status = try step()
            XCTAssertTrue(status.madeCertificate, reason)
            XCTAssertFalse(status.madeAuthority, reason)
            let renewed = try String(contentsOfFile: status.paths.certificate, encoding: .utf8)
            XCTAssertNotEqual(renewed, certificate, reason)
            certificate = renewed
            XCTAssertEqual(try String(contentsOfFile: status.paths.authorityCertificate, encoding: .utf8), authority, reason)
        }
        let text = try TLSTestFiles.run("openssl", ["x509", "-noout", "-text", "-in", first.paths.certificate], in: directory).output
        XCTAssertTrue(text.contains("DNS:localhost, DNS:stubs.test"), text)
        XCTAssertTrue(text.contains("TLS Web Server Authentication"), text)
        XCTAssertFalse(try DevelopmentCertificates.ensure(directory: folder, names: ["localhost", "stubs.test"]).madeCertificate)
    }

    func testStartWithHTTPSAndNoCertificatePrintsHowToTrustTheCAAndServes() throws {
        try directory.write("foo.json", #"[{"response": {"text": "foo"}}]"#)
        let home = directory.path + "/home"
        let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config"]
        let process = try StubServerProcess(
            ["start", "--https", "-p", "0", "-c", "foo.json"], workingDirectory: directory.url, environment: environment)
        let port = try process.waitForPort()
        let authority = home + "/config/rehearsal/certificates/ca.pem"
        XCTAssertNotNil(
            process.waitForLine { $0 == "  curl:           curl --cacert \(authority) https://localhost:\(port)/" }, "\(process.stdout)")
        // Each instruction line is waited for: the banner's lines arrive in pieces through the pipe.
        XCTAssertNotNil(
            process.waitForLine { $0.hasPrefix("  iOS Simulator:  xcrun simctl keychain booted add-root-cert \(authority)") },
            "\(process.stdout)")
        XCTAssertNotNil(process.waitForLine { $0.contains("security add-trusted-cert") }, "\(process.stdout)")
        let curl = try TLSTestFiles.run(
            "curl", ["-sS", "--max-time", "20", "--cacert", authority, "https://localhost:\(port)/"], in: directory)
        XCTAssertEqual(curl.output, "foo")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)

        let cert = try StubServerProcess(["cert", "--dir", home + "/config/rehearsal/certificates"], workingDirectory: directory.url)
        XCTAssertEqual(cert.waitForExit(), 0)
        XCTAssertEqual(cert.stdout.first, "Development CA: \(authority)")
        XCTAssertFalse(cert.stdout.contains { $0.hasPrefix("Made a new") }, "\(cert.stdout)")
        let help = try StubServerProcess.run(["cert", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains { $0.hasPrefix("USAGE: stubserver cert") }, "\(help.stdout)")
    }

    func testStartWithHTTPSOnAConcreteHostAddsThatAddressToTheCertificate() throws {
        try directory.write("foo.json", #"[{"response": {"text": "foo"}}]"#)
        let home = directory.path + "/home"
        let process = try StubServerProcess(
            ["start", "--https", "--host", "127.0.0.2", "-p", "0", "-c", "foo.json"],
            workingDirectory: directory.url, environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config"])
        let port = try process.waitForPort()
        XCTAssertNotNil(
            process.waitForLine {
                $0.hasPrefix("HTTPS: https://127.0.0.2:\(port) with the development certificate for ") && $0.hasSuffix(", 127.0.0.2")
            },
            "\(process.stdout)")
        XCTAssertNotNil(process.waitForLine { $0.hasSuffix("ca.pem https://127.0.0.2:\(port)/") }, "\(process.stdout)")
        let curl = try TLSTestFiles.run(
            "curl", ["-sS", "--max-time", "20", "--cacert", home + "/config/rehearsal/certificates/ca.pem", "https://127.0.0.2:\(port)/"],
            in: directory)
        XCTAssertEqual(curl.output, "foo")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }

    /// moco's own test keystore (moco-core/src/test/resources/cert.jks, JKS v2, RSA 2048,
    /// CN=localhost, passwords "mocohttps"), as moco's users have it.
    static let mocoKeystore =
        "/u3+7QAAAAIAAAABAAAAAQAEbW9jbwAAAUTGYcybAAAFADCCBPwwDgYKKwYBBAEqAhEBAQUABIIE6F+KgFnlObeq+nd568xaCIqgcUtrzKUR7IEAFoB2T9rZqXPYOJdMFXyfz4o2g2utsxlIl3Z3pkx2CINwDMNFSBWom834BR7p56130vTgtc7R60Mgy/hpXY7b7J0IFbIli1jsrKog2r7Prscna35foncoxpsqKyZP9NEAT08Js8R1cQudg4CvRyAiZ+UWA7mJqq0wgr0G8dqVBVfJSgJZoPLFkNB8icQxzTaUARpbtp7NAW2Bh9DnnzoBk00ro1WQ6XgxsYby2TD9WaQIjaL0JlTkNToTVb0y8+gpCZ3rfEa/jhtj16yawulMtEDxQePWDYQuGNTzGr7R9U3vz5oHrQ7QiVkjJVKXT2lIuz+sEcbssg1MBwH6dMTVlhMQnxrpWm6Fd12nN8vB0Lnkp4iQT5n5j7iHroFDyEpjXDjxYRvp9sDOe8tMz0GQTQFSiOqDS7/3jcihzWLiveRb0K27GBhKDjxNbC4thcMNPazL4L/moynj2FoqO3ILwknzWYMGiy5E2rrQSqPhe8breJxEqsMAbSfxWprhcFrReXvffk7JZkbu4p1296ReZAhE1QW1e6e43lK1sCDMHvtOQZyw7pk+yCfBdLD9LV2DElIfU2ikOgxxjNJM5yWTURsVbAJW12sO4F4BB0cVkuJ+q6n4ahp86xhyl/dSSSVmgLiPO3QZMismKTCPhw//xSO0vhHarmeC3UiE6XKCYw2MsfsdEggRMCqF7psUAC+lBzKJ8P8l1gWspi/XmOn3d7lBTWK/4MyZ8uNlzCrKL+AzvOap77w/7215iyAbU0P7VPyrNTjAxOue3stZ1GduMFlpM4RJh6tg3U4k+irLn/EF9nqYdqmmK9IUHfSb171Si9Sq6x5wNctFzYfm5weXygaYMJ1bnkHN9Mdjm9yq7q6zWdsQcW7qz5VDjDbuVaD1yEjyXaoiy5VjDoCRNH2ktj64dk0PyBGSxoIfxLIRgbFhsVfwBnCff366nvAqNm4vk8AxZSIKD6T2JqLusGoYJihLjP6sXvPnpR+/b5rdNr552j/hsgCF7PoxLZ8448FSvy+OI499qr0jl7yeHs9bi+OnTRxA2okog0qqRQqnGuj3AbTVj9boiYr97e+k8X3db5vdHPRfZoZxsowVYJs2eBOSzajheIeztHjSedRrE2t7HdH7ubgcWqS6PmP2oe7WiimP71DfRCjzmTo2D97HSt6vr/E+HkS2H0nS6NqU9PlSdTTM/uUu7KeX8XUIix5d0d5t87gLEJZd1gzvZ/ZqlaZvt+Cpnva/CgPAtvNlLuTnDxJVlnoB40XSV+njJ3iUStjsqUh75aTWPaQPHXt5qJLc4BJBD4CohwPdFZV/8CXGIvidnLhyCIYhD1yTxyxLFIQpA/cUbqqWxXZiQ7oP9busK55AZnpMoDXD8yPJukRqxDup4qOvKc72kUvio9G5+n9PkoTBrpRvuVgMKGxyHqW7PIjnGjuPdq9yKJwVQh24qsYzDbUnlHt1+DN+Vj2nFiE62nR3Jz5cgfmN5CHP6VC8rK01MWIZTvpw9SboAkesZ6688DyV+iblA0jq6e6bRAWjtkptkJuvTEXeYgNWHPHKdNkN67zhOSdqXCUiy4MomKkklm7qb3FFHjSwLuPc5Xirtk7s39QIREFEPollyac8sM3u2aTU9HUOUyOqAAAAAQAFWC41MDkAAALNMIICyTCCAbGgAwIBAgIETStW/jANBgkqhkiG9w0BAQsFADAUMRIwEAYDVQQDEwlsb2NhbGhvc3QwIBcNMTQwMzE1MTUzNTAxWhgPMjExNDAyMTkxNTM1MDFaMBQxEjAQBgNVBAMTCWxvY2FsaG9zdDCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAIakvOZa0/Las1D6Af+IHWmsIqDiUrhjcvaSn8NRkkI5GHHsZaFZpMqfn9oFLM8MMLE8sdQmhheK2897BAAfbdQuTYbynW6KlF3uJ8Hhjhx8uq/01TGBelxbinUzR8IxECY9WkDx9lEQTJTzVdQHiZJNIeCaq5ZIacx5MWiije2PU8X4Mbwv7TEXFSF5Z7UB41nmPK4eBVOrWyzzev7Gcn33p+9zCi8SM05ohUGhsUVDTG9QLvEJzn36rYGZCo2sDZnXhuQftkA+fAj4LgzHRqsTMvPtEAL2CGdfJTKJCohd0YOYZNEmPOGAVrBLKLEwuYF9AnW7yZABFvpKrG+uGpkCAwEAAaMhMB8wHQYDVR0OBBYEFCcl812k4xyA4HtkyWgWu8swtCL3MA0GCSqGSIb3DQEBCwUAA4IBAQBdWqMT4KFnZnEcb4Izw8vGK/NQHO621DDt3teNxrgVxCkGQs6BMe69NkPta3Bxq2I/ZhB+gG4HdEN1brBfi8KjUL8wnLRniq84AH/9iG1UAH2h1JuV8CshmOqfkHAnHC4uSLjnJiCerv4bI/T45FoivgHbkYmZoq1zOHkzchAhCJLGmxl0YOc00uEcHnV5l6G+M9+GjGCj4LE2+LrgYmg0Jn2If854hKlXl/qAYfqi4VUHXlBl6F8BtPqS9F02R7faIDGw7Aktv5MASbWrNxMmVioSI1850725L8lDOBkRCPsgtsR4+zseSVyrNcVB9BctsSrvBVJOwsY4AlES5gOZ1nsi5SQzb4NF8ZzSYqraNZcravs="

    func testMocosOwnTestKeystoreIsReadAndServed() throws {
        let keystore = try directory.write("cert.jks", "")
        try Data(base64Encoded: Self.mocoKeystore)!.write(to: URL(fileURLWithPath: keystore))
        let identity = try TLSIdentity(keystoreFile: keystore, storePassword: "mocohttps", keyPassword: "mocohttps")
        let certificate = try directory.write("moco.pem", PEMBlocks.encode(identity.certificateChain[0], label: "CERTIFICATE"))
        try directory.write("foo.json", #"[{"response": {"text": "foo"}}]"#)
        let process = try StubServerProcess(
            ["https", "-p", "0", "-c", "foo.json", "--https", "cert.jks", "--cert", "mocohttps", "--keystore", "mocohttps"],
            workingDirectory: directory.url)
        let port = try process.waitForPort()
        let result = try TLSTestFiles.run(
            "openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificate, "-verify_return_error", "-quiet",
            ], in: directory, input: "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(result.output.hasSuffix("foo"), result.output)
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }
}
