import Foundation
import StubServer

/// A responder for engine tests: describes the request it received so tests can check parsing.
///
/// - `/delay/<ms>` answers after that many milliseconds (a loop timer).
/// - `/status/<code>` answers with that status.
/// - `/big/<bytes>` answers with a body of that many bytes.
/// - `/prepared` answers with a pre-serialised response.
/// - `/close` closes without answering.
/// - anything else: 200 with `METHOD TARGET VERSION body=<count> <headers>`.
struct EchoResponder: HTTPResponder {
    /// Called (on the loop) as each request reaches the responder, so tests can wait for it.
    var onRequest: (@Sendable (HTTPRequest) -> Void)?

    static let prepared = PreparedResponse(
        HTTPResponse(
            status: 200, headers: ["Content-Type": "text/plain", "X-Prepared": "yes"], body: Array("prepared\n".utf8)
        ))

    func respond(to request: HTTPRequest) -> HTTPReply {
        onRequest?(request)
        let path = String(request.rawPath)
        if path.hasPrefix("/delay/"), let ms = Int(path.dropFirst(7)) {
            return HTTPReply(.response(describe(request)), delay: .milliseconds(ms))
        }
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst(8)) {
            return HTTPReply(.response(HTTPResponse(status: code, body: Array("status \(code)".utf8))))
        }
        if path.hasPrefix("/big/"), let size = Int(path.dropFirst(5)) {
            let body = (0..<size).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
            return HTTPReply(.response(HTTPResponse(status: 200, body: body)))
        }
        if path == "/prepared" { return HTTPReply(.prepared(Self.prepared)) }
        if path == "/close" { return HTTPReply(.close) }
        return HTTPReply(.response(describe(request)))
    }

    private func describe(_ request: HTTPRequest) -> HTTPResponse {
        let headers = request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
        let text = "\(request.method) \(request.target) \(request.version) body=\(request.body.count) \(headers)"
        var response = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8))
        response.headers.add(
            name: "X-Body",
            value: String(decoding: request.body.prefix(200), as: UTF8.self)
                .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n"))
        return response
    }
}

/// Starts an `HTTPServer` with `EchoResponder` on an ephemeral port for one test.
func startEchoServer(
    limits: HTTPServerLimits = HTTPServerLimits(),
    loops: Int = 0,
    onRequest: (@Sendable (HTTPRequest) -> Void)? = nil,
    onRejection: (@Sendable (HTTPRejection) -> Void)? = nil
) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(limits: limits)
    configuration.eventLoopCount = loops
    let server = HTTPServer(configuration: configuration, responder: EchoResponder(onRequest: onRequest), onRejection: onRejection)
    try server.start()
    return server
}
