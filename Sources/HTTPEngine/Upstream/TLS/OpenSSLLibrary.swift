#if !canImport(Darwin)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system's OpenSSL (libssl 3 or 1.1), loaded with `dlopen` the first time an `https`
/// upstream is called. Not linked: linking FoundationNetworking for URLSession pulled libcurl
/// and some thirty libraries into every start of `stubserver` (about 10 ms of its start-up),
/// for a feature most configurations never use.
///
/// Only the calls a non-blocking TLS client needs; every one of them exists with the same
/// signature in OpenSSL 1.1.0 and later.
final class OpenSSLLibrary: @unchecked Sendable {
    typealias Method = @convention(c) () -> OpaquePointer?
    typealias ContextNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias ContextFree = @convention(c) (OpaquePointer?) -> Void
    typealias ContextStatus = @convention(c) (OpaquePointer?) -> Int32
    typealias ContextLoadLocations = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias ContextSetVerify = @convention(c) (OpaquePointer?, Int32, OpaquePointer?) -> Void
    typealias Control = @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    typealias SessionNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SessionFree = @convention(c) (OpaquePointer?) -> Void
    typealias SessionSetDescriptor = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias SessionSetName = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias SessionStep = @convention(c) (OpaquePointer?) -> Int32
    typealias SessionRead = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    typealias SessionWrite = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
    typealias SessionError = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias SessionVerifyResult = @convention(c) (OpaquePointer?) -> Int
    typealias SessionParameters = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias ParametersSetAddress = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias VerifyErrorText = @convention(c) (Int) -> UnsafePointer<CChar>?
    typealias ErrorNext = @convention(c) () -> UInt
    typealias ErrorText = @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    typealias ErrorClear = @convention(c) () -> Void

    // Constants from ssl.h / x509_vfy.h, stable since OpenSSL 1.1.0.
    static let errorNone: Int32 = 0
    static let errorSSL: Int32 = 1
    static let errorWantRead: Int32 = 2
    static let errorWantWrite: Int32 = 3
    static let errorSyscall: Int32 = 5
    static let errorZeroReturn: Int32 = 6
    static let verifyPeer: Int32 = 1
    static let controlMode: Int32 = 33
    static let controlSetHostName: Int32 = 55
    static let controlSetMinimumVersion: Int32 = 123
    /// SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER: a write may report
    /// part of the bytes, and a retried write may come from another address (Swift arrays move).
    static let modePartialMovingWrites = 0x1 | 0x2
    static let tls12Version = 0x0303
    static let verifyOK = 0

    let clientMethod: Method
    let contextNew: ContextNew
    let contextFree: ContextFree
    let contextDefaultVerifyPaths: ContextStatus
    let contextLoadVerifyLocations: ContextLoadLocations
    let contextSetVerify: ContextSetVerify
    let contextControl: Control
    let sessionNew: SessionNew
    let sessionFree: SessionFree
    let sessionSetDescriptor: SessionSetDescriptor
    let sessionControl: Control
    let sessionSetHost: SessionSetName
    let sessionParameters: SessionParameters
    let parametersSetAddress: ParametersSetAddress
    let sessionConnect: SessionStep
    let sessionRead: SessionRead
    let sessionWrite: SessionWrite
    let sessionShutdown: SessionStep
    let sessionError: SessionError
    let sessionVerifyResult: SessionVerifyResult
    let verifyErrorText: VerifyErrorText
    let errorNext: ErrorNext
    let errorText: ErrorText
    let errorClear: ErrorClear
    /// Which file was loaded, for messages.
    let name: String
    /// The dlopen handle, kept for the calls only a server needs (`OpenSSLServerCalls`).
    let handle: UnsafeMutableRawPointer

    /// The library, loaded once per process; the failure says what was looked for.
    static let shared: Result<OpenSSLLibrary, UpstreamError> = load()

    /// The names tried, newest first. `libssl.so` (the -dev symlink) last, as it may be any version.
    static let candidates = ["libssl.so.3", "libssl.so.1.1", "libssl.so"]

    private static func load() -> Result<OpenSSLLibrary, UpstreamError> {
        for name in candidates {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let library = OpenSSLLibrary(handle: handle, name: name) { return .success(library) }
            dlclose(handle)
        }
        return .failure(
            .unreachable(
                "https upstreams need OpenSSL's libssl (tried \(candidates.joined(separator: ", "))): install it, e.g. `apt-get install libssl3`"
            ))
    }

