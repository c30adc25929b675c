// The body after a head: Content-Length bytes, or chunks with their size lines and trailers.
extension HTTPRequestParser {
    /// Appends up to `remaining` body bytes from `bytes` at `offset` (advanced past them);
    /// returns how many are still to come.
    @inline(__always)
    private mutating func moveBody(from bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int, upTo remaining: Int) -> Int {
        let take = min(remaining, bytes.count - offset)
        if take > 0 { body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + take)])) }
        offset += take
        return remaining - take
    }

    mutating func parseBody(_ bytes: UnsafeBufferPointer<UInt8>) -> (consumed: Int, step: Step) {
        var consumed = 0
        let count = bytes.count
        while true {
            switch state {
            case .head:
                return (consumed, .needMore)
            case .fixedBody(let remaining):
                let left = moveBody(from: bytes, at: &consumed, upTo: remaining)
                guard left == 0 else {
                    state = .fixedBody(remaining: left)
                    return (consumed, .needMore)
                }
                return (consumed, finish())
            case .chunkSize:
                let available = count - consumed
                // The same limit whether the line came in one read or many, so the answer never
                // depends on how the client's bytes were split.
                let searched = min(available, Self.maxChunkLineBytes + 1)
                guard available > 0,
                    let lineLength = SystemCalls.firstIndex(of: Self.newline, in: bytes.baseAddress! + consumed, count: searched)
                else {
                    if available > Self.maxChunkLineBytes {
                        return (
                            consumed, .failed(.init(status: 400, reason: "chunk size line longer than \(Self.maxChunkLineBytes) bytes"))
                        )
                    }
                    return (consumed, .needMore)
                }
                let lineEnd = consumed + lineLength
                var index = consumed
                var size = 0
                var digits = 0
                var significant = 0
                while index < lineEnd, let digit = Self.hexValue(bytes[index]) {
                    // Leading zeros add nothing: only significant digits can overflow.
                    if significant > 0 || digit != 0 { significant += 1 }
                    if significant > 15 {
                        return (consumed, .failed(.init(status: 413, reason: "request body larger than \(maxBodyBytes) bytes")))
                    }
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
                let left = moveBody(from: bytes, at: &consumed, upTo: remaining)
                guard left == 0 else {
                    state = .chunkData(remaining: left)
                    return (consumed, .needMore)
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                let available = count - consumed
                guard available > 0 else { return (consumed, .needMore) }
                if bytes[consumed] == Self.cr {
                    guard available > 1 else { return (consumed, .needMore) }
                    guard bytes[consumed + 1] == Self.newline else {
                        return (consumed, .failed(.init(status: 400, reason: "chunk data not followed by CRLF")))
                    }
                    consumed += 2
                } else if bytes[consumed] == Self.newline {
                    return (consumed, .failed(.init(status: 400, reason: "chunk data not followed by CRLF")))
                } else {
                    return (consumed, .failed(.init(status: 400, reason: "chunk data longer than its chunk size")))
                }
                state = .chunkSize
            case .trailers(let seen):
                let available = count - consumed
                guard available > 0,
                    let lineLength = SystemCalls.firstIndex(of: Self.newline, in: bytes.baseAddress! + consumed, count: available)
                else {
                    if seen + available > maxHeaderBytes {
                        return (consumed, .failed(.init(status: 431, reason: "trailer section larger than \(maxHeaderBytes) bytes")))
                    }
                    return (consumed, .needMore)
                }
                let lineEnd = consumed + lineLength
                let length = lineEnd - consumed
                let total = seen + length + 1
                if total > maxHeaderBytes {
                    return (consumed, .failed(.init(status: 431, reason: "trailer section larger than \(maxHeaderBytes) bytes")))
                }
                guard length > 0, bytes[lineEnd - 1] == Self.cr else {
                    return (consumed, .failed(.init(status: 400, reason: "chunked body line not ended by CRLF")))
                }
                let isEmpty = length == 1
                if !isEmpty {
                    // Trailer fields are read and dropped (RFC 9112 §7.1.2 lets a recipient
                    // discard them); they still have to look like fields.
                    var colon = consumed
                    while colon < lineEnd && bytes[colon] != UInt8(ascii: ":") {
                        guard Self.isTokenByte(bytes[colon]) else {
                            return (consumed, .failed(.init(status: 400, reason: "malformed trailer field")))
                        }
                        colon += 1
                    }
                    guard colon > consumed, colon < lineEnd else {
                        return (consumed, .failed(.init(status: 400, reason: "malformed trailer field")))
                    }
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
}
