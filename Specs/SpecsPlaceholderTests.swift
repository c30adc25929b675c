import XCTest
// Placeholder until the DesignerNews specs land.
final class SpecsPlaceholderTests: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
