import Foundation
import XCTest

@testable import StubServer

/// Parser corners from the second attack run (issue 21), each answered as RFC 9110/9112 say.
final class HTTPParserStrictnessTests: XCTestCase {
    private var server: HTTPServer!

    override func setUpWithError() throws {
        server = try startEchoServer(loops: 1)
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func exchange(_ request: String) throws -> RawHTTPResponse {
        try RawHTTPClient.exchange(port: server.port, request)
    }

    /// A Host that is a list (what two Host lines folded into one look like) names no single
    /// host: 400. Before, `Host: a, b` was served.
    func testHostListIsRefused() throws {
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: a, b\r\n\r\n").status, 400)
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: a b\r\n\r\n").status, 400)
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n").status, 200)
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: [::1]:80\r\nConnection: close\r\n\r\n").status, 200)
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: my-host.example\r\nConnection: close\r\n\r\n").status, 200)
    }

    /// Every byte RFC 3986's `reg-name`, `IP-literal` and port allow passes; others do not.
    func testHostBytesAreTheURIGrammars() throws {
        for byte in "-._~!$&'()*+;=%:[]" {
            let request = "GET / HTTP/1.1\r\nHost: a\(byte)b\r\nConnection: close\r\n\r\n"
            XCTAssertEqual(try exchange(request).status, 200, "Host: a\(byte)b")
        }
        for byte in "/@\"<>\\^`{|}?#" {
            XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: a\(byte)b\r\n\r\n").status, 400, "Host: a\(byte)b")
        }
    }

    /// HTTP/1.2 is processed and answered as HTTP/1.1 (RFC 9110 §2.5). Before, the answer
    /// claimed `HTTP/1.2`, a version the server does not speak.
    func testHigherMinorVersionIsAnsweredAsHTTP11() throws {
        let response = try exchange("GET /v HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(response.statusLine, "HTTP/1.1 200 OK")
        XCTAssertTrue(response.text.contains("HTTP/1.1"), response.text)
        XCTAssertEqual(try exchange("GET / HTTP/2.0\r\nHost: x\r\n\r\n").status, 505)
    }

    /// Chunked twice (two lines, or one list) is a 400 (RFC 9112 §6.1/§6.3). Before, 501.
    func testChunkedAppliedTwiceIsABadRequest() throws {
        let body = "5\r\nhello\r\n0\r\n\r\n"
        XCTAssertEqual(
            try exchange("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n" + body).status,
            400)
        XCTAssertEqual(try exchange("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n" + body).status, 400)
        XCTAssertEqual(try exchange("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n" + body).status, 501)
    }

    /// Chunk lines end with CRLF, and whitespace after a size only precedes an extension.
    /// Before, bare LFs and `5 ` were accepted.
    func testChunkLinesNeedCRLFAndNoTrailingSpace() throws {
        let head = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        XCTAssertEqual(try exchange(head + "5\nhello\r\n0\r\n\r\n").status, 400, "bare LF after the size")
        XCTAssertEqual(try exchange(head + "5\r\nhello\n0\r\n\r\n").status, 400, "bare LF after the data")
        XCTAssertEqual(try exchange(head + "5\r\nhello\r\n0\n\r\n").status, 400, "bare LF after the last chunk")
        XCTAssertEqual(try exchange(head + "5\r\nhello\r\n0\r\n\n").status, 400, "bare LF ending the trailers")
        XCTAssertEqual(try exchange(head + "5 \r\nhello\r\n0\r\n\r\n").status, 400, "a size with a trailing space")
        XCTAssertEqual(try exchange(head + "5\t\r\nhello\r\n0\r\n\r\n").status, 400, "a size with a trailing tab")
        let fine = try exchange(
            head.replacingOccurrences(of: "Host: x\r\n", with: "Host: x\r\nConnection: close\r\n")
                + "5 ;ext=1\r\nhello\r\n0\r\nX-T: 1\r\n\r\n")
        XCTAssertEqual(fine.status, 200, "whitespace before an extension, and a trailer field, stay fine")
        XCTAssertTrue(fine.text.contains("body=5"), fine.text)
    }
}
