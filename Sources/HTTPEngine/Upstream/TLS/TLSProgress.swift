/// What one step of a TLS session (a handshake step, a read, a write) came to on a non-blocking
/// socket: the client and server sessions report the same, and Apple platforms' placeholder
/// session too.
enum TLSProgress: Equatable {
    case done(Int)
    case wantRead
    case wantWrite
    /// The peer closed the TLS session (close_notify) or the socket.
    case closed
    case failed(String)
}
