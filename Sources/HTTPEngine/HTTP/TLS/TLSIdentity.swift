import Foundation

/// Why a certificate, key or keystore could not be used to serve HTTPS.
public struct TLSConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What an HTTPS server presents: its certificate chain (leaf first) and the leaf's private key,
/// both DER. Build one from PEM files, PEM text, or a Java keystore as moco users have them
/// (JKS or PKCS#12, told apart by their first bytes).
///
/// ```swift
/// let identity = try TLSIdentity(certificateFile: "cert.pem", privateKeyFile: "key.pem")
/// var configuration = HTTPServer.Configuration()
/// configuration.tls = identity
/// ```
public struct TLSIdentity: Sendable, Equatable {
    /// DER certificates, the server's own first, then any intermediates.
    public var certificateChain: [[UInt8]]
    /// DER private key: PKCS#8 `PrivateKeyInfo`, or a traditional RSA/EC key.
    public var privateKey: [UInt8]

    /// Files larger than this are refused before they are read (keys and chains are a few KiB).
    static let maxFileBytes = 1024 * 1024

    public init(certificateChain: [[UInt8]], privateKey: [UInt8]) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// PEM text: every `CERTIFICATE` block of `certificatePEM` (leaf first) and the one private
    /// key block of `privateKeyPEM` (`PRIVATE KEY`, `RSA PRIVATE KEY` or `EC PRIVATE KEY`).
    public init(certificatePEM: String, privateKeyPEM: String) throws(TLSConfigurationError) {
        let certificates = PEMBlocks.parse(certificatePEM).filter { $0.label == "CERTIFICATE" || $0.label == "TRUSTED CERTIFICATE" }
        guard !certificates.isEmpty else {
            throw TLSConfigurationError("no PEM certificate found (expected a -----BEGIN CERTIFICATE----- block)")
        }
        let keys = PEMBlocks.parse(privateKeyPEM).filter { $0.label.hasSuffix("PRIVATE KEY") }
        guard let key = keys.first else {
            throw TLSConfigurationError("no PEM private key found (expected a -----BEGIN PRIVATE KEY----- block)")
        }
        if key.label == "ENCRYPTED PRIVATE KEY" || key.headers.contains("Proc-Type") {
            throw TLSConfigurationError(
                "the private key is encrypted; write it out without a passphrase (`openssl pkey -in KEY -out plain.pem`)")
        }
        self.init(certificateChain: certificates.map(\.bytes), privateKey: key.bytes)
    }

    /// PEM files: the certificate (chain) and its private key (the same file may hold both).
    public init(certificateFile: String, privateKeyFile: String) throws(TLSConfigurationError) {
        let certificate = try Self.readText(certificateFile, what: "certificate")
        let key = try Self.readText(privateKeyFile, what: "private key")
        do {
            try self.init(certificatePEM: certificate, privateKeyPEM: key)
        } catch {
            throw TLSConfigurationError("\(error.message.contains("private key") ? privateKeyFile : certificateFile): \(error.message)")
        }
    }

    /// A Java keystore as moco's `https` task takes it (`--https FILE --keystore STOREPASS --cert KEYPASS`):
    /// JKS (`0xFEEDFEED`, verified with the store password, the key decrypted with the key
    /// password) or PKCS#12 (through OpenSSL; tried with the store password, then the key password).
    public init(keystoreFile: String, storePassword: String, keyPassword: String) throws(TLSConfigurationError) {
        let bytes = try Self.read(keystoreFile, what: "keystore")
        do {
            self = try Self.keystore(bytes, storePassword: storePassword, keyPassword: keyPassword)
        } catch {
            throw TLSConfigurationError("\(keystoreFile): \(error.message)")
        }
    }

    /// The keystore's bytes, by format.
    static func keystore(_ bytes: [UInt8], storePassword: String, keyPassword: String) throws(TLSConfigurationError) -> TLSIdentity {
        if bytes.starts(with: JKSKeystore.magic) {
            return try JKSKeystore.identity(bytes, storePassword: storePassword, keyPassword: keyPassword)
        }
        if bytes.starts(with: [0xCE, 0xCE, 0xCE, 0xCE]) {
            throw TLSConfigurationError(
                "a JCEKS keystore is not supported; convert it: `keytool -importkeystore -srckeystore FILE -srcstoretype JCEKS -destkeystore cert.p12 -deststoretype PKCS12`"
            )
        }
        if bytes.first == 0x30 {
            return try PKCS12Reader.identity(bytes, passwords: [storePassword, keyPassword])
        }
        throw TLSConfigurationError(
            "not a keystore: expected JKS (starting FE ED FE ED) or PKCS#12 (DER), found \(bytes.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " "))"
        )
    }

    static func read(_ path: String, what: String) throws(TLSConfigurationError) -> [UInt8] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw TLSConfigurationError("\(path): cannot read the \(what): no such file")
        }
        if let size = attributes[.size] as? Int, size > maxFileBytes {
            throw TLSConfigurationError("\(path): the \(what) is \(size) bytes; at most \(maxFileBytes) expected")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TLSConfigurationError("\(path): cannot read the \(what)")
        }
        return Array(data)
    }

    private static func readText(_ path: String, what: String) throws(TLSConfigurationError) -> String {
        String(decoding: try read(path, what: what), as: UTF8.self)
    }
}

/// The blocks of a PEM text (RFC 7468): label, optional RFC 1421 headers, base64 body.
package enum PEMBlocks {
    struct Block {
        var label: String
        var headers: String
        var bytes: [UInt8]
    }

    static func parse(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var label: String?
        var body = ""
        var headers = ""
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if label == nil {
                if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                    label = String(line.dropFirst(11).dropLast(5))
                    body = ""
                    headers = ""
                }
            } else if line.hasPrefix("-----END ") {
                if let bytes = Data(base64Encoded: body) { blocks.append(Block(label: label!, headers: headers, bytes: Array(bytes))) }
                label = nil
            } else if line.contains(":") {
                headers += line + "\n"
            } else {
                body += line
            }
        }
        return blocks
    }

    /// PEM text of DER bytes, 64 columns.
    package static func encode(_ bytes: [UInt8], label: String) -> String {
        let base64 = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }
}
