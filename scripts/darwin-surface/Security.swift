// The Security framework and the Core Foundation types its Swift API uses, as Swift sees them on
// Apple platforms (Security.framework headers SecCertificate.h, SecPolicy.h, SecTrust.h; CoreFoundation
// CFBase.h, CFData.h, CFString.h, CFArray.h, CFError.h). Plus the Foundation members that take Security
// types, which Linux's FoundationNetworking declares unavailable ("does not support methods of
// authentication that rely on the Darwin Security framework"): NSURLProtectionSpace.h `serverTrust`,
// NSURLCredential.h `init(trust:)`, NSURLAuthenticationMethodServerTrust. Declared here, they shadow those.
import Foundation
import FoundationNetworking

// CFBase.h: CF types are classes in Swift; CFTypeRef is AnyObject; OSStatus (MacTypes.h) is Int32.
public typealias CFTypeRef = AnyObject
public typealias OSStatus = Int32
public final class CFAllocator {}
public final class CFData {}
public final class CFString {}
public final class CFArray {}
public final class CFError {}

// SecBase.h: the opaque Security types.
public final class SecCertificate {}
public final class SecPolicy {}
public final class SecTrust {}

// SecCertificate.h
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? { nil }
// SecPolicy.h
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy { SecPolicy() }
// SecTrust.h (imported C functions never warn about an unused result, hence @discardableResult)
@discardableResult public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus { 0 }
@discardableResult public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> OSStatus { 0 }
@discardableResult public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus { 0 }
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }

// NSURLProtectionSpace.h, NSURLCredential.h, NSURLAuthenticationChallenge.h (Foundation)
extension URLProtectionSpace {
    public var serverTrust: SecTrust? { nil }
}
extension URLCredential {
    public convenience init(trust: SecTrust) { self.init(user: "", password: "", persistence: .none) }
}
public let NSURLAuthenticationMethodServerTrust: String = "NSURLAuthenticationMethodServerTrust"
