// Makes SpecKit's test-list expansion visible to SwiftPM's generated Linux test list, so
// ReRecordCommandSpec's scenario is its own XCTest test. One line per test target.
@_exported import SpecKit
