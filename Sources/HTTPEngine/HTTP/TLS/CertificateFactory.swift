/// Makes keys and X.509 certificates through OpenSSL: a local certificate authority and server
/// certificates it signs (EC P-256, SHA-256), as DER. For development certificates only (Apple
/// platforms, without OpenSSL, say so: TLSServerUnavailable).
package enum CertificateFactory {
    package struct Made: Sendable {
        /// DER certificate and DER (SEC1) private key.
        package var certificate: [UInt8]
        package var privateKey: [UInt8]

        package init(certificate: [UInt8], privateKey: [UInt8]) {
            self.certificate = certificate
            self.privateKey = privateKey
        }
    }
}

#if !canImport(Darwin)
extension CertificateFactory {
    /// A self-signed authority that may sign server certificates.
    package static func makeAuthority(commonName: String, days: Int) throws(TLSConfigurationError) -> Made {
        let calls = try Calls.load()
        let key = try calls.generateKey()
        defer { calls.server.freePrivateKey(key) }
        let certificate = try calls.newCertificate(commonName: commonName, organization: "Rehearsal", key: key, days: days)
        defer { calls.server.freeCertificate(certificate) }
        calls.setIssuer(certificate, from: certificate)
        try calls.addExtensions(
            certificate, issuer: certificate,
            [
                (87, "critical,CA:TRUE,pathlen:0"), (83, "critical,keyCertSign,cRLSign"), (82, "hash"),
            ])
        return try calls.sign(certificate, with: key)
    }

