// `CompiledRegex` (moco's `match` with a step budget) lives in BoundedRegex, shared with the
// OpenAPI schema validator's `pattern`.
@_exported import BoundedRegex
// StubServer's public API speaks the engine's types (`HTTPRequest`, `HTTPReply`, `HTTPServer`,
// `UpstreamClient`, …), so `import StubServer` gives them too, as before the engine moved out.
@_exported import HTTPEngine
// `JSONValue` and its parser live in RehearsalJSON (shared with the OpenAPI reader and app-linkable
// targets); stub definitions speak it, so `import StubServer` gives it too.
@_exported import RehearsalJSON
// The stub model (`StubDefinition`, `RequestPattern`, `ResponseDefinition`, `RecordedRequest`, …)
// lives in StubModel, shared with StubServerClient; `import StubServer` gives it as before.
@_exported import StubModel
// `RequestFilter` and the verification protocol live in the engine-free StubVerification
// module (so SpecKit's `haveReceived` needs no engine); `import StubServer` still gives them.
@_exported import StubVerification
