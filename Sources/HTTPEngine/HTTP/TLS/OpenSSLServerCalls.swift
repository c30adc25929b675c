#if !canImport(Darwin)
/// The OpenSSL calls only a TLS *server* needs (on top of `OpenSSLLibrary`'s client set):
/// the server method, certificates and keys in DER, PEM and PKCS#12 form, and the
/// server side of a session. Resolved once, from the same libssl the upstream client loads.
/// Every function exists with the same signature in OpenSSL 1.1.0 and later.
final class OpenSSLServerCalls: @unchecked Sendable {
    typealias Method = @convention(c) () -> OpaquePointer?
    typealias UseObject = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias ContextCheck = @convention(c) (OpaquePointer?) -> Int32
    typealias ContextOptions = @convention(c) (OpaquePointer?, UInt) -> UInt
    typealias DecodeDER =
        @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> OpaquePointer?
    typealias FreeObject = @convention(c) (OpaquePointer?) -> Void
    typealias MemoryBIO = @convention(c) (UnsafeRawPointer?, Int32) -> OpaquePointer?
    typealias FreeBIO = @convention(c) (OpaquePointer?) -> Int32
    typealias ReadPEM =
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias ParsePKCS12 =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?,
            UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32
    typealias StackCount = @convention(c) (OpaquePointer?) -> Int32
    typealias StackValue = @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?
    typealias EncodeDER = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    typealias SessionSetup = @convention(c) (OpaquePointer?) -> Void
    typealias SessionPending = @convention(c) (OpaquePointer?) -> Int32

    /// SSL_CTRL_EXTRA_CHAIN_CERT: the context takes ownership of the certificate.
    static let controlExtraChainCertificate: Int32 = 14
    /// SSL_OP_NO_RENEGOTIATION (1.1.0h+; ignored before): a client cannot make a read want a write.
    static let optionNoRenegotiation: UInt = 1 << 30

    let library: OpenSSLLibrary
    let serverMethod: Method
    let useCertificate: UseObject
    let usePrivateKey: UseObject
    let checkPrivateKey: ContextCheck
    let setOptions: ContextOptions
    let decodeCertificate: DecodeDER
    let freeCertificate: FreeObject
    let decodePrivateKey: DecodeDER
    let freePrivateKey: FreeObject
    let encodeCertificate: EncodeDER
    let encodePrivateKey: EncodeDER
    let newMemoryBIO: MemoryBIO
    let freeBIO: FreeBIO
    let readPEMCertificate: ReadPEM
    let readPEMPrivateKey: ReadPEM
    let decodePKCS12: DecodeDER
    let parsePKCS12: ParsePKCS12
    let freePKCS12: FreeObject
    let stackCount: StackCount
    let stackValue: StackValue
    let stackFree: FreeObject
    let setAcceptState: SessionSetup
    let doHandshake: OpenSSLLibrary.SessionStep
    let pending: SessionPending
    let freeMemory: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void

    /// Loaded once; the failure says what is missing.
    static let shared: Result<OpenSSLServerCalls, TLSConfigurationError> = load()

    private static func load() -> Result<OpenSSLServerCalls, TLSConfigurationError> {
        switch OpenSSLLibrary.shared {
        case .failure:
            return .failure(
                TLSConfigurationError(
                    "HTTPS serving needs OpenSSL's libssl (tried \(OpenSSLLibrary.candidates.joined(separator: ", "))): install it, e.g. `apt-get install libssl3`"
                ))
        case .success(let library):
            guard let calls = OpenSSLServerCalls(library: library) else {
                return .failure(
                    TLSConfigurationError("\(library.name) lacks a function HTTPS serving needs (OpenSSL 1.1.0 or later expected)"))
            }
            return .success(calls)
        }
    }

    private init?(library: OpenSSLLibrary) {
        self.library = library
        func find<T>(_ name: String, _ type: T.Type) -> T? { library.symbol(name, as: type) }
        guard let serverMethod = find("TLS_server_method", Method.self),
            let useCertificate = find("SSL_CTX_use_certificate", UseObject.self),
            let usePrivateKey = find("SSL_CTX_use_PrivateKey", UseObject.self),
            let checkPrivateKey = find("SSL_CTX_check_private_key", ContextCheck.self),
            let setOptions = find("SSL_CTX_set_options", ContextOptions.self),
            let decodeCertificate = find("d2i_X509", DecodeDER.self),
            let freeCertificate = find("X509_free", FreeObject.self),
            let decodePrivateKey = find("d2i_AutoPrivateKey", DecodeDER.self),
            let freePrivateKey = find("EVP_PKEY_free", FreeObject.self),
            let encodeCertificate = find("i2d_X509", EncodeDER.self),
            let encodePrivateKey = find("i2d_PrivateKey", EncodeDER.self),
            let newMemoryBIO = find("BIO_new_mem_buf", MemoryBIO.self),
            let freeBIO = find("BIO_free", FreeBIO.self),
            let readPEMCertificate = find("PEM_read_bio_X509", ReadPEM.self),
            let readPEMPrivateKey = find("PEM_read_bio_PrivateKey", ReadPEM.self),
            let decodePKCS12 = find("d2i_PKCS12", DecodeDER.self),
            let parsePKCS12 = find("PKCS12_parse", ParsePKCS12.self),
            let freePKCS12 = find("PKCS12_free", FreeObject.self),
            let stackCount = find("OPENSSL_sk_num", StackCount.self),
            let stackValue = find("OPENSSL_sk_value", StackValue.self),
            let stackFree = find("OPENSSL_sk_free", FreeObject.self),
            let setAcceptState = find("SSL_set_accept_state", SessionSetup.self),
            let doHandshake = find("SSL_do_handshake", OpenSSLLibrary.SessionStep.self),
            let pending = find("SSL_pending", SessionPending.self),
            let freeMemory = find("CRYPTO_free", (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void).self)
        else { return nil }
        self.serverMethod = serverMethod
        self.useCertificate = useCertificate
        self.usePrivateKey = usePrivateKey
        self.checkPrivateKey = checkPrivateKey
        self.setOptions = setOptions
        self.decodeCertificate = decodeCertificate
        self.freeCertificate = freeCertificate
        self.decodePrivateKey = decodePrivateKey
        self.freePrivateKey = freePrivateKey
        self.encodeCertificate = encodeCertificate
        self.encodePrivateKey = encodePrivateKey
        self.newMemoryBIO = newMemoryBIO
        self.freeBIO = freeBIO
        self.readPEMCertificate = readPEMCertificate
        self.readPEMPrivateKey = readPEMPrivateKey
        self.decodePKCS12 = decodePKCS12
        self.parsePKCS12 = parsePKCS12
        self.freePKCS12 = freePKCS12
        self.stackCount = stackCount
        self.stackValue = stackValue
        self.stackFree = stackFree
        self.setAcceptState = setAcceptState
        self.doHandshake = doHandshake
        self.pending = pending
        self.freeMemory = freeMemory
    }

    /// The DER encoding of an OpenSSL object through its `i2d_` function.
    func encode(_ object: OpaquePointer, with encoder: EncodeDER) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = encoder(object, &buffer)
        guard length > 0, let buffer else { return nil }
        defer { freeMemory(buffer, nil, 0) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    /// Parses one DER object through its `d2i_` function; nil when the bytes are not one.
    func decode(_ bytes: [UInt8], with decoder: DecodeDER) -> OpaquePointer? {
        bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return decoder(nil, &cursor, buffer.count)
        }
    }
}
#endif
