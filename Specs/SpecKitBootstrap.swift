// Lets SwiftPM on Linux list every scenario of this target as its own test.
@_exported import SpecKit
