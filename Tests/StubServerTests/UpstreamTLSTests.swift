import Foundation
import StubServerTestSupport
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// `https` upstreams over the system's OpenSSL (loaded on first use), against `openssl s_server`.
final class UpstreamTLSTests: XCTestCase {
    private func call(_ client: UpstreamClient, _ url: String) throws -> Result<UpstreamResponse, UpstreamError> {
        let box = LockedBox<Result<UpstreamResponse, UpstreamError>?>(nil)
        let done = expectation(description: "upstream answered")
        client.send(try UpstreamRequest(method: "GET", url: url)) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(box.value)
    }

    private func client(trusting certificate: String?) -> UpstreamClient {
        var configuration = UpstreamClient.Configuration()
        configuration.trustedCertificatesFile = certificate
        configuration.connectTimeout = .seconds(10)
        return UpstreamClient(configuration: configuration)
    }

    func testGetsABodyOverTLSFromAServerItTrustsByNameAndByAddress() throws {
        let server = try TLSTestServer(files: ["hello.json": #"{"hello":"tls"}"#])
        let client = client(trusting: server.certificatePath)
        defer { client.shutdown() }
        for host in ["localhost", "127.0.0.1"] {
            let response = try call(client, "https://\(host):\(server.port)/hello.json").get()
            XCTAssertEqual(response.status, 200, host)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"hello":"tls"}"#, host)
        }
    }

    func testRefusesAServerWhoseCertificateIsNotTrusted() throws {
        let server = try TLSTestServer(files: ["hello.json": "{}"])
        let client = client(trusting: nil)
        defer { client.shutdown() }
        guard case .failure(let error) = try call(client, "https://localhost:\(server.port)/hello.json") else {
            return XCTFail("a self-signed certificate was accepted without being trusted")
        }
        XCTAssertTrue("\(error)".contains("certificate not trusted"), "\(error)")
        XCTAssertTrue("\(error)".contains("self-signed") || "\(error)".contains("self signed"), "\(error)")
    }

    func testRefusesACertificateForAnotherName() throws {
        // Trusted, but made for localhost only: 127.0.0.1 is not among its names.
        let server = try TLSTestServer(files: ["hello.json": "{}"], certificateNames: "DNS:localhost")
        let client = client(trusting: server.certificatePath)
        defer { client.shutdown() }
        XCTAssertEqual(try call(client, "https://localhost:\(server.port)/hello.json").get().status, 200)
        guard case .failure(let error) = try call(client, "https://127.0.0.1:\(server.port)/hello.json") else {
            return XCTFail("a certificate for localhost was accepted for 127.0.0.1")
        }
        XCTAssertTrue("\(error)".contains("mismatch"), "\(error)")
    }

    func testAnUnreadableTrustFileIsReportedOnEveryCall() throws {
        let server = try TLSTestServer(files: ["hello.json": "{}"])
        let client = client(trusting: "/nonexistent/ca.pem")
        defer { client.shutdown() }
        for _ in 0..<2 {
            guard case .failure(let error) = try call(client, "https://localhost:\(server.port)/hello.json") else {
                return XCTFail("an unreadable trust file was ignored")
            }
            XCTAssertTrue("\(error)".contains("cannot load trusted certificates from /nonexistent/ca.pem"), "\(error)")
        }
    }

    func testPlainHTTPToATLSPortFailsInsteadOfHanging() throws {
        let server = try TLSTestServer(files: ["hello.json": "{}"])
        var configuration = UpstreamClient.Configuration()
        configuration.readTimeout = .seconds(5)
        let client = UpstreamClient(configuration: configuration)
        defer { client.shutdown() }
        if case .success(let response) = try call(client, "http://127.0.0.1:\(server.port)/hello.json") {
            XCTAssertNotEqual(response.status, 200)
        }
    }

    func testStubserverProxiesToAnHTTPSUpstreamTrustedThroughSSLCertFile() throws {
        let server = try TLSTestServer(files: ["users.json": #"[{"id":1}]"#])
        let directory = try TemporaryDirectory()
        try directory.write(
            "conf.json", #"[{"request": {"uri": "/users"}, "response": {"proxy": "https://localhost:\#(server.port)/users.json"}}]"#)
        let process = try StubServerProcess(
            ["start", "-p", "0", "-c", "conf.json"], workingDirectory: directory.url,
            environment: ["SSL_CERT_FILE": server.certificatePath])
        let port = try process.waitForPort()
        let response = try RawHTTPClient.exchange(port: port, "GET /users HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, #"[{"id":1}]"#)
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
    }
}

/// What a running `stubserver` loads: URLSession's FoundationNetworking (and libcurl with some
/// thirty libraries behind it) never; OpenSSL only once an `https` upstream is called.
final class StubserverLoadedLibrariesTests: XCTestCase {
    /// All of `/proc/PID/maps`. Not `String(contentsOfFile:)`: for a file that reports size 0 it
    /// stops at the first read shorter than 4 KiB, and the kernel hands out maps a few whole lines
    /// at a time, so it returned the first ~4 KiB only (libssl beyond them in some runs).
    private func mappedFiles(_ pid: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"), file: file, line: line)
        defer { try? handle.close() }
        let text = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        // The stack is mapped near the top of the address space, so listed near the end.
        XCTAssertTrue(text.contains("[stack]"), "read only part of /proc/\(pid)/maps:\n\(text)", file: file, line: line)
        return text
    }

    func testStartsWithoutFoundationNetworkingAndLoadsOpenSSLOnlyForHTTPS() throws {
        #if !os(Linux)
        throw XCTSkip("reads /proc/PID/maps")
        #else
        let server = try TLSTestServer(files: ["a.json": "{}"])
        let directory = try TemporaryDirectory()
        try directory.write(
            "conf.json",
            #"""
            [{"request": {"uri": "/plain"}, "response": {"text": "plain"}},
             {"request": {"uri": "/secure"}, "response": {"proxy": "https://localhost:\#(server.port)/a.json"}}]
            """#)
        let process = try StubServerProcess(
            ["start", "-p", "0", "-q", "-c", "conf.json"], workingDirectory: directory.url,
            environment: ["SSL_CERT_FILE": server.certificatePath])
        let port = try process.waitForPort()
        XCTAssertEqual(try RawHTTPClient.exchange(port: port, "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
        let before = try mappedFiles(process.process.processIdentifier)
        XCTAssertFalse(before.contains("FoundationNetworking"), "stubserver loaded FoundationNetworking")
        XCTAssertFalse(before.contains("libcurl"), "stubserver loaded libcurl")
        XCTAssertFalse(before.contains("libssl"), "stubserver loaded OpenSSL before any https upstream was called")
        XCTAssertEqual(try RawHTTPClient.exchange(port: port, "GET /secure HTTP/1.1\r\nHost: x\r\n\r\n").text, "{}")
        XCTAssertTrue(try mappedFiles(process.process.processIdentifier).contains("libssl"), "no OpenSSL after an https call")
        process.send(signal: SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0)
        #endif
    }
}
