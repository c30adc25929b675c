import XCTest

@testable import StubServer

/// `dev_t` is `Int32` on Darwin: a device number with the top bit set must become its bit pattern,
/// not trap as `UInt64(_:)` of a negative value does.
final class FileIdentityDeviceTests: XCTestCase {
    func testADeviceNumberIsItsBitPattern() {
        XCTAssertEqual(FileIdentity.deviceNumber(Int32(-5)), 0xFFFF_FFFB)
        XCTAssertEqual(FileIdentity.deviceNumber(Int32.min), 0x8000_0000)
        XCTAssertEqual(FileIdentity.deviceNumber(Int32(16_777_220)), 16_777_220)
        XCTAssertEqual(FileIdentity.deviceNumber(UInt64.max), UInt64.max)
        XCTAssertEqual(FileIdentity.deviceNumber(UInt64(2049)), 2049)
    }
}
