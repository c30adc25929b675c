import Foundation

@testable import StubServer

/// A stand-in router for facade tests: `/stub/<n>...` is answered by stub `scripted#n` (200,
/// body `stub <n>`), `/slow/<ms>` by `scripted#99` after a delay; anything else is a 400 no-match.
struct ScriptedRouting: RequestRouting {
    var label = "scripted"
    /// Called as each request is routed, so tests can wait for it.
    var onRoute: (@Sendable (HTTPRequest) -> Void)?

    func route(_ request: HTTPRequest) -> RouteResult {
        onRoute?(request)
        let parts = request.rawPath.split(separator: "/")
        if parts.count >= 2, parts[0] == "stub", let index = Int(parts[1]) {
            return RouteResult(
                reply: HTTPReply(.response(HTTPResponse(status: 200, body: Array("\(label) \(index)".utf8)))),
                stub: StubReference(file: label, index: index)
            )
        }
        if parts.count == 2, parts[0] == "slow", let ms = Int(parts[1]) {
            return RouteResult(
                reply: HTTPReply(.response(HTTPResponse(status: 200, body: Array("slow".utf8))), delay: .milliseconds(ms)),
                stub: StubReference(file: label, index: 99)
            )
        }
        return RouteResult(
            reply: HTTPReply(.response(HTTPResponse(status: 400, body: Array("no stub matched".utf8)))),
            stub: nil
        )
    }
}
