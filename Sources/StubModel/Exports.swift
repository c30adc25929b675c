// Stub definitions speak `JSONValue` (bodies, request JSON, the moco encoding), so importing the
// model gives it too.
@_exported import RehearsalJSON