    /// A server certificate for `names` (DNS names and IP addresses) signed by `authority`.
    package static func makeServer(names: [String], authority: Made, days: Int) throws(TLSConfigurationError) -> Made {
        let calls = try Calls.load()
        guard let issuer = calls.server.decode(authority.certificate, with: calls.server.decodeCertificate),
            let issuerKey = calls.server.decode(authority.privateKey, with: calls.server.decodePrivateKey)
        else { throw TLSConfigurationError("the development authority's files cannot be read back") }
        defer {
            calls.server.freeCertificate(issuer)
            calls.server.freePrivateKey(issuerKey)
        }
        let key = try calls.generateKey()
        defer { calls.server.freePrivateKey(key) }
        let certificate = try calls.newCertificate(
            commonName: names.first ?? "localhost", organization: "Rehearsal development", key: key, days: days)
        defer { calls.server.freeCertificate(certificate) }
        calls.setIssuer(certificate, from: issuer)
        let alternativeNames = names.map { isAddress($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        try calls.addExtensions(
            certificate, issuer: issuer,
            [
                (87, "critical,CA:FALSE"), (83, "critical,digitalSignature"), (126, "serverAuth"),
                (85, alternativeNames), (82, "hash"), (90, "keyid:always"),
            ])
        var made = try calls.sign(certificate, with: issuerKey)
        guard let keyBytes = calls.server.encode(key, with: calls.server.encodePrivateKey) else {
            throw TLSConfigurationError("cannot encode the new private key")
        }
        made.privateKey = keyBytes
        return made
    }

    static func isAddress(_ name: String) -> Bool {
        name.contains(":") || (!name.isEmpty && name.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// The generation calls, resolved once from the loaded libssl (libcrypto's symbols).
    private struct Calls {
        typealias KeyContextNew = @convention(c) (Int32, OpaquePointer?) -> OpaquePointer?
        typealias KeyContextStep = @convention(c) (OpaquePointer?) -> Int32
        typealias KeyContextControl = @convention(c) (OpaquePointer?, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
        typealias CurveSetter = @convention(c) (OpaquePointer?, Int32) -> Int32
        typealias KeyGenerate = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        typealias Free = @convention(c) (OpaquePointer?) -> Void
        typealias New = @convention(c) () -> OpaquePointer?
        typealias SetLong = @convention(c) (OpaquePointer?, Int) -> Int32
        typealias Getter = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias TimeAdjust = @convention(c) (OpaquePointer?, Int) -> OpaquePointer?
        typealias SetObject = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
        typealias AddNameEntry =
            @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt8>?, Int32, Int32, Int32) -> Int32
        typealias SetExtensionContext =
            @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, Int32) -> Void
        typealias MakeExtension = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> OpaquePointer?
        typealias AddExtension = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
        typealias Sign = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32

        let server: OpenSSLServerCalls
        let keyContextNew: KeyContextNew
        let keygenInit: KeyContextStep
        let keyContextControl: KeyContextControl
        let setCurve: CurveSetter?
        let keygen: KeyGenerate
        let keyContextFree: Free
        let certificateNew: New
        let setVersion: SetLong
        let serialNumber: Getter
        let integerSet: SetLong
        let notBefore: Getter
        let notAfter: Getter
        let timeAdjust: TimeAdjust
        let setPublicKey: SetObject
        let subjectName: Getter
        let addNameEntry: AddNameEntry
        let setIssuerName: SetObject
        let setExtensionContext: SetExtensionContext
        let makeExtension: MakeExtension
        let addExtension: AddExtension
        let freeExtension: Free
        let sha256: New
        let sign: Sign

        static func load() throws(TLSConfigurationError) -> Calls {
            let server = try OpenSSLServerCalls.shared.get()
            let library = server.library
            func find<T>(_ name: String, _ type: T.Type) -> T? { library.symbol(name, as: type) }
            guard let keyContextNew = find("EVP_PKEY_CTX_new_id", KeyContextNew.self),
                let keygenInit = find("EVP_PKEY_keygen_init", KeyContextStep.self),
                let keyContextControl = find("EVP_PKEY_CTX_ctrl", KeyContextControl.self),
                let keygen = find("EVP_PKEY_keygen", KeyGenerate.self),
                let keyContextFree = find("EVP_PKEY_CTX_free", Free.self),
                let certificateNew = find("X509_new", New.self),
                let setVersion = find("X509_set_version", SetLong.self),
                let serialNumber = find("X509_get_serialNumber", Getter.self),
                let integerSet = find("ASN1_INTEGER_set", SetLong.self),
                let notBefore = find("X509_getm_notBefore", Getter.self),
                let notAfter = find("X509_getm_notAfter", Getter.self),
                let timeAdjust = find("X509_gmtime_adj", TimeAdjust.self),
                let setPublicKey = find("X509_set_pubkey", SetObject.self),
                let subjectName = find("X509_get_subject_name", Getter.self),
                let addNameEntry = find("X509_NAME_add_entry_by_txt", AddNameEntry.self),
                let setIssuerName = find("X509_set_issuer_name", SetObject.self),
                let setExtensionContext = find("X509V3_set_ctx", SetExtensionContext.self),
                let makeExtension = find("X509V3_EXT_nconf_nid", MakeExtension.self),
                let addExtension = find("X509_add_ext", AddExtension.self),
                let freeExtension = find("X509_EXTENSION_free", Free.self),
                let sha256 = find("EVP_sha256", New.self),
                let sign = find("X509_sign", Sign.self)
            else { throw TLSConfigurationError("\(library.name) lacks a function needed to make certificates") }
            return Calls(
                server: server, keyContextNew: keyContextNew, keygenInit: keygenInit, keyContextControl: keyContextControl,
                setCurve: find("EVP_PKEY_CTX_set_ec_paramgen_curve_nid", CurveSetter.self), keygen: keygen,
                keyContextFree: keyContextFree, certificateNew: certificateNew, setVersion: setVersion, serialNumber: serialNumber,
                integerSet: integerSet, notBefore: notBefore, notAfter: notAfter, timeAdjust: timeAdjust, setPublicKey: setPublicKey,
                subjectName: subjectName, addNameEntry: addNameEntry, setIssuerName: setIssuerName,
                setExtensionContext: setExtensionContext, makeExtension: makeExtension, addExtension: addExtension,
                freeExtension: freeExtension, sha256: sha256, sign: sign)
        }

        func failure(_ what: String) -> TLSConfigurationError {
            TLSConfigurationError("cannot \(what): \(server.library.takeErrorText() ?? "unknown OpenSSL error")")
        }

        /// A new EC P-256 key.
        func generateKey() throws(TLSConfigurationError) -> OpaquePointer {
            server.library.errorClear()
            guard let context = keyContextNew(408 /* EVP_PKEY_EC */, nil) else { throw failure("create a key context") }
            defer { keyContextFree(context) }
            guard keygenInit(context) == 1 else { throw failure("start key generation") }
            let curve: Int32 = 415 // NID_X9_62_prime256v1
            // A function in OpenSSL 3, a macro over EVP_PKEY_CTX_ctrl in 1.1.
            let curveSet =
                setCurve.map { $0(context, curve) }
                ?? keyContextControl(context, 408, 2 | 4 /* PARAMGEN | KEYGEN */, 0x1001 /* EC_PARAMGEN_CURVE_NID */, curve, nil)
            guard curveSet > 0 else { throw failure("choose the P-256 curve") }
            var key: OpaquePointer?
            guard keygen(context, &key) == 1, let key else { throw failure("generate a key") }
            return key
        }

        func newCertificate(commonName: String, organization: String, key: OpaquePointer, days: Int) throws(TLSConfigurationError)
            -> OpaquePointer
        {
            guard let certificate = certificateNew() else { throw failure("create a certificate") }
            _ = setVersion(certificate, 2) // X.509 v3
            _ = integerSet(serialNumber(certificate), Int.random(in: 1...Int.max))
            _ = timeAdjust(notBefore(certificate), -3600) // an hour of clock skew
            _ = timeAdjust(notAfter(certificate), days * 86_400)
            _ = setPublicKey(certificate, key)
            let name = subjectName(certificate)
            for (field, value) in [("O", organization), ("CN", commonName)] {
                let bytes = Array(value.utf8)
                _ = addNameEntry(name, field, 0x1000 /* MBSTRING_UTF8 */, bytes, Int32(bytes.count), -1, 0)
            }
            return certificate
        }

        func setIssuer(_ certificate: OpaquePointer, from issuer: OpaquePointer) {
            _ = setIssuerName(certificate, subjectName(issuer))
        }

        func addExtensions(_ certificate: OpaquePointer, issuer: OpaquePointer, _ extensions: [(nid: Int32, value: String)])
            throws(TLSConfigurationError)
        {
            // X509V3_CTX is a small C struct (eight fields); zeroed room well beyond its size.
            let context = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 16)
            context.initializeMemory(as: UInt8.self, repeating: 0, count: 1024)
            defer { context.deallocate() }
            setExtensionContext(context, issuer, certificate, nil, nil, 0)
            for (nid, value) in extensions {
                guard let made = makeExtension(nil, context, nid, value) else { throw failure("make the certificate extension \(value)") }
                defer { freeExtension(made) }
                guard addExtension(certificate, made, -1) == 1 else { throw failure("add the certificate extension \(value)") }
            }
        }

        func sign(_ certificate: OpaquePointer, with key: OpaquePointer) throws(TLSConfigurationError) -> Made {
            guard sign(certificate, key, sha256()) > 0 else { throw failure("sign the certificate") }
            guard let der = server.encode(certificate, with: server.encodeCertificate),
                let keyBytes = server.encode(key, with: server.encodePrivateKey)
            else { throw failure("encode the certificate") }
            return Made(certificate: der, privateKey: keyBytes)
        }
    }
}
#endif
