#if canImport(Security)
import Foundation
import Security

/// Apple platforms: a `URLSessionDelegate` that trusts HTTPS servers whose certificate chains
/// to the given authority (the development CA of `stubserver start --https`) as well as the
/// system's roots. Nothing is switched off: the chain, the dates and the host name are still
/// evaluated (`SecTrustEvaluateWithError` with an SSL policy for the host).
///
/// ```swift
/// let status = try DevelopmentCertificates.ensure()
/// let delegate = try TrustingAuthorityDelegate(authorityCertificateFile: status.paths.authorityCertificate)
/// let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
/// let (data, _) = try await session.data(from: server.baseURL.appending(path: "api/v1/stories"))
/// ```
///
/// On Linux, FoundationNetworking's URLSession offers no trust evaluation to delegates: trust
/// the CA system-wide (`update-ca-certificates`) or use `UpstreamClient` with
/// `Configuration.trustedCertificatesFile`.
public final class TrustingAuthorityDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {
    private let anchors: [SecCertificate]

    /// The authorities as DER certificates.
    public init(authorities: [[UInt8]]) {
        anchors = authorities.compactMap { SecCertificateCreateWithData(nil, Data($0) as CFData) }
    }

    /// Every certificate of a PEM file (`ca.pem`).
    public convenience init(authorityCertificateFile path: String) throws(TLSConfigurationError) {
        let text = String(decoding: try TLSIdentity.read(path, what: "authority certificate"), as: UTF8.self)
        let certificates = PEMBlocks.parse(text).filter { $0.label == "CERTIFICATE" }.map(\.bytes)
        guard !certificates.isEmpty else { throw TLSConfigurationError("\(path): no PEM certificate found") }
        self.init(authorities: certificates)
    }

    public func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust
        else { return (.performDefaultHandling, nil) }
        SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, challenge.protectionSpace.host as CFString))
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, false) // the system's roots stay trusted too
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else { return (.cancelAuthenticationChallenge, nil) }
        return (.useCredential, URLCredential(trust: trust))
    }
}
#endif
