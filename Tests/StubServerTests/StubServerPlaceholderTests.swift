import XCTest
@testable import StubServer
// Placeholder until the StubServer tests land.
final class StubServerPlaceholderTests: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
