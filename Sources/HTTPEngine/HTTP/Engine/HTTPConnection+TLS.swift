#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTPS: every byte through the TLS session, the handshake, plain HTTP on the TLS port.
extension HTTPConnection {
    // MARK: TLS

    /// Reads through TLS when serving HTTPS, else straight from the socket.
    func transportRead(into buffer: UnsafeMutableRawPointer, count: Int) -> SystemCalls.IOResult {
        guard let tls else { return SystemCalls.read(fd, into: buffer, count: count) }
        switch tls.read(into: buffer, count: count) {
        case .done(let read): return .bytes(read)
        case .wantRead: return .wouldBlock
        case .wantWrite:
            tlsReadWantsWrite = true
            updateInterest()
            return .wouldBlock
        case .closed: return .endOfFile
        case .failed: return .failed(EIO)
        }
    }

    func transportSend(_ bytes: UnsafeRawPointer, count: Int) -> SystemCalls.IOResult {
        guard let tls else { return SystemCalls.send(fd, bytes, count: count) }
        guard handshakeDone else { return .wouldBlock } // queued until the handshake completes
        switch tls.write(bytes, count: count) {
        case .done(let written): return .bytes(written)
        case .wantWrite: return .wouldBlock
        case .wantRead:
            tlsWriteWantsRead = true
            return .wouldBlock
        case .closed: return .endOfFile
        case .failed: return .failed(EIO)
        }
    }

    /// One step of the server handshake, on every event until it completes. A client whose
    /// first byte is not a TLS handshake record (plain HTTP on the HTTPS port) gets a
    /// plain-text 400 instead of a hang or a TLS alert it cannot read.
    func continueHandshake() {
        guard let tls else { return }
        if !firstByteChecked {
            var first: UInt8 = 0
            let peeked = recv(fd, &first, 1, Int32(MSG_PEEK))
            if peeked == 0 { closeNow(); return }
            if peeked < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                closeNow()
                return
            }
            firstByteChecked = true
            if first != 0x16 { refusePlainHTTP(); return }
        }
        switch tls.handshake() {
        case .done:
            handshakeDone = true
            handshakeWantsWrite = false
            deadline = worker.loop.now &+ context.headerTimeout
            updateInterest()
            flush() // bytes a stream handler queued meanwhile
            if !isClosed { readAvailable(force: true) } // application data may have come with the last flight
        case .wantRead:
            handshakeWantsWrite = false
            updateInterest()
        case .wantWrite:
            handshakeWantsWrite = true
            updateInterest()
        case .closed:
            closeNow()
        case .failed(let reason):
            failHandshake("TLS handshake failed: \(reason)")
        }
    }

    func failHandshake(_ reason: String) {
        context.onRejection?(
            HTTPRejection(status: 0, reason: reason, method: nil, target: nil, remoteAddress: remoteHost, remotePort: remotePort))
        closeNow()
    }

    private func refusePlainHTTP() {
        let reason = "plain HTTP sent to an HTTPS port"
        context.onRejection?(
            HTTPRejection(status: 400, reason: reason, method: nil, target: nil, remoteAddress: remoteHost, remotePort: remotePort))
        let body = "This port speaks HTTPS: use an https:// URL.\n"
        let text =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            + body
        // A few hundred bytes into an empty socket buffer: one send, never a wait.
        _ = Array(text.utf8).withUnsafeBytes { SystemCalls.send(fd, $0.baseAddress!, count: $0.count) }
        startLingering()
    }
}
