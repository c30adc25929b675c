/// Reads Sun's JKS keystore format (what `keytool -storetype JKS` writes and moco's `https`
/// task loads): its integrity hash, its private-key entries (protected with Sun's SHA-1
/// keystream scheme) and their certificate chains. Pure Swift, so it works wherever we run.
///
/// Layout (big-endian): magic `FEEDFEED`, version (1 or 2), entry count, entries, then
/// SHA-1(password as UTF-16BE ‖ "Mighty Aphrodite" ‖ every preceding byte).
/// A private-key entry: tag 1, alias, timestamp, an `EncryptedPrivateKeyInfo` whose data is
/// salt(20) ‖ key XOR keystream ‖ SHA-1(password ‖ key), then the chain (each certificate
/// preceded by its type name in version 2). A trusted-certificate entry: tag 2, alias,
/// timestamp, one certificate.
enum JKSKeystore {
    static let magic: [UInt8] = [0xFE, 0xED, 0xFE, 0xED]
    /// 1.3.6.1.4.1.42.2.17.1.1, Sun's key-protection algorithm.
    static let keyProtectorOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x2A, 0x02, 0x11, 0x01, 0x01]

    struct Entry {
        var alias: String
        /// `EncryptedPrivateKeyInfo` DER (private-key entries only).
        var protectedKey: [UInt8]?
        var certificates: [[UInt8]]
    }

    /// The first private-key entry's chain and decrypted key.
    static func identity(_ bytes: [UInt8], storePassword: String, keyPassword: String) throws(TLSConfigurationError) -> TLSIdentity {
        let entries = try read(bytes, storePassword: storePassword)
        guard let entry = entries.first(where: { $0.protectedKey != nil }) else {
            throw TLSConfigurationError(
                "the JKS keystore has no private-key entry (only trusted certificates: \(entries.map(\.alias).joined(separator: ", ")))")
        }
        guard !entry.certificates.isEmpty else {
            throw TLSConfigurationError("the JKS entry \"\(entry.alias)\" has no certificate")
        }
        let key = try decryptKey(entry.protectedKey!, password: keyPassword, alias: entry.alias)
        return TLSIdentity(certificateChain: entry.certificates, privateKey: key)
    }

    /// Every entry, after checking the keystore's integrity hash with `storePassword`.
    static func read(_ bytes: [UInt8], storePassword: String) throws(TLSConfigurationError) -> [Entry] {
        guard bytes.count >= 12 + 20 else { throw TLSConfigurationError("the JKS keystore is truncated (\(bytes.count) bytes)") }
        let body = Array(bytes.dropLast(20))
        let expected = SHA1.hash(passwordBytes(storePassword) + Array("Mighty Aphrodite".utf8) + body)
        guard expected == Array(bytes.suffix(20)) else {
            throw TLSConfigurationError(
                "the JKS keystore's integrity check failed: wrong keystore password (--keystore), or the file is damaged")
        }
        var reader = BinaryReader(body)
        do {
            _ = try reader.bytes(4)
            let version = try reader.uint32()
            guard version == 1 || version == 2 else { throw TLSConfigurationError("unknown JKS version \(version)") }
            let count = try reader.uint32()
            guard count <= 10_000 else { throw TLSConfigurationError("the JKS keystore claims \(count) entries") }
            var entries: [Entry] = []
            for _ in 0..<count {
                let tag = try reader.uint32()
                let alias = try reader.utf()
                _ = try reader.bytes(8) // creation time
                switch tag {
                case 1:
                    let key = try reader.bytes(Int(try reader.uint32()))
                    let chainLength = try reader.uint32()
                    guard chainLength <= 100 else { throw TLSConfigurationError("entry \"\(alias)\" claims \(chainLength) certificates") }
                    var chain: [[UInt8]] = []
                    for _ in 0..<chainLength { chain.append(try certificate(&reader, version: version, alias: alias)) }
                    entries.append(Entry(alias: alias, protectedKey: key, certificates: chain))
                case 2:
                    entries.append(
                        Entry(alias: alias, protectedKey: nil, certificates: [try certificate(&reader, version: version, alias: alias)]))
                default:
                    throw TLSConfigurationError("entry \"\(alias)\" has unknown tag \(tag) at byte \(reader.offset - 4)")
                }
            }
            return entries
        } catch let error as TLSConfigurationError {
            throw error
        } catch {
            throw TLSConfigurationError("the JKS keystore is truncated at byte \(reader.offset)")
        }
    }

    private static func certificate(_ reader: inout BinaryReader, version: UInt32, alias: String) throws -> [UInt8] {
        if version == 2 {
            let type = try reader.utf()
            guard type == "X.509" else { throw TLSConfigurationError("entry \"\(alias)\" holds a \(type) certificate; X.509 expected") }
        }
        return try reader.bytes(Int(try reader.uint32()))
    }

    /// The PKCS#8 key inside an `EncryptedPrivateKeyInfo` protected by Sun's key protector.
    static func decryptKey(_ info: [UInt8], password: String, alias: String) throws(TLSConfigurationError) -> [UInt8] {
        guard let outer = DER.element(info, at: 0), outer.tag == 0x30,
            let algorithm = DER.element(info, at: outer.contentStart), algorithm.tag == 0x30,
            let oid = DER.element(info, at: algorithm.contentStart), oid.tag == 0x06,
            let data = DER.element(info, at: algorithm.end), data.tag == 0x04
        else { throw TLSConfigurationError("entry \"\(alias)\": the protected key is not an EncryptedPrivateKeyInfo") }
        guard Array(info[oid.contentStart..<oid.end]) == keyProtectorOID else {
            throw TLSConfigurationError("entry \"\(alias)\": the key is protected by an algorithm other than Sun's JKS key protector")
        }
        let protected = Array(info[data.contentStart..<data.end])
        guard protected.count > 40 else { throw TLSConfigurationError("entry \"\(alias)\": the protected key is too short") }
        let password = passwordBytes(password)
        let salt = Array(protected[0..<20])
        let encrypted = Array(protected[20..<(protected.count - 20)])
        var keystream: [UInt8] = []
        keystream.reserveCapacity(encrypted.count + 20)
        var digest = salt
        while keystream.count < encrypted.count {
            digest = SHA1.hash(password + digest)
            keystream += digest
        }
        let key = zip(encrypted, keystream).map { $0 ^ $1 }
        guard SHA1.hash(password + key) == Array(protected.suffix(20)) else {
            throw TLSConfigurationError("entry \"\(alias)\": wrong key password (--cert)")
        }
        return key
    }

    /// Java's `char[]` password as bytes: each UTF-16 unit, high byte first.
    static func passwordBytes(_ password: String) -> [UInt8] {
        password.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

/// Big-endian reads over a byte array, throwing at its end.
struct BinaryReader {
    struct End: Error {}
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bytes(_ count: Int) throws(End) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw End() }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func uint32() throws(End) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Java's `writeUTF`: a 16-bit length, then modified UTF-8.
    mutating func utf() throws(End) -> String {
        let length = try bytes(2).reduce(0) { $0 << 8 | Int($1) }
        return String(decoding: try bytes(length), as: UTF8.self)
    }
}

/// Just enough DER to walk a few nested elements.
enum DER {
    struct Element {
        var tag: UInt8
        var contentStart: Int
        var end: Int
    }

    /// The element starting at `offset`, or nil when its header or length does not fit.
    static func element(_ bytes: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        var length = Int(bytes[offset + 1])
        var start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, start + count <= bytes.count else { return nil }
            length = bytes[start..<(start + count)].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard length <= bytes.count - start else { return nil }
        return Element(tag: tag, contentStart: start, end: start + length)
    }
}
