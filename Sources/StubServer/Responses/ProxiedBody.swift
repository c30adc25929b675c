/// A proxied response whose body is relayed as the upstream sends it: a `text/event-stream`
/// event by event, a large download piece by piece. The engine asks for the next piece only
/// once the previous one drained to the client, and the upstream connection stops reading while
/// the client is behind, so neither side's memory grows with the body.
extension UpstreamBodyStream {
    func reply(head: HTTPResponse, contentLength: Int?, delay: Duration) -> HTTPReply {
        let response = HTTPStreamedResponse(head: head, contentLength: contentLength) { [self] stream in
            if stream.index == 0 { stream.onCancel { [self] in cancel() } }
            next { event in
                switch event {
                case .bytes(let bytes): stream.write(bytes)
                case .end: stream.finish()
                case .failed: stream.abort()
                }
            }
        }
        return HTTPReply(.streamed(response), delay: delay)
    }

    /// Whether a proxied answer's body is relayed: not for `HEAD`, not for statuses without a
    /// body, and not when the whole answer is needed (a failover or playback file saves it,
    /// an `on.complete` event follows it).
    static func relays(_ proxy: ProxyPlan, event: EventPlan?, method: String) -> Bool {
        guard case .plain = proxy.mode, event == nil else { return false }
        return method.uppercased() != "HEAD"
    }

    /// The `Content-Length` an upstream answer announced, unless it is chunked.
    static func announcedLength(_ response: UpstreamResponse) -> Int? {
        if response.headers.values(for: "Transfer-Encoding").contains(where: { $0.lowercased().contains("chunked") }) { return nil }
        return response.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}
