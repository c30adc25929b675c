#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Transport: the socket, or the TLS session over it (an `https` upstream's handshake included).
extension UpstreamConnection {
    func send(_ bytes: UnsafeRawPointer, count: Int) -> SystemCalls.IOResult {
        writeWaitsForRead = false
        #if !canImport(Darwin)
        if let tls {
            switch tls.write(bytes, count: count) {
            case .done(let sent): return .bytes(sent)
            case .wantRead:
                writeWaitsForRead = true
                return .wouldBlock
            case .wantWrite: return .wouldBlock
            case .closed: return .endOfFile
            case .failed: return .failed(EPROTO)
            }
        }
        #endif
        return SystemCalls.send(fd, bytes, count: count)
    }

    func receive(into buffer: UnsafeMutableRawPointer, count: Int) -> SystemCalls.IOResult {
        #if !canImport(Darwin)
        if let tls {
            switch tls.read(into: buffer, count: count) {
            case .done(let received):
                if state == .reading { setWriting(false) }
                return .bytes(received)
            case .wantRead:
                if state == .reading { setWriting(false) }
                return .wouldBlock
            case .wantWrite:
                // A TLS read may need to write first (a key update): wake when writable too.
                setWriting(true)
                return .wouldBlock
            // OpenSSL 3 reports a close without close_notify as an error; for a response that
            // ends with the connection, that is its end (a Content-Length one still fails).
            case .closed, .failed: return .endOfFile
            }
        }
        #endif
        return SystemCalls.read(fd, into: buffer, count: count)
    }

    #if !canImport(Darwin)
    func startHandshake(_ exchange: UpstreamExchange) {
        let context: TLSClientContext
        switch pool.client.tlsContext() {
        case .success(let made): context = made
        case .failure(let error): return fail(exchange, error)
        }
        guard let session = TLSSession(context: context, descriptor: fd, host: pool.endpoint.host) else {
            return fail(exchange, .unreachable("TLS: cannot start a session with \(pool.endpoint)"))
        }
        tls = session
        state = .handshaking
        continueHandshake()
    }

    func continueHandshake() {
        guard let tls, let exchange else { return close() }
        switch tls.handshake() {
        case .done:
            begin(exchange) // cancels the connect timer, which bounded the handshake too
        case .wantRead:
            setWriting(false)
        case .wantWrite:
            setWriting(true)
        case .closed:
            fail(exchange, .closed("\(pool.endpoint): the connection closed during the TLS handshake"))
        case .failed(let reason):
            fail(exchange, .unreachable(reason))
        }
    }
    #endif
}
