#if !canImport(Darwin)

/// The server side of one TLS session over an accepted non-blocking socket: a handshake in
/// steps, then reads and writes that say "wait until readable/writable" instead of blocking.
/// Loop-confined, like the connection that owns it.
final class TLSServerSession {
    typealias Progress = TLSProgress

    private let calls: OpenSSLServerCalls
    private let session: OpaquePointer
    /// Keeps the context alive as long as a session uses it.
    private let context: TLSServerContext

    init?(context: TLSServerContext, descriptor: Int32) {
        calls = context.calls
        self.context = context
        guard let session = calls.library.sessionNew(context.context) else { return nil }
        self.session = session
        _ = calls.library.sessionSetDescriptor(session, descriptor)
        calls.setAcceptState(session)
    }

    deinit { calls.library.sessionFree(session) }

    /// One step of the handshake: `.done(0)` when it is complete.
    func handshake() -> Progress {
        calls.library.errorClear()
        let result = calls.doHandshake(session)
        return result == 1 ? .done(0) : calls.library.progress(of: session, after: result)
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Progress {
        calls.library.read(session, into: buffer, count: count)
    }

    func write(_ bytes: UnsafeRawPointer, count: Int) -> Progress {
        calls.library.write(session, bytes, count: count)
    }

    /// Decrypted bytes OpenSSL holds that no read has taken yet (the socket may be empty).
    var bufferedBytes: Int { Int(calls.pending(session)) }

    /// Sends close_notify if it can without waiting.
    func shutdown() { calls.library.shutdown(session) }
}
#endif
