/// An HTTP protocol version such as `HTTP/1.1`.
///
/// ```swift
/// HTTPVersion("HTTP/1.0") == .http1_0   // true
/// ```
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Parses `HTTP/<major>.<minor>` (single digits, as RFC 9112 requires); nil otherwise.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 8,
            bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"),
            bytes[4] == UInt8(ascii: "/"), bytes[6] == UInt8(ascii: "."),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[5]),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[7])
        else { return nil }
        self.init(major: Int(bytes[5] - UInt8(ascii: "0")), minor: Int(bytes[7] - UInt8(ascii: "0")))
    }

    public static let http0_9 = HTTPVersion(major: 0, minor: 9)
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }
}
