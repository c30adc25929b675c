#if !canImport(Darwin)
/// The settings every `https` connection of one `UpstreamClient` shares: TLS 1.2 or later,
/// the peer's certificate verified against the system's authorities (OpenSSL's default paths,
/// so `SSL_CERT_FILE` and `SSL_CERT_DIR` apply) plus the client's `trustedCertificatesFile`.
/// Created on first use, on the client's loop thread.
final class TLSClientContext {
    let library: OpenSSLLibrary
    let context: OpaquePointer

    /// Fails with the reason when OpenSSL is missing or the trusted certificates file cannot be read.
    static func make(trustedCertificatesFile: String?) -> Result<TLSClientContext, UpstreamError> {
        let library: OpenSSLLibrary
        switch OpenSSLLibrary.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): return .failure(error)
        }
        library.errorClear()
        guard let context = library.contextNew(library.clientMethod()) else {
            return .failure(.unreachable("TLS: cannot create a context: \(library.takeErrorText() ?? "unknown OpenSSL error")"))
        }
        _ = library.contextControl(context, OpenSSLLibrary.controlSetMinimumVersion, OpenSSLLibrary.tls12Version, nil)
        _ = library.contextControl(context, OpenSSLLibrary.controlMode, OpenSSLLibrary.modePartialMovingWrites, nil)
        library.contextSetVerify(context, OpenSSLLibrary.verifyPeer, nil)
        // Without a system store (a bare container) only the explicit file is trusted.
        _ = library.contextDefaultVerifyPaths(context)
        library.errorClear()
        if let file = trustedCertificatesFile {
            guard library.contextLoadVerifyLocations(context, file, nil) == 1 else {
                let reason = library.takeErrorText() ?? "unreadable"
                library.contextFree(context)
                return .failure(.unreachable("TLS: cannot load trusted certificates from \(file): \(reason)"))
            }
        }
        return .success(TLSClientContext(library: library, context: context))
    }

    private init(library: OpenSSLLibrary, context: OpaquePointer) {
        self.library = library
        self.context = context
    }

    deinit { library.contextFree(context) }
}
#endif
