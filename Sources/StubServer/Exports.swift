// `RequestFilter` and the verification protocol live in the engine-free StubVerification
// module (so SpecKit's `haveReceived` needs no engine); `import StubServer` still gives them.
@_exported import StubVerification
