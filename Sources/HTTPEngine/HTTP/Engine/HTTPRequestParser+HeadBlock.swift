// A complete request head: request line, header lines and what they say about framing (RFC 9112).
extension HTTPRequestParser {
    /// Parses a complete head (request line, header lines, final empty line).
    static func parseHeadBlock(
        _ head: UnsafeBufferPointer<UInt8>, requestLineEnd: Int, maxBodyBytes: Int
    ) -> Result<(HTTPRequest, RequestFraming), HTTPParseFailure> {
        func bad(_ reason: String) -> Result<(HTTPRequest, RequestFraming), HTTPParseFailure> {
            .failure(HTTPParseFailure(status: 400, reason: reason))
        }
        // Request line: method SP request-target SP HTTP-version
        var lineLength = requestLineEnd
        if lineLength > 0 && head[lineLength - 1] == cr { lineLength -= 1 }
        var index = 0
        while index < lineLength && head[index] != UInt8(ascii: " ") {
            guard isTokenByte(head[index]) else { return bad("malformed request line: invalid character in method") }
            index += 1
        }
        guard index > 0, index < lineLength else { return bad("malformed request line") }
        let method = string(head, 0, index)
        index += 1
        let targetStart = index
        while index < lineLength && head[index] != UInt8(ascii: " ") {
            let byte = head[index]
            guard byte > 0x20 && byte != 0x7F else { return bad("malformed request line: invalid character in request target") }
            index += 1
        }
        guard index > targetStart, index < lineLength else { return bad("malformed request line: expected METHOD TARGET HTTP-VERSION") }
        var target = string(head, targetStart, index)
        index += 1
        guard let version = parseVersion(UnsafeBufferPointer(rebasing: head[index..<lineLength])) else {
            return bad("malformed request line: bad HTTP version")
        }
        guard version.major == 1 else {
            return .failure(HTTPParseFailure(status: 505, reason: "HTTP version \(version) is not supported"))
        }
        if target.utf8.first != UInt8(ascii: "/") { target = originForm(target) }

        // Header lines.
        var headers = HTTPHeaders()
        var framing = RequestFraming()
        framing.isHead = method == "HEAD"
        var contentLength: Int?
        var contentLengthTooLarge = false
        var transferEncoding: [Substring] = []
        var connectionClose = false
        var connectionKeepAlive = false
        var expect: String?
        var hostCount = 0
        var lineStart = requestLineEnd + 1
        while lineStart < head.count {
            var lineEnd = lineStart
            while head[lineEnd] != newline { lineEnd += 1 }
            let next = lineEnd + 1
            if lineEnd > lineStart && head[lineEnd - 1] == cr { lineEnd -= 1 }
            if lineEnd == lineStart { break } // the empty line
            let first = head[lineStart]
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                return bad("obsolete line folding in header block")
            }
            var colon = lineStart
            while colon < lineEnd && head[colon] != UInt8(ascii: ":") {
                guard isTokenByte(head[colon]) else { return bad("malformed header line: invalid character in field name") }
                colon += 1
            }
            guard colon > lineStart, colon < lineEnd else { return bad("malformed header line: expected NAME: VALUE") }
            var valueStart = colon + 1
            var valueEnd = lineEnd
            while valueStart < valueEnd && (head[valueStart] == 0x20 || head[valueStart] == 0x09) { valueStart += 1 }
            while valueEnd > valueStart && (head[valueEnd - 1] == 0x20 || head[valueEnd - 1] == 0x09) { valueEnd -= 1 }
            var position = valueStart
            while position < valueEnd {
                let byte = head[position]
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return bad("malformed header line: control character in field value") }
                position += 1
            }
            let name = string(head, lineStart, colon)
            let value = string(head, valueStart, valueEnd)
            switch colon - lineStart {
            case 14 where HTTPHeaders.sameName(name, "Content-Length"):
                guard let length = parseContentLength(value) else { return bad("invalid Content-Length \"\(value)\"") }
                if length < 0 { contentLengthTooLarge = true }
                if let previous = contentLength, previous != length { return bad("conflicting Content-Length headers") }
                contentLength = length
            case 17 where HTTPHeaders.sameName(name, "Transfer-Encoding"):
                transferEncoding.append(contentsOf: value.split(separator: ",").map { $0.trimmingSpaces })
            case 10 where HTTPHeaders.sameName(name, "Connection"):
                for token in value.split(separator: ",") {
                    let token = token.trimmingSpaces
                    if HTTPHeaders.sameName(String(token), "close") { connectionClose = true }
                    if HTTPHeaders.sameName(String(token), "keep-alive") { connectionKeepAlive = true }
                }
            case 6 where HTTPHeaders.sameName(name, "Expect"):
                expect = value
            case 4 where HTTPHeaders.sameName(name, "Host"):
                hostCount += 1
                // RFC 9110 §7.2: `uri-host [":" port]`, one of them. A list (`a, b`) is two
                // hosts, and a space is in no host.
                guard isValidHost(UnsafeBufferPointer(rebasing: head[valueStart..<valueEnd])) else {
                    return bad("invalid Host header \"\(value)\"")
                }
            default:
                break
            }
            headers.add(name: name, value: value)
            lineStart = next
        }

        // Body framing (RFC 9112 §6).
        if !transferEncoding.isEmpty {
            guard contentLength == nil && !contentLengthTooLarge else { return bad("both Content-Length and Transfer-Encoding sent") }
            guard version.minor >= 1 else { return bad("Transfer-Encoding in an HTTP/1.0 request") }
            guard let last = transferEncoding.last, HTTPHeaders.sameName(String(last), "chunked") else {
                return bad("Transfer-Encoding must end with chunked")
            }
            // RFC 9112 §6.1: chunked is applied at most once (two `chunked` lines included).
            guard !transferEncoding.dropLast().contains(where: { HTTPHeaders.sameName(String($0), "chunked") }) else {
                return bad("chunked transfer coding applied more than once")
            }
            guard transferEncoding.count == 1 else {
                return .failure(
                    HTTPParseFailure(
                        status: 501, reason: "transfer coding \"\(transferEncoding.dropLast().joined(separator: ", "))\" is not supported"))
            }
            framing.body = .chunked
        } else if contentLengthTooLarge {
            return .failure(HTTPParseFailure(status: 413, reason: "request body larger than \(maxBodyBytes) bytes"))
        } else if let length = contentLength, length > 0 {
            guard length <= maxBodyBytes else {
                return .failure(HTTPParseFailure(status: 413, reason: "request body larger than \(maxBodyBytes) bytes"))
            }
            framing.body = .length(length)
        }
        if let expect {
            guard HTTPHeaders.sameName(expect, "100-continue") else {
                return .failure(HTTPParseFailure(status: 417, reason: "unsupported expectation \"\(expect)\""))
            }
            framing.expectsContinue = version.minor >= 1 && framing.body != .none
        }
        // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host; none, or two, is a 400.
        // (Checked after framing, so a body that is too large still gets its 413.)
        if hostCount > 1 { return bad("more than one Host header") }
        if hostCount == 0 && version.minor >= 1 { return bad("an HTTP/1.1 request needs a Host header") }
        framing.keepAlive = version.minor >= 1 ? !connectionClose : (connectionKeepAlive && !connectionClose)
        return .success((HTTPRequest(method: method, target: target, version: version, headers: headers), framing))
    }
}
