#if canImport(Darwin)
// Apple platforms have no system OpenSSL, and this version does not serve TLS through
// Network.framework: `HTTPServer` with `tls` set fails to start with this message. Keystores
// and PEM files still parse (pure Swift), except PKCS#12, which needs OpenSSL.

/// What Apple platforms say when asked to serve HTTPS.
let tlsServingUnavailable =
    "HTTPS serving is available on Linux only (it uses the system's OpenSSL); on Apple platforms run `stubserver` on plain HTTP, or on a Linux machine"

final class TLSServerContext: @unchecked Sendable {
    static func make(_ identity: TLSIdentity) throws(TLSConfigurationError) -> TLSServerContext {
        throw TLSConfigurationError(tlsServingUnavailable)
    }
}

final class TLSServerSession {
    typealias Progress = TLSProgress

    init?(context: TLSServerContext, descriptor: Int32) { return nil }
    func handshake() -> Progress { .failed(tlsServingUnavailable) }
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Progress { .failed(tlsServingUnavailable) }
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Progress { .failed(tlsServingUnavailable) }
    var bufferedBytes: Int { 0 }
    func shutdown() {}
}

enum PKCS12Reader {
    static func identity(_ bytes: [UInt8], passwords: [String]) throws(TLSConfigurationError) -> TLSIdentity {
        throw TLSConfigurationError("a PKCS#12 keystore needs OpenSSL, which Apple platforms lack; \(tlsServingUnavailable)")
    }
}
#endif

#if canImport(Darwin)
extension CertificateFactory {
    package static func makeAuthority(commonName: String, days: Int) throws(TLSConfigurationError) -> Made {
        throw TLSConfigurationError("making development certificates needs OpenSSL; \(tlsServingUnavailable)")
    }

    package static func makeServer(names: [String], authority: Made, days: Int) throws(TLSConfigurationError) -> Made {
        throw TLSConfigurationError("making development certificates needs OpenSSL; \(tlsServingUnavailable)")
    }
}
#endif
