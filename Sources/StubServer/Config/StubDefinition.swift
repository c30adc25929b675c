// CONTRACT (placeholder until the config work lands): one session (`{request, response}`,
// catch-all `{response}`, `{request, redirectTo}`), parsed from JSON or built in Swift.
public struct StubDefinition: Sendable {
    public init() {}
}
