/// One RFC 6455 frame, and the codec for it: server frames go out unmasked, client frames
/// must arrive masked.
package struct WebSocketFrame: Equatable {
    package enum Opcode: UInt8 {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        package var isControl: Bool { rawValue & 0x8 != 0 }
    }

    package var fin: Bool
    package var opcode: Opcode
    package var payload: [UInt8]

    package init(fin: Bool, opcode: Opcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame's bytes as a server sends them.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        let count = payload.count
        if count < 126 {
            bytes.append(UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        return bytes + payload
    }

    /// A close frame with a status code and a short reason.
    package static func close(_ code: UInt16, reason: String = "") -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(123)))
    }

    /// Why bytes from a client are not an acceptable frame, with the close code to send.
    package struct Violation: Error, Equatable {
        package var code: UInt16
        package var reason: String

        package init(code: UInt16, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    /// Decodes the first frame in `bytes` (a client frame: masked). Returns nil when more bytes
    /// are needed, else the frame and how many bytes it used. `maxPayload` bounds what a header
    /// may announce before any of it is buffered.
    package static func decode(_ bytes: ArraySlice<UInt8>, maxPayload: Int) throws(Violation) -> (frame: WebSocketFrame, consumed: Int)? {
        guard bytes.count >= 2 else { return nil }
        let start = bytes.startIndex
        let first = bytes[start]
        let second = bytes[start + 1]
        guard first & 0x70 == 0 else { throw Violation(code: 1002, reason: "reserved bits set without an extension") }
        guard let opcode = Opcode(rawValue: first & 0x0F) else { throw Violation(code: 1002, reason: "unknown opcode \(first & 0x0F)") }
        let fin = first & 0x80 != 0
        guard second & 0x80 != 0 else { throw Violation(code: 1002, reason: "client frames must be masked") }
        var length = UInt64(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = UInt64(bytes[start + 2]) << 8 | UInt64(bytes[start + 3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes[start + index]) }
            offset = 10
        }
        if opcode.isControl {
            guard fin else { throw Violation(code: 1002, reason: "control frames cannot be fragmented") }
            guard length <= 125 else { throw Violation(code: 1002, reason: "control frames carry at most 125 bytes") }
        }
        guard length <= UInt64(maxPayload) else { throw Violation(code: 1009, reason: "message larger than \(maxPayload) bytes") }
        let total = offset + 4 + Int(length)
        guard bytes.count >= total else { return nil }
        let mask = Array(bytes[(start + offset)..<(start + offset + 4)])
        var payload = Array(bytes[(start + offset + 4)..<(start + total)])
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        return (WebSocketFrame(fin: fin, opcode: opcode, payload: payload), total)
    }
}
