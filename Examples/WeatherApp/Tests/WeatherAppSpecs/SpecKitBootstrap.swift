// Once per test target: lets SwiftPM on Linux list every scenario of a FeatureSpec as its own
// XCTest test. (Swift Testing features need nothing here.)
@_exported import SpecKit
