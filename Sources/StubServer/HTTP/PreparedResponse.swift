/// A response whose header block is serialised once (at stub compile time), so serving a
/// static stub costs a copy rather than a format. The engine still adds `Connection` and
/// picks the status line's version per request.
public struct PreparedResponse: Sendable {
    public let response: HTTPResponse

    public init(_ response: HTTPResponse) {
        self.response = response
    }
}
