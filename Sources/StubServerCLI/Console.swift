#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered line output: every line reaches a pipe at once (tests and `tee` read it live),
/// and lines from several event-loop threads never interleave mid-line.
enum Console {
    static func out(_ line: String) { write(line + "\n", to: 1) }
    static func err(_ line: String) { write(line + "\n", to: 2) }

    private static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { write($0, to: fd) }
    }

    static func write(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBufferPointer { write($0, to: fd) }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let written = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
