#if !canImport(Darwin)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The I/O both TLS sessions share (the client's `TLSSession`, the server's `TLSServerSession`):
/// reads and writes that report "wait until readable/writable" instead of blocking, and a
/// non-waiting close_notify.
extension OpenSSLLibrary {
    func read(_ session: OpaquePointer, into buffer: UnsafeMutableRawPointer, count: Int) -> TLSProgress {
        errorClear()
        let result = sessionRead(session, buffer, Int32(clamping: count))
        return result > 0 ? .done(Int(result)) : progress(of: session, after: result)
    }

    func write(_ session: OpaquePointer, _ bytes: UnsafeRawPointer, count: Int) -> TLSProgress {
        errorClear()
        let result = sessionWrite(session, bytes, Int32(clamping: count))
        return result > 0 ? .done(Int(result)) : progress(of: session, after: result)
    }

    /// Sends close_notify if it can without waiting; the socket is closed by the caller anyway.
    func shutdown(_ session: OpaquePointer) {
        errorClear()
        _ = sessionShutdown(session)
        errorClear()
    }

    /// What a failed (result <= 0) handshake step, read or write means.
    func progress(of session: OpaquePointer, after result: Int32) -> TLSProgress {
        switch sessionError(session, result) {
        case Self.errorWantRead: return .wantRead
        case Self.errorWantWrite: return .wantWrite
        case Self.errorZeroReturn: return .closed
        case Self.errorSyscall:
            // An unexpected end of the socket, or errno's failure.
            if let text = takeErrorText() { return .failed(text) }
            let code = errno
            return code == 0 ? .closed : .failed(String(cString: strerror(code)))
        default:
            return .failed(takeErrorText() ?? "OpenSSL error")
        }
    }
}
#endif
