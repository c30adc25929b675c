import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local development certificate authority and a server certificate it signs for this
/// machine (`localhost`, `127.0.0.1`, `::1`, its host name), kept in the user's configuration
/// folder so a simulator, a device or `curl` trusts them once. What `stubserver start --https`
/// uses when given no certificate; `stubserver cert` shows or renews them.
///
/// ```swift
/// let status = try DevelopmentCertificates.ensure()      // made on first use, then reused
/// var options = StubServer.Options()
/// options.tls = try DevelopmentCertificates.identity()   // serve https://localhost:PORT
/// // clients trust status.paths.authorityCertificate (curl --cacert, TrustedAuthority…)
/// ```
///
/// Files (keys `0600`, the folder `0700`, each written atomically): `ca.pem`, `ca-key.pem`,
/// `server.pem`, `server-key.pem` and `server.json` (names and expiry). The authority lasts ten
/// years; the server certificate 397 days (Apple platforms refuse longer ones) and is made
/// again when it expires within 30 days or the names change.
public enum DevelopmentCertificates {
    public struct Paths: Sendable, Equatable {
        public var directory: String
        public var authorityCertificate: String { directory + "/ca.pem" }
        public var authorityKey: String { directory + "/ca-key.pem" }
        public var certificate: String { directory + "/server.pem" }
        public var privateKey: String { directory + "/server-key.pem" }
        var metadata: String { directory + "/server.json" }

        public init(directory: String) { self.directory = directory }
    }

    public struct Status: Sendable {
        public var paths: Paths
        /// The names the server certificate is for.
        public var names: [String]
        public var expires: Date
        /// True when this call made a new authority (clients must trust it again).
        public var madeAuthority: Bool
        /// True when this call made a new server certificate.
        public var madeCertificate: Bool
    }

    static let authorityDays = 3650
    static let certificateDays = 397
    static let renewalMargin: TimeInterval = 30 * 86_400

    /// `$XDG_CONFIG_HOME/rehearsal/certificates`, else `~/.config/rehearsal/certificates` on
    /// Linux; `~/Library/Application Support/Rehearsal/certificates` on macOS.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if os(macOS)
        return home + "/Library/Application Support/Rehearsal/certificates"
        #else
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/rehearsal/certificates" }
        return home + "/.config/rehearsal/certificates"
        #endif
    }

    /// `localhost`, `127.0.0.1`, `::1` and this machine's host name (and `NAME.local`).
    public static func defaultNames() -> [String] {
        var names = ["localhost", "127.0.0.1", "::1"]
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let host = String(decoding: bytes, as: UTF8.self).lowercased()
            let valid = !host.isEmpty && host.count < 254 && host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
            if valid && host != "localhost" {
                names.append(host)
                if !host.contains(".") { names.append(host + ".local") }
            }
        }
        return names
    }

    /// Makes the authority if there is none, and the server certificate if it is missing,
    /// expiring within 30 days, made for other names, or `renew` asks.
    @discardableResult
    public static func ensure(
        directory: String = defaultDirectory(), names: [String] = defaultNames(), renew: Bool = false,
        newAuthority: Bool = false, now: Date = Date()
    ) throws(TLSConfigurationError) -> Status {
        let paths = Paths(directory: directory)
        try createDirectory(directory)
        let manager = FileManager.default
        var madeAuthority = false
        let authority: CertificateFactory.Made
        if !newAuthority, manager.fileExists(atPath: paths.authorityCertificate), manager.fileExists(atPath: paths.authorityKey) {
            let identity = try TLSIdentity(certificateFile: paths.authorityCertificate, privateKeyFile: paths.authorityKey)
            authority = CertificateFactory.Made(certificate: identity.certificateChain[0], privateKey: identity.privateKey)
        } else {
            let user = ProcessInfo.processInfo.environment["USER"].map { " (\($0))" } ?? ""
            authority = try CertificateFactory.makeAuthority(commonName: "Rehearsal Development CA\(user)", days: authorityDays)
            try write(PEMBlocks.encode(authority.privateKey, label: "EC PRIVATE KEY"), to: paths.authorityKey, secret: true)
            try write(PEMBlocks.encode(authority.certificate, label: "CERTIFICATE"), to: paths.authorityCertificate, secret: false)
            madeAuthority = true
        }
        if !madeAuthority && !renew, let current = metadata(paths), Set(current.names) == Set(names),
            current.expires.timeIntervalSince(now) > renewalMargin,
            manager.fileExists(atPath: paths.certificate), manager.fileExists(atPath: paths.privateKey)
        {
            return Status(paths: paths, names: current.names, expires: current.expires, madeAuthority: false, madeCertificate: false)
        }
        let server = try CertificateFactory.makeServer(names: names, authority: authority, days: certificateDays)
        try write(PEMBlocks.encode(server.privateKey, label: "EC PRIVATE KEY"), to: paths.privateKey, secret: true)
        try write(PEMBlocks.encode(server.certificate, label: "CERTIFICATE"), to: paths.certificate, secret: false)
        let expires = now.addingTimeInterval(TimeInterval(certificateDays) * 86_400)
        let record = Metadata(names: names, expires: expires)
        guard let json = try? JSONEncoder().encode(record) else { throw TLSConfigurationError("cannot encode \(paths.metadata)") }
        try write(String(decoding: json, as: UTF8.self), to: paths.metadata, secret: false)
        return Status(paths: paths, names: names, expires: expires, madeAuthority: madeAuthority, madeCertificate: true)
    }

    /// What `ensure` last recorded, or nil when nothing (or something unreadable) is there.
    public static func status(directory: String = defaultDirectory()) -> Status? {
        let paths = Paths(directory: directory)
        guard FileManager.default.fileExists(atPath: paths.authorityCertificate), let current = metadata(paths) else { return nil }
        return Status(paths: paths, names: current.names, expires: current.expires, madeAuthority: false, madeCertificate: false)
    }

    /// The server certificate and key to serve (`StubServer.Options.tls`).
    public static func identity(directory: String = defaultDirectory()) throws(TLSConfigurationError) -> TLSIdentity {
        let paths = Paths(directory: directory)
        return try TLSIdentity(certificateFile: paths.certificate, privateKeyFile: paths.privateKey)
    }

    private struct Metadata: Codable {
        var names: [String]
        var expires: Date
    }

    private static func metadata(_ paths: Paths) -> Metadata? {
        guard let data = FileManager.default.contents(atPath: paths.metadata), data.count < 64 * 1024 else { return nil }
        return try? JSONDecoder().decode(Metadata.self, from: data)
    }

    private static func createDirectory(_ directory: String) throws(TLSConfigurationError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSConfigurationError("cannot create \(directory): \(error.localizedDescription)")
        }
        _ = chmod(directory, 0o700)
    }

    /// A new file beside the target, created with its final permissions (0600 for keys),
    /// flushed, then renamed over it: a reader sees the old file or the new one, never a part.
    static func write(_ text: String, to path: String, secret: Bool) throws(TLSConfigurationError) {
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, secret ? 0o600 : 0o644)
        guard fd >= 0 else { throw TLSConfigurationError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw TLSConfigurationError("cannot write \(path): \(reason)")
            }
            offset += written
        }
        _ = fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TLSConfigurationError("cannot write \(path): \(reason)")
        }
    }
}
