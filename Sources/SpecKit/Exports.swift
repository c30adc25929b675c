// SpecKit is the XCTest-facing half; what app code may also link (EnvironmentStack,
// decode(_:fromJSON:), DecodingFailure) lives in SpecKitAppSupport, re-exported here so
// `import SpecKit` keeps giving specs everything.
@_exported import SpecKitAppSupport
// The report model and its renderers (living document, JUnit, fragments) live in the XCTest-free
// SpecReporting, shared with the `speckit` command that merges shards' reports.
@_exported import SpecReporting
