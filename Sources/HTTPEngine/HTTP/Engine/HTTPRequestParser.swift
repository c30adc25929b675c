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

    enum State {
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

    var state = State.head
    /// Where the head scan resumes (start of the first incomplete line), so a head arriving in
    /// many small reads is scanned once.
    private var scanOffset = 0
    private var requestLineEnd = -1
    var pending: HTTPRequest?
    var framing = RequestFraming()
    var body: [UInt8] = []

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
    /// What the body being read has allocated (its array grows by doubling).
    var bufferedBodyCapacity: Int { body.capacity }

    /// Method and target of the request whose body is being read, for error reports.
    var pendingRequestLine: (method: String?, target: String?) {
        (pending?.method, pending?.target)
    }

    /// Longest chunk-size line (size, extensions, CRLF) accepted.
    static let maxChunkLineBytes = 4096

    static let newline = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")

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
            guard let newlineIndex = SystemCalls.firstIndex(of: Self.newline, in: start, count: limit) else {
                if count > maxRequestLineBytes + 1 {
                    return (skipped, .failed(.init(status: 414, reason: "request line longer than \(maxRequestLineBytes) bytes")))
                }
                return (skipped, .needMore)
            }
            requestLineEnd = newlineIndex
            scanOffset = requestLineEnd + 1
        }

        // Find the empty line that ends the header block.
        var lineStart = scanOffset
        var headEnd = -1
        while lineStart < count {
            let remaining = count - lineStart
            guard let lineLength = SystemCalls.firstIndex(of: Self.newline, in: start + lineStart, count: remaining) else { break }
            let newlineIndex = lineStart + lineLength
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
}
