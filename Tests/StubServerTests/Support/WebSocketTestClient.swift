import Foundation

@testable import StubServer

/// A minimal websocket client over `RawHTTPClient`: handshake, masked frames out, frames in.
final class WebSocketTestClient {
    let http: RawHTTPClient
    let handshake: RawHTTPResponse

    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// Connects and upgrades; throws if the server does not answer 101.
    init(port: Int, path: String, key: String = "dGhlIHNhbXBsZSBub25jZQ==", extraHeaders: String = "") throws {
        http = try RawHTTPClient(port: port)
        try http.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\(extraHeaders)\r\n")
        handshake = try http.readHead()
        guard handshake.status == 101 else { throw RawHTTPClientError.malformed("handshake answered \(handshake.statusLine)") }
    }

    /// Sends one frame, masked as a client must (or not, to test the server's refusal).
    func send(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) throws {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift)))
            }
        }
        if masked {
            let mask: [UInt8] = (0..<4).map { _ in UInt8.random(in: 0...255) }
            bytes += mask
            bytes += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        } else {
            bytes += payload
        }
        try http.send(bytes)
    }

    func sendText(_ text: String) throws { try send(opcode: 1, Array(text.utf8)) }

    /// The next frame from the server (which must be unmasked).
    func readFrame() throws -> Frame {
        let head = try http.readBytes(2)
        guard head[1] & 0x80 == 0 else { throw RawHTTPClientError.malformed("server frame is masked") }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let bytes = try http.readBytes(2)
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            length = try http.readBytes(8).reduce(0) { $0 << 8 | Int($1) }
        }
        return Frame(fin: head[0] & 0x80 != 0, opcode: head[0] & 0x0F, payload: try http.readBytes(length))
    }

    func readText() throws -> String {
        let frame = try readFrame()
        guard frame.opcode == 1 else { throw RawHTTPClientError.malformed("expected a text frame, got opcode \(frame.opcode)") }
        return frame.text
    }

    /// The close code of a close frame.
    static func closeCode(_ frame: Frame) -> Int? {
        guard frame.opcode == 8, frame.payload.count >= 2 else { return nil }
        return Int(frame.payload[0]) << 8 | Int(frame.payload[1])
    }
}
