#if !canImport(Darwin)
/// The OpenSSL server context every HTTPS connection of one `HTTPServer` shares: TLS 1.2 or
/// later, no renegotiation, the identity's certificate chain and private key (checked to match).
final class TLSServerContext: @unchecked Sendable {
    let calls: OpenSSLServerCalls
    let context: OpaquePointer

    static func make(_ identity: TLSIdentity) throws(TLSConfigurationError) -> TLSServerContext {
        let calls = try OpenSSLServerCalls.shared.get()
        let library = calls.library
        library.errorClear()
        guard let context = library.contextNew(calls.serverMethod()) else {
            throw TLSConfigurationError("cannot create a TLS context: \(library.takeErrorText() ?? "unknown OpenSSL error")")
        }
        let made = TLSServerContext(calls: calls, context: context)
        _ = library.contextControl(context, OpenSSLLibrary.controlSetMinimumVersion, OpenSSLLibrary.tls12Version, nil)
        _ = library.contextControl(context, OpenSSLLibrary.controlMode, OpenSSLLibrary.modePartialMovingWrites, nil)
        _ = calls.setOptions(context, OpenSSLServerCalls.optionNoRenegotiation)
        guard let leafBytes = identity.certificateChain.first, let leaf = calls.decode(leafBytes, with: calls.decodeCertificate) else {
            throw TLSConfigurationError(
                "the certificate is not a DER X.509 certificate OpenSSL can read: \(library.takeErrorText() ?? "no certificate")")
        }
        defer { calls.freeCertificate(leaf) }
        guard calls.useCertificate(context, leaf) == 1 else {
            throw TLSConfigurationError("OpenSSL refused the certificate: \(library.takeErrorText() ?? "unknown error")")
        }
        for (position, bytes) in identity.certificateChain.dropFirst().enumerated() {
            guard let intermediate = calls.decode(bytes, with: calls.decodeCertificate) else {
                throw TLSConfigurationError("chain certificate \(position + 2) is not a DER X.509 certificate")
            }
            // The context owns it from here (SSL_CTX_add_extra_chain_cert).
            if library.contextControl(context, OpenSSLServerCalls.controlExtraChainCertificate, 0, UnsafeMutableRawPointer(intermediate))
                != 1
            {
                calls.freeCertificate(intermediate)
            }
        }
        guard let key = calls.decode(identity.privateKey, with: calls.decodePrivateKey) else {
            throw TLSConfigurationError(
                "the private key is not a DER key OpenSSL can read (PKCS#8, RSA or EC expected): \(library.takeErrorText() ?? "unreadable")"
            )
        }
        defer { calls.freePrivateKey(key) }
        guard calls.usePrivateKey(context, key) == 1, calls.checkPrivateKey(context) == 1 else {
            library.errorClear()
            throw TLSConfigurationError("the private key does not belong to the certificate")
        }
        library.errorClear()
        return made
    }

    private init(calls: OpenSSLServerCalls, context: OpaquePointer) {
        self.calls = calls
        self.context = context
    }

    deinit { calls.library.contextFree(context) }
}

/// Reads a PKCS#12 file through OpenSSL (`d2i_PKCS12`, `PKCS12_parse`) into DER.
enum PKCS12Reader {
    static func identity(_ bytes: [UInt8], passwords: [String]) throws(TLSConfigurationError) -> TLSIdentity {
        let calls = try OpenSSLServerCalls.shared.get()
        let library = calls.library
        library.errorClear()
        guard let archive = calls.decode(bytes, with: calls.decodePKCS12) else {
            throw TLSConfigurationError("not a JKS keystore, and not PKCS#12 either: \(library.takeErrorText() ?? "unreadable")")
        }
        defer { calls.freePKCS12(archive) }
        var lastError = "wrong password"
        for password in passwords {
            var key: OpaquePointer?
            var certificate: OpaquePointer?
            var authorities: OpaquePointer?
            library.errorClear()
            guard calls.parsePKCS12(archive, password, &key, &certificate, &authorities) == 1 else {
                lastError = library.takeErrorText() ?? lastError
                continue
            }
            defer {
                if let key { calls.freePrivateKey(key) }
                if let certificate { calls.freeCertificate(certificate) }
                if let authorities {
                    for index in 0..<calls.stackCount(authorities) { calls.freeCertificate(calls.stackValue(authorities, index)) }
                    calls.stackFree(authorities)
                }
            }
            guard let key, let keyBytes = calls.encode(key, with: calls.encodePrivateKey) else {
                throw TLSConfigurationError("the PKCS#12 keystore holds no private key")
            }
            guard let certificate, let leaf = calls.encode(certificate, with: calls.encodeCertificate) else {
                throw TLSConfigurationError("the PKCS#12 keystore holds no certificate for its key")
            }
            var chain = [leaf]
            if let authorities {
                for index in 0..<calls.stackCount(authorities) {
                    if let extra = calls.stackValue(authorities, index), let der = calls.encode(extra, with: calls.encodeCertificate) {
                        chain.append(der)
                    }
                }
            }
            return TLSIdentity(certificateChain: chain, privateKey: keyBytes)
        }
        throw TLSConfigurationError("cannot open the PKCS#12 keystore with the passwords given (--keystore, --cert): \(lastError)")
    }
}
#endif
