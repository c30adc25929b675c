#if !canImport(Darwin)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One TLS client session over a connected non-blocking socket: the handshake, then reads and
/// writes that report "wait until readable/writable" instead of blocking. The host name is sent
/// (SNI) and checked against the certificate; an IP address is checked as an address.
/// Loop-confined, like the connection that owns it.
final class TLSSession {
    typealias Progress = TLSProgress

    private let library: OpenSSLLibrary
    private let session: OpaquePointer
    private let host: String

    init?(context: TLSClientContext, descriptor: Int32, host: String) {
        library = context.library
        guard let session = library.sessionNew(context.context) else { return nil }
        self.session = session
        self.host = host
        _ = library.sessionSetDescriptor(session, descriptor)
        if Self.isAddress(host) {
            _ = library.parametersSetAddress(library.sessionParameters(session), host)
        } else {
            // SSL_set_tlsext_host_name (a macro over SSL_ctrl); OpenSSL copies the name.
            _ = host.withCString {
                library.sessionControl(session, OpenSSLLibrary.controlSetHostName, 0, UnsafeMutableRawPointer(mutating: $0))
            }
            _ = library.sessionSetHost(session, host)
        }
    }

    deinit { library.sessionFree(session) }

    /// One step of the handshake: `.done(0)` when it is complete.
    func handshake() -> Progress {
        library.errorClear()
        let result = library.sessionConnect(session)
        if result == 1 { return .done(0) }
        let progress = library.progress(of: session, after: result)
        guard case .failed(let reason) = progress else { return progress }
        let verdict = library.sessionVerifyResult(session)
        if verdict != OpenSSLLibrary.verifyOK, let text = library.verifyErrorText(verdict) {
            return .failed("TLS handshake with \(host) failed: certificate not trusted (\(String(cString: text)))")
        }
        return .failed("TLS handshake with \(host) failed: \(reason)")
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Progress {
        library.read(session, into: buffer, count: count)
    }

    func write(_ bytes: UnsafeRawPointer, count: Int) -> Progress {
        library.write(session, bytes, count: count)
    }

    /// Sends close_notify if it can without waiting; the socket is closed by the caller anyway.
    func shutdown() { library.shutdown(session) }

    private static func isAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }
}
#endif