    private init?(handle: UnsafeMutableRawPointer, name: String) {
        // dlsym on the libssl handle also finds libcrypto's symbols (its dependency).
        func symbol<T>(_ symbolName: String, as type: T.Type) -> T? {
            guard let address = dlsym(handle, symbolName) else { return nil }
            return unsafeBitCast(address, to: type)
        }
        guard let clientMethod = symbol("TLS_client_method", as: Method.self),
            let contextNew = symbol("SSL_CTX_new", as: ContextNew.self),
            let contextFree = symbol("SSL_CTX_free", as: ContextFree.self),
            let contextDefaultVerifyPaths = symbol("SSL_CTX_set_default_verify_paths", as: ContextStatus.self),
            let contextLoadVerifyLocations = symbol("SSL_CTX_load_verify_locations", as: ContextLoadLocations.self),
            let contextSetVerify = symbol("SSL_CTX_set_verify", as: ContextSetVerify.self),
            let contextControl = symbol("SSL_CTX_ctrl", as: Control.self),
            let sessionNew = symbol("SSL_new", as: SessionNew.self),
            let sessionFree = symbol("SSL_free", as: SessionFree.self),
            let sessionSetDescriptor = symbol("SSL_set_fd", as: SessionSetDescriptor.self),
            let sessionControl = symbol("SSL_ctrl", as: Control.self),
            let sessionSetHost = symbol("SSL_set1_host", as: SessionSetName.self),
            let sessionParameters = symbol("SSL_get0_param", as: SessionParameters.self),
            let parametersSetAddress = symbol("X509_VERIFY_PARAM_set1_ip_asc", as: ParametersSetAddress.self),
            let sessionConnect = symbol("SSL_connect", as: SessionStep.self),
            let sessionRead = symbol("SSL_read", as: SessionRead.self),
            let sessionWrite = symbol("SSL_write", as: SessionWrite.self),
            let sessionShutdown = symbol("SSL_shutdown", as: SessionStep.self),
            let sessionError = symbol("SSL_get_error", as: SessionError.self),
            let sessionVerifyResult = symbol("SSL_get_verify_result", as: SessionVerifyResult.self),
            let verifyErrorText = symbol("X509_verify_cert_error_string", as: VerifyErrorText.self),
            let errorNext = symbol("ERR_get_error", as: ErrorNext.self),
            let errorText = symbol("ERR_error_string_n", as: ErrorText.self),
            let errorClear = symbol("ERR_clear_error", as: ErrorClear.self)
        else { return nil }
        self.clientMethod = clientMethod
        self.contextNew = contextNew
        self.contextFree = contextFree
        self.contextDefaultVerifyPaths = contextDefaultVerifyPaths
        self.contextLoadVerifyLocations = contextLoadVerifyLocations
        self.contextSetVerify = contextSetVerify
        self.contextControl = contextControl
        self.sessionNew = sessionNew
        self.sessionFree = sessionFree
        self.sessionSetDescriptor = sessionSetDescriptor
        self.sessionControl = sessionControl
        self.sessionSetHost = sessionSetHost
        self.sessionParameters = sessionParameters
        self.parametersSetAddress = parametersSetAddress
        self.sessionConnect = sessionConnect
        self.sessionRead = sessionRead
        self.sessionWrite = sessionWrite
        self.sessionShutdown = sessionShutdown
        self.sessionError = sessionError
        self.sessionVerifyResult = sessionVerifyResult
        self.verifyErrorText = verifyErrorText
        self.errorNext = errorNext
        self.errorText = errorText
        self.errorClear = errorClear
        self.name = name
        self.handle = handle
    }

    /// A function of libssl or libcrypto (found through libssl's handle), or nil.
    func symbol<T>(_ symbolName: String, as type: T.Type) -> T? {
        guard let address = dlsym(handle, symbolName) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    /// The oldest queued error as text (then the queue is cleared), or nil when there is none.
    func takeErrorText() -> String? {
        let code = errorNext()
        defer { errorClear() }
        guard code != 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            buffer.initialize(repeating: 0)
            errorText(code, buffer.baseAddress, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }
}
#endif
