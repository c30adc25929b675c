#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a request was refused before it reached a responder: the status to answer and a short
/// plain-text reason (which also goes to the journal and the log).
struct HTTPParseFailure: Error, Equatable {
    var status: Int
    var reason: String
}

/// What the head of a request says about the rest of the exchange.
struct RequestFraming {
    enum Body: Equatable {
        case none
        case length(Int)
        case chunked
    }

    var body: Body = .none
    /// Whether the connection may carry another request after this one.
    var keepAlive = true
    /// The client sent `Expect: 100-continue` and waits for a go-ahead before the body.
    var expectsContinue = false
    var isHead = false
}

/// An incremental HTTP/1.1 request parser (RFC 9112). Feed it the unread bytes of a connection;
/// it says how many it consumed and whether a request is complete. It never reads past a limit:
/// request line (414), header block (431), body (413); broken framing is 400.
struct HTTPRequestParser {
    enum Step {
        /// Everything available was consumed or is an incomplete line; read more.
        case needMore
        /// The head is complete and a body follows (lets the connection answer `100 Continue`).
        case headComplete(RequestFraming)
        /// A whole request (head and body).
        case request(HTTPRequest, RequestFraming)
        /// The request is refused; answer `status` and close.
        case failed(HTTPParseFailure)
    }

