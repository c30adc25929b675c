/// Ways to break an exchange on purpose, so client code can be tested against them
/// (Rehearsal's `"fault"` response key; WireMock has the same faults).
///
/// ```swift
/// HTTPReply(.fault(.connectionReset))                 // the client sees ECONNRESET
/// HTTPReply(.fault(.bytesThenClose(Array("lol\r\n".utf8))))
/// ```
public enum HTTPFault: Sendable, Equatable {
    /// Close with a TCP reset (`SO_LINGER` 0) instead of a FIN, without a byte of answer.
    case connectionReset
    /// Close without a byte of answer (an orderly FIN).
    case emptyResponse
    /// Send these bytes (not an HTTP response, usually), then close.
    case bytesThenClose([UInt8])
}
