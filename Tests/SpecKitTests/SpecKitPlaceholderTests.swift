import XCTest
@testable import SpecKit
// Placeholder until the SpecKit tests land.
final class SpecKitPlaceholderTests: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