    private enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
    }

    let maxRequestLineBytes: Int
    let maxHeaderBytes: Int
    let maxBodyBytes: Int

    private var state = State.head
    /// Where the head scan resumes (start of the first incomplete line), so a head arriving in
    /// many small reads is scanned once.
    private var scanOffset = 0
    private var requestLineEnd = -1
    private var pending: HTTPRequest?
    private var framing = RequestFraming()
    private var body: [UInt8] = []

    init(maxRequestLineBytes: Int, maxHeaderBytes: Int, maxBodyBytes: Int) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// True between the first byte of a request and its completion (used by timeouts).
    var isMidRequest: Bool {
        if case .head = state { return scanOffset > 0 || requestLineEnd >= 0 }
        return true
    }

    /// Body bytes of the current request held so far (counted against the memory budget).
    var bufferedBodyBytes: Int { body.count }

    /// Method and target of the request whose body is being read, for error reports.
    var pendingRequestLine: (method: String?, target: String?) {
        (pending?.method, pending?.target)
    }

    /// Longest chunk-size line (size, extensions, CRLF) accepted.
    static let maxChunkLineBytes = 4096

    private static let newline = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// Parses as much of `bytes` as possible. Returns the number of bytes consumed (the caller
    /// drops them from its buffer) and what happened.
    mutating func advance(_ bytes: UnsafeBufferPointer<UInt8>) -> (consumed: Int, step: Step) {
        switch state {
        case .head:
            return parseHead(bytes)
        default:
            return parseBody(bytes)
        }
    }

    // MARK: - Head

    private mutating func parseHead(_ bytes: UnsafeBufferPointer<UInt8>) -> (consumed: Int, step: Step) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return (0, .needMore) }
        var skipped = 0
        if requestLineEnd < 0 && scanOffset == 0 {
            // RFC 9112 §2.2: ignore empty lines received before the request line.
            while skipped < bytes.count && (base[skipped] == Self.cr || base[skipped] == Self.newline) {
                if base[skipped] == Self.cr && skipped + 1 < bytes.count && base[skipped + 1] != Self.newline { break }
                skipped += 1
            }
            if skipped == bytes.count { return (skipped, .needMore) }
        }
        let start = base + skipped
        let count = bytes.count - skipped

        if requestLineEnd < 0 {
            let limit = min(count, maxRequestLineBytes + 2)
            guard let newline = memchr(start, Int32(Self.newline), limit) else {
                if count > maxRequestLineBytes + 1 { return (skipped, .failed(.init(status: 414, reason: "request line longer than \(maxRequestLineBytes) bytes"))) }
                return (skipped, .needMore)
            }
            requestLineEnd = start.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            scanOffset = requestLineEnd + 1
        }

        // Find the empty line that ends the header block.
        var lineStart = scanOffset
        var headEnd = -1
        while lineStart < count {
            let remaining = count - lineStart
            guard let found = memchr(start + lineStart, Int32(Self.newline), remaining) else { break }
            let newlineIndex = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let length = newlineIndex - lineStart
            if length == 0 || (length == 1 && start[lineStart] == Self.cr) {
                headEnd = newlineIndex + 1
                break
            }
            lineStart = newlineIndex + 1
            if lineStart - requestLineEnd - 1 > maxHeaderBytes { break }
        }
        if headEnd < 0 {
            scanOffset = lineStart
            if count - requestLineEnd - 1 > maxHeaderBytes {
                return (skipped, .failed(.init(status: 431, reason: "header block larger than \(maxHeaderBytes) bytes")))
            }
            return (skipped, .needMore)
        }
        if headEnd - requestLineEnd - 1 > maxHeaderBytes + 2 {
            return (skipped, .failed(.init(status: 431, reason: "header block larger than \(maxHeaderBytes) bytes")))
        }

        let lineEnd = requestLineEnd
        requestLineEnd = -1
        scanOffset = 0
        let head = UnsafeBufferPointer(start: start, count: headEnd)
        switch Self.parseHeadBlock(head, requestLineEnd: lineEnd, maxBodyBytes: maxBodyBytes) {
        case .failure(let failure):
            return (skipped + headEnd, .failed(failure))
        case .success(let (request, framing)):
            self.framing = framing
            switch framing.body {
            case .none:
                return (skipped + headEnd, .request(request, framing))
            case .length(let length):
                pending = request
                state = .fixedBody(remaining: length)
                body = []
                body.reserveCapacity(length)
                return (skipped + headEnd, .headComplete(framing))
            case .chunked:
                pending = request
                state = .chunkSize
                body = []
                return (skipped + headEnd, .headComplete(framing))
            }
        }
    }

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
                return .failure(HTTPParseFailure(status: 501, reason: "transfer coding \"\(transferEncoding.dropLast().joined(separator: ", "))\" is not supported"))
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

    // MARK: - Body

    private mutating func parseBody(_ bytes: UnsafeBufferPointer<UInt8>) -> (consumed: Int, step: Step) {
        var consumed = 0
        let count = bytes.count
        while true {
            switch state {
            case .head:
                return (consumed, .needMore)
            case .fixedBody(let remaining):
                let take = min(remaining, count - consumed)
                if take > 0 { body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed..<(consumed + take)])) }
                consumed += take
                if take < remaining {
                    state = .fixedBody(remaining: remaining - take)
                    return (consumed, .needMore)
                }
                return (consumed, finish())
            case .chunkSize:
                let available = count - consumed
                // The same limit whether the line came in one read or many, so the answer never
                // depends on how the client's bytes were split.
                let searched = min(available, Self.maxChunkLineBytes + 1)
                guard available > 0, let found = memchr(bytes.baseAddress! + consumed, Int32(Self.newline), searched) else {
                    if available > Self.maxChunkLineBytes { return (consumed, .failed(.init(status: 400, reason: "chunk size line longer than \(Self.maxChunkLineBytes) bytes"))) }
                    return (consumed, .needMore)
                }
                let lineEnd = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                var index = consumed
                var size = 0
                var digits = 0
                var significant = 0
                while index < lineEnd, let digit = Self.hexValue(bytes[index]) {
                    // Leading zeros add nothing: only significant digits can overflow.
                    if significant > 0 || digit != 0 { significant += 1 }
                    if significant > 15 { return (consumed, .failed(.init(status: 413, reason: "request body larger than \(maxBodyBytes) bytes"))) }
                    size = size << 4 | digit
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return (consumed, .failed(.init(status: 400, reason: "invalid chunk size"))) }
                // RFC 9112 §7.1: the line ends with CRLF (a bare LF is how smuggling starts), and
                // whitespace after the size may only precede a chunk extension (ignored).
                guard lineEnd > consumed, bytes[lineEnd - 1] == Self.cr else {
                    return (consumed, .failed(.init(status: 400, reason: "chunk size line not ended by CRLF")))
                }
                while index < lineEnd - 1 && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
                if index < lineEnd - 1 && bytes[index] != UInt8(ascii: ";") || index > consumed + digits && index == lineEnd - 1 {
                    return (consumed, .failed(.init(status: 400, reason: "invalid chunk size")))
                }
                consumed = lineEnd + 1
                if size == 0 {
                    state = .trailers(bytes: 0)
                } else {
                    guard size <= maxBodyBytes - body.count else {
                        return (consumed, .failed(.init(status: 413, reason: "request body larger than \(maxBodyBytes) bytes")))
                    }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let take = min(remaining, count - consumed)
                if take > 0 { body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed..<(consumed + take)])) }
                consumed += take
                if take < remaining {
                    state = .chunkData(remaining: remaining - take)
                    return (consumed, .needMore)
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                let available = count - consumed
                guard available > 0 else { return (consumed, .needMore) }
                if bytes[consumed] == Self.cr {
                    guard available > 1 else { return (consumed, .needMore) }
                    guard bytes[consumed + 1] == Self.newline else { return (consumed, .failed(.init(status: 400, reason: "chunk data not followed by CRLF"))) }
                    consumed += 2
                } else if bytes[consumed] == Self.newline {
                    return (consumed, .failed(.init(status: 400, reason: "chunk data not followed by CRLF")))
                } else {
                    return (consumed, .failed(.init(status: 400, reason: "chunk data longer than its chunk size")))
                }
                state = .chunkSize
            case .trailers(let seen):
                let available = count - consumed
                guard available > 0, let found = memchr(bytes.baseAddress! + consumed, Int32(Self.newline), available) else {
                    if seen + available > maxHeaderBytes { return (consumed, .failed(.init(status: 431, reason: "trailer section larger than \(maxHeaderBytes) bytes"))) }
                    return (consumed, .needMore)
                }
                let lineEnd = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let length = lineEnd - consumed
                let total = seen + length + 1
                if total > maxHeaderBytes { return (consumed, .failed(.init(status: 431, reason: "trailer section larger than \(maxHeaderBytes) bytes"))) }
                guard length > 0, bytes[lineEnd - 1] == Self.cr else {
                    return (consumed, .failed(.init(status: 400, reason: "chunked body line not ended by CRLF")))
                }
                let isEmpty = length == 1
                if !isEmpty {
                    // Trailer fields are read and dropped (RFC 9112 §7.1.2 lets a recipient
                    // discard them); they still have to look like fields.
                    var colon = consumed
                    while colon < lineEnd && bytes[colon] != UInt8(ascii: ":") {
                        guard Self.isTokenByte(bytes[colon]) else { return (consumed, .failed(.init(status: 400, reason: "malformed trailer field"))) }
                        colon += 1
                    }
                    guard colon > consumed, colon < lineEnd else { return (consumed, .failed(.init(status: 400, reason: "malformed trailer field"))) }
                }
                consumed = lineEnd + 1
                if isEmpty { return (consumed, finish()) }
                state = .trailers(bytes: total)
            }
        }
    }

    private mutating func finish() -> Step {
        var request = pending!
        pending = nil
        request.body = body
        body = []
        state = .head
        return .request(request, framing)
    }

    // MARK: - Helpers

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// RFC 9110 `tchar`.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenTable[Int(byte)]
    }

    private static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `HTTP/<digit>.<digit>` straight from the bytes (no string per request).
    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPVersion? {
        guard bytes.count == 8,
              bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
              bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"), bytes[6] == UInt8(ascii: "."),
              (48...57).contains(bytes[5]), (48...57).contains(bytes[7])
        else { return nil }
        if bytes[5] == 49 && bytes[7] == 49 { return .http1_1 }
        // RFC 9110 §2.5: a higher minor version of a major we speak is processed (and answered)
        // as the highest minor we implement, HTTP/1.1.
        if bytes[5] == 49 && bytes[7] > 49 { return .http1_1 }
        return HTTPVersion(major: Int(bytes[5] - 48), minor: Int(bytes[7] - 48))
    }

    /// RFC 3986 `host [":" port]` bytes: reg-name, IPv4 or a bracketed IP literal, and no
    /// comma (RFC 9110 lists would make it two hosts). Empty is allowed (RFC 9112 §3.2).
    private static func isValidHost(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            default:
                guard "-._~!$&'()*+;=%:[]".utf8.contains(byte) else { return false }
            }
        }
        return true
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Digits only (RFC 9110 §8.6); a list of identical values is accepted. Returns nil for
    /// malformed text and -1 for a well-formed number too large to represent.
    static func parseContentLength(_ text: String) -> Int? {
        var result: Int?
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let digits = part.trimmingSpaces
            guard !digits.isEmpty else { return nil }
            var value = 0
            var overflow = false
            for byte in digits.utf8 {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                if !overflow {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (plus, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                    if o1 || o2 { overflow = true } else { value = plus }
                }
            }
            if overflow { value = -1 }
            if let previous = result, previous != value { return nil }
            result = value
        }
        return result
    }

    /// Turns an absolute-form target (`http://host/path?q`) into origin form (`/path?q`).
    static func originForm(_ target: String) -> String {
        if target == "*" { return target }
        let lower = target.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return target }
        let afterScheme = target[target.index(target.startIndex, offsetBy: lower.hasPrefix("http://") ? 7 : 8)...]
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterScheme[slash...]
        return rest.first == "?" ? "/" + rest : String(rest)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}

extension String {
    var trimmingSpaces: Substring { self[...].trimmingSpaces }
}
