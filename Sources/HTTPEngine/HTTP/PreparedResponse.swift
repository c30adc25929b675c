/// A response whose header block is serialised once (at stub compile time), so serving a
/// static stub costs a copy rather than a format. The engine still adds `Connection` and
/// picks the status line's version per request.
///
/// ```swift
/// let ok = PreparedResponse(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("hi".utf8)))
/// HTTPReply(.prepared(ok))
/// ```
public struct PreparedResponse: Sendable {
    public let response: HTTPResponse

    /// ` 200 OK\r\n` plus every header line and `Content-Length`, without the version in front
    /// and without the final empty line.
    let statusAndHeaders: [UInt8]
    /// The response names `Connection: close` itself, so the engine closes after sending it.
    let closesConnection: Bool

    public init(_ response: HTTPResponse) {
        self.response = response
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + response.headers.count * 32)
        closesConnection = HTTPResponseSerializer.appendStatusAndHeaders(of: response) { bytes.append(contentsOf: $0) }
        statusAndHeaders = bytes
    }
}

/// Writes response heads: always a reason phrase and CRLF line ends (corelibs URLSession rejects
/// anything else), framing owned by the engine.
enum HTTPResponseSerializer {
    /// Appends ` STATUS REASON\r\n`, the user's header lines (minus framing fields the engine
    /// owns) and `Content-Length` when the status allows a body. Returns whether the response
    /// itself asks to close the connection. Streamed and upgraded replies pass
    /// `contentLength: false` and add their own framing.
    static func appendStatusAndHeaders(of response: HTTPResponse, contentLength: Bool = true, _ append: (UnsafeRawBufferPointer) -> Void)
        -> Bool
    {
        func text(_ string: String) {
            var string = string
            string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
        func safe(_ string: String) -> String {
            // A CR or LF inside a value would split the head (response splitting); a NUL has no
            // place in a header. Configured values are refused at load time; rendered ones
            // (templates over request data) are neutralised here.
            // Bytes, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
            guard string.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else { return string }
            return String(decoding: string.utf8.map { $0 == 13 || $0 == 10 || $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
        let status = (100...999).contains(response.status) ? response.status : 500
        var reason = response.reason.map(safe) ?? HTTPStatus.reasonPhrase(for: status)
        if reason.isEmpty { reason = HTTPStatus.reasonPhrase(for: status) }
        text(" \(status) \(reason)\r\n")
        var closes = false
        for field in response.headers {
            switch field.name.utf8.count {
            case 14 where HTTPHeaders.sameName(field.name, "Content-Length"): continue
            case 17 where HTTPHeaders.sameName(field.name, "Transfer-Encoding"): continue
            case 10 where HTTPHeaders.sameName(field.name, "Connection"):
                if field.value.lowercased().contains("close") { closes = true }
                continue
            default: break
            }
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(HTTPRequestParser.isTokenByte) else { continue }
            text("\(field.name): \(safe(field.value))\r\n")
        }
        if contentLength && !HTTPStatus.forbidsBody(status) {
            text("Content-Length: \(response.body.count)\r\n")
        }
        return closes
    }
}
