/// A `StubDefinition` part that moco's session JSON cannot express, so encoding it would lose or
/// change it (what `StubServerClient` would post, what `GET /__admin/stubs` would list).
///
/// ```swift
/// do { _ = try definition.encodedMocoJSON() } catch {
///     print(error)  // response.sse: server-sent events need "events" or "file", not both
/// }
/// ```
public struct StubEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the session the part is, as a JSON path (`response.proxy.failover`).
    public var path: String
    /// Why it cannot be written.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
