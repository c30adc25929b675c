import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A large response file sent from its descriptor a piece at a time, so a slow or stalled
/// client costs one piece of memory instead of the whole file. Files of at least
/// `threshold` bytes that are served as they are (not rendered as templates) take this path.
final class StreamedFileBody: @unchecked Sendable {
    /// Files this large or larger are streamed.
    static let threshold = 256 * 1024
    /// Bytes read per piece (the engine asks for the next once the previous drained).
    static let pieceSize = 64 * 1024

    let size: Int
    private let fd: Int32
    private let lock = NSLock()
    private var offset = 0

    private init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
    }

    deinit { _ = close(fd) }

    /// Takes `file` (opened confined, non-blocking, checked regular by `ConfinedFiles`) when it
    /// has at least `threshold` bytes; nil otherwise (the descriptor is closed and the caller
    /// reads the file whole). The size is the open descriptor's, so a file replaced meanwhile
    /// is read consistently.
    static func take(_ file: ConfinedFiles.OpenedFile) -> StreamedFileBody? {
        guard file.identity.size >= threshold else {
            _ = close(file.fd)
            return nil
        }
        return StreamedFileBody(fd: file.fd, size: file.identity.size)
    }

    /// The next piece; empty at the end (or if the file shrank: the engine then closes the
    /// connection, since fewer bytes than `Content-Length` were sent).
    func nextPiece() -> [UInt8] {
        lock.lock(); defer { lock.unlock() }
        let wanted = min(Self.pieceSize, size - offset)
        guard wanted > 0 else { return [] }
        var piece = [UInt8](repeating: 0, count: wanted)
        let count = piece.withUnsafeMutableBytes { buffer -> Int in
            while true {
                let result = pread(fd, buffer.baseAddress, wanted, off_t(offset))
                if result < 0 && errno == EINTR { continue }
                return result
            }
        }
        guard count > 0 else { offset = size; return [] }
        offset += count
        if count < wanted { piece.removeLast(wanted - count) }
        return piece
    }

    /// The engine's streamed reply for `head` with this file as its body.
    func reply(head: HTTPResponse, delay: Duration) -> HTTPReply {
        let response = HTTPStreamedResponse(head: head, contentLength: size) { [self] stream in
            let piece = nextPiece()
            if piece.isEmpty { stream.finish() } else { stream.write(piece) }
        }
        return HTTPReply(.streamed(response), delay: delay)
    }
}
