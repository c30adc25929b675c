import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// Small protocol corners from the attack run: the answer must not depend on how the bytes were
/// split, zero padding is not size, HEAD never gets a body, and Host is required exactly once.
final class HTTPParserNitsTests: XCTestCase {
    private var server: HTTPServer!

    override func setUpWithError() throws {
        server = try startEchoServer(loops: 1)
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    /// Sends `pieces` one write at a time (with a pause so each is its own read) and returns
    /// the status, or 0 when the connection closed without one.
    private func status(sending pieces: [[UInt8]]) throws -> Int {
        let client = try RawHTTPClient(port: server.port)
        for piece in pieces {
            try client.send(piece)
            if pieces.count > 1 { Thread.sleep(forTimeInterval: 0.005) }
        }
        return (try? client.readResponse().status) ?? 0
    }

    private func chunked(extensionLength: Int) -> [UInt8] {
        let ext = ";name=" + String(repeating: "v", count: extensionLength)
        return Array("POST /chunks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\(ext)\r\nhello\r\n0\r\n\r\n".utf8)
    }

    /// A chunk-extension line gets the same answer in one read as split anywhere. Before, a
    /// 5,000-byte extension was accepted in one read and 400 when split.
    func testChunkExtensionAnswerDoesNotDependOnHowItIsSplit() throws {
        for length in [3, 3_000, 5_000] {
            let request = chunked(extensionLength: length)
            let whole = try status(sending: [request])
            XCTAssertEqual(whole, length < 4096 ? 200 : 400, "extension of \(length) bytes in one read")
            let head = request.firstIndex(of: UInt8(ascii: ";"))!
            for cut in [head - 1, head + 1, head + length / 2, head + length + 6] {
                let split = try status(sending: [Array(request[..<cut]), Array(request[cut...])])
                XCTAssertEqual(split, whole, "extension of \(length) bytes split at \(cut)")
            }
        }
        // Byte by byte, a short extension still works.
        let small = chunked(extensionLength: 3)
        let bodyStart = small.count - 20
        XCTAssertEqual(try status(sending: [Array(small[..<bodyStart])] + small[bodyStart...].map { [$0] }), 200)
    }

    /// Leading zeros do not make a chunk size large. Before, 16 digits got 413 and 15 got 200.
    func testZeroPaddedChunkSizesAreAccepted() throws {
        for digits in [1, 15, 16, 40] {
            let size = String(repeating: "0", count: digits - 1) + "5"
            let request = "POST /z HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n"
            let response = try RawHTTPClient.exchange(port: server.port, request)
            XCTAssertEqual(response.status, 200, "\(digits)-digit size: \(response.text)")
            XCTAssertTrue(response.text.contains("body=5"), response.text)
        }
        // Sixteen significant digits are still too large.
        let huge = try RawHTTPClient.exchange(
            port: server.port, "POST /z HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n")
        XCTAssertEqual(huge.status, 413)
    }

    /// An error answer to HEAD carries Content-Length but no body. Before, the reason text
    /// followed the head, which a client reads as the start of the next response.
    func testErrorAnswersToHEADHaveNoBody() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.send("HEAD /\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        let bytes = try client.readUntilClose()
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 414 "), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n"), "a HEAD answer ends with its head: \(text)")
        XCTAssertNotNil(text.range(of: "Content-Length: [1-9]", options: .regularExpression), text)

        let badHeader = try RawHTTPClient(port: server.port)
        try badHeader.send("HEAD / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n")
        let answer = String(decoding: try badHeader.readUntilClose(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 400 "), answer)
        XCTAssertTrue(answer.hasSuffix("\r\n\r\n"), answer)
    }

    /// RFC 9112 §3.2: HTTP/1.1 without Host, or with two, is 400; HTTP/1.0 may omit it.
    func testHostIsRequiredExactlyOnceInHTTP11() throws {
        let missing = try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n")
        XCTAssertEqual(missing.status, 400)
        XCTAssertTrue(missing.text.contains("Host"), missing.text)
        let twice = try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        XCTAssertEqual(twice.status, 400)
        XCTAssertTrue(twice.text.contains("more than one Host"), twice.text)
        XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.0\r\n\r\n").status, 200)
        XCTAssertEqual(try RawHTTPClient.exchange(port: server.port, "GET / HTTP/1.1\r\nhost: a\r\n\r\n").status, 200)
    }
}
