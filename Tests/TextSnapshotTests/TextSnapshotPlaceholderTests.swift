import XCTest
@testable import TextSnapshot
// Placeholder until the TextSnapshot tests land.
final class TextSnapshotPlaceholderTests: XCTestCase {
    func testPlaceholder() { XCTAssertTrue(true) }
}
